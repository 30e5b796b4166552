import { XMLParser } from 'fast-xml-parser';
import { reject } from '../importer.ts';

/**
 * A Form 4 `ownershipDocument` read into plain values. Handles both schema generations: values wrapped in
 * `<value>` or bare, booleans as `0/1` or `true/false`, and the 10b5-1 flag either as the `aff10b5One` box
 * (schema X0508, 2023 on) or, in older filings, as a footnote on the transaction that mentions Rule 10b5-1.
 */
export interface Form4Document {
  documentType: string;
  periodOfReport: string | null;
  signatureDate: string | null;
  issuerCik: string;
  issuerName: string;
  issuerTicker: string | null;
  ownerCik: string;
  ownerName: string;
  ownerTitle: string | null;
  transactions: Form4Transaction[];
}

export interface Form4Transaction {
  derivative: boolean;
  /** 1-based position within its table: part of the natural key with the accession number. */
  sequence: number;
  securityTitle: string;
  transactionDate: string | null;
  code: string;
  shares: number | null;
  pricePerShare: number | null;
  acquiredDisposed: string;
  sharesOwnedAfter: number | null;
  directOwnership: boolean;
  rule10b51: boolean;
  /** Table II (derivative) rows only: the contract's terms; null on Table I (stock) rows. */
  option: Form4Option | null;
}

/** A derivative's terms as Table II gives them; each may be missing (a date often only as a footnote). */
export interface Form4Option {
  conversionOrExercisePrice: number | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingTitle: string | null;
  underlyingShares: number | null;
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: true,
  isArray: (name) =>
    ['nonDerivativeTransaction', 'derivativeTransaction', 'reportingOwner', 'footnote', 'footnoteId'].includes(name),
});

export function parseForm4(xml: string): Form4Document {
  const document = (parser.parse(ownershipDocumentXml(xml)) as Node).ownershipDocument as Node | undefined;
  if (!document) return reject('not_form4', 'no <ownershipDocument> element');
  const issuer = (document.issuer ?? {}) as Node;
  const owner = ((document.reportingOwner as Node[] | undefined) ?? [])[0] ?? {};
  const ownerId = (owner.reportingOwnerId ?? {}) as Node;
  const relationship = (owner.reportingOwnerRelationship ?? {}) as Node;
  const footnotes = new Map(
    (((document.footnotes as Node | undefined)?.footnote as Node[] | undefined) ?? []).map((note) => [
      String(note['@id']),
      text(note),
    ]),
  );
  const planBox = flag(document.aff10b5One);
  const table = (name: string, row: string, derivative: boolean) =>
    ((((document[name] as Node | undefined) ?? {})[row] as Node[] | undefined) ?? []).map((node, index) =>
      transaction(node, index + 1, derivative, footnotes, planBox),
    );
  return {
    documentType: text(document.documentType) || '4',
    periodOfReport: text(document.periodOfReport) || null,
    signatureDate: text((document.ownerSignature as Node | undefined)?.signatureDate) || null,
    issuerCik: text(issuer.issuerCik),
    issuerName: text(issuer.issuerName),
    issuerTicker: text(issuer.issuerTradingSymbol) || null,
    ownerCik: text(ownerId.rptOwnerCik),
    ownerName: text(ownerId.rptOwnerName),
    ownerTitle:
      text(relationship.officerTitle) ||
      (flag(relationship.isDirector) ? 'Director' : '') ||
      (flag(relationship.isTenPercentOwner) ? '10% Owner' : '') ||
      text(relationship.otherText) ||
      null,
    transactions: [
      ...table('nonDerivativeTable', 'nonDerivativeTransaction', false),
      ...table('derivativeTable', 'derivativeTransaction', true),
    ],
  };
}

function transaction(
  node: Node,
  sequence: number,
  derivative: boolean,
  footnotes: Map<string, string>,
  planBox: boolean | null,
): Form4Transaction {
  const coding = (node.transactionCoding ?? {}) as Node;
  const amounts = (node.transactionAmounts ?? {}) as Node;
  const after = (node.postTransactionAmounts ?? {}) as Node;
  const nature = (node.ownershipNature ?? {}) as Node;
  const notes = footnoteIds(node).map((id) => footnotes.get(id) ?? '');
  return {
    derivative,
    sequence,
    securityTitle: text(node.securityTitle),
    transactionDate: text(node.transactionDate) || null,
    code: text(coding.transactionCode),
    shares: number(amounts.transactionShares),
    pricePerShare: number(amounts.transactionPricePerShare),
    acquiredDisposed: text(amounts.transactionAcquiredDisposedCode),
    sharesOwnedAfter: number(after.sharesOwnedFollowingTransaction),
    directOwnership: text(nature.directOrIndirectOwnership) !== 'I',
    rule10b51: planBox ?? notes.some((note) => /10b5-1/i.test(note)),
    option: derivative ? optionTerms(node) : null,
  };
}

function optionTerms(node: Node): Form4Option {
  const underlying = (node.underlyingSecurity ?? {}) as Node;
  return {
    conversionOrExercisePrice: number(node.conversionOrExercisePrice),
    exerciseDate: text(node.exerciseDate) || null,
    expirationDate: text(node.expirationDate) || null,
    underlyingTitle: text(underlying.underlyingSecurityTitle) || null,
    underlyingShares: number(underlying.underlyingSecurityShares),
  };
}

/** The text of an element whether bare (`<code>S</code>`) or wrapped (`<x><value>S</value></x>`). */
function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return String(node).trim();
  const record = node as Node;
  if ('value' in record) return text(record.value);
  if ('#text' in record) return text(record['#text']);
  return '';
}

function number(node: unknown): number | null {
  const value = text(node).replace(/,/g, '');
  if (value === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : reject('unparseable_number', `"${value}" is not a number`);
}

/** `1`/`0`, `true`/`false` (either case); null when absent. */
function flag(node: unknown): boolean | null {
  const value = text(node).toLowerCase();
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  return null;
}

/** Every footnote id referenced anywhere inside a transaction. */
function footnoteIds(node: unknown): string[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap(footnoteIds);
  const record = node as Node;
  const own = ((record.footnoteId as Node[] | undefined) ?? []).map((note) => String(note['@id']));
  return [
    ...own,
    ...Object.entries(record)
      .filter(([key]) => key !== 'footnoteId')
      .flatMap(([, child]) => footnoteIds(child)),
  ];
}

/**
 * The `ownershipDocument` of a file: the XML document itself, or the one inside a full EDGAR submission
 * (`<accession>.txt`, the document EDGAR's daily index names: SGML headers, then the XML between `<XML>` and
 * `</XML>`), which is what live ingestion fetches (gateway/ingest/).
 */
function ownershipDocumentXml(text: string): string {
  const start = text.indexOf('<ownershipDocument');
  const end = text.indexOf('</ownershipDocument>');
  if (start < 0 || end < 0 || !/^\s*<SEC-DOCUMENT>|^\s*-----BEGIN PRIVACY/.test(text)) return text;
  return text.slice(start, end + '</ownershipDocument>'.length);
}

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { ACCESSION_PATTERN, filingFolderUrl, normaliseCik } from '../normalise/cik.ts';
import { checkPlausibleDate, parseDate } from '../normalise/dates.ts';
import { normaliseTicker } from '../normalise/tickers.ts';
import { parseForm4 } from '../sec/form4-xml.ts';
import type { Form4Document } from '../sec/form4-xml.ts';
import { insiderSignals } from '../sec/insider-signal.ts';
import { FILINGS_TABLE, SIGNALS_TABLE } from '../sec/tables.ts';
import { convertOrReject } from '../rejects.ts';
import { FORM4_TRANSACTION_CODES, INSIDER_TRADE_FILED } from '../../../subgraphs/data-loading.ts';

const TRANSACTIONS_TABLE: UpsertTable = {
  table: 'insider_transactions',
  columns: {
    accession_number: 'text',
    ticker: 'text',
    issuer_cik: 'text',
    owner_name: 'text',
    owner_cik: 'text',
    owner_title: 'text',
    security_title: 'text',
    derivative: 'boolean',
    transaction_date: 'date',
    transaction_code: 'text',
    shares: 'float8',
    price_per_share: 'float8',
    acquired_disposed: 'text',
    shares_owned_after: 'float8',
    direct_ownership: 'boolean',
    rule_10b5_1: 'boolean',
    sequence: 'int',
    conversion_or_exercise_price: 'float8',
    exercise_date: 'date',
    expiration_date: 'date',
    underlying_security_title: 'text',
    underlying_shares: 'float8',
  },
  key: ['accession_number', 'derivative', 'sequence'],
  insertOnly: { id: 'gen_random_uuid()' },
  events: INSIDER_TRADE_FILED,
};

const CODES = new Set<string>(FORM4_TRANSACTION_CODES);

/**
 * Form 4 XML documents (`ownershipDocument`, one filing per file; a Form 4 is a few kilobytes, so each file is
 * read whole). Every transaction row becomes an insider transaction; open-market P and S become signals; the
 * filing is recorded as fetched. The accession number comes from the file name (`0001209191-22-068411.xml`),
 * else from --accession, else a stand-in derived from the document's content (`local-<hash>`).
 */
export const form4Importer: Importer = {
  source: 'form4',
  describe: 'Form 4 ownershipDocument XML (accession from the file name or --accession)',
  async run(files, context) {
    const counts = emptyCounts();
    const transactions = new BatchWriter(context.db.sql, TRANSACTIONS_TABLE, counts);
    const signals = new BatchWriter(context.db.sql, SIGNALS_TABLE, emptyCounts());
    const filings = new BatchWriter(
      context.db.sql,
      { ...FILINGS_TABLE, keep: ['items'], fillOnly: ['fetched_at'] },
      emptyCounts(),
    );
    for (const file of files) {
      const xml = await readFile(file, 'utf8');
      const accession =
        ACCESSION_PATTERN.exec(basename(file))?.[1] ??
        (files.length === 1 ? context.options.accession : undefined) ??
        `local-${createHash('sha256').update(xml).digest('hex').slice(0, 20)}`;
      const document = parseForm4(xml);
      const issuerCik = normaliseCik(document.issuerCik);
      const ticker =
        normaliseTicker(document.issuerTicker) ?? (issuerCik ? await tickerOfCik(context, issuerCik) : null);
      for (const row of document.transactions) {
        counts.read += 1;
        const record = { accession, ...row };
        const values = await convertOrReject(
          'form4',
          record,
          () => {
            if (!ticker || !issuerCik) reject('unknown_issuer', `issuer "${document.issuerName}" has no ticker or CIK`);
            if (!CODES.has(row.code)) reject('unknown_transaction_code', `transaction code "${row.code}"`);
            if (row.shares === null) reject('missing_shares', 'the transaction gives no number of shares');
            if (row.acquiredDisposed !== 'A' && row.acquiredDisposed !== 'D') {
              reject('invalid_acquired_disposed', `acquired/disposed code "${row.acquiredDisposed}"`);
            }
            const date = checkPlausibleDate(
              parseDate(row.transactionDate, 'transactionDate'),
              'transactionDate',
              context.now,
              '2002-01-01',
            );
            return {
              accession_number: accession,
              ticker,
              issuer_cik: issuerCik,
              owner_name: document.ownerName,
              owner_cik: normaliseCik(document.ownerCik) ?? document.ownerCik,
              owner_title: document.ownerTitle,
              security_title: row.securityTitle,
              derivative: row.derivative,
              transaction_date: date,
              transaction_code: row.code,
              shares: row.shares,
              price_per_share: row.pricePerShare,
              acquired_disposed: row.acquiredDisposed,
              shares_owned_after: row.sharesOwnedAfter,
              direct_ownership: row.directOwnership,
              rule_10b5_1: row.rule10b51,
              sequence: row.sequence,
              conversion_or_exercise_price: row.option?.conversionOrExercisePrice ?? null,
              // A date Table II gives only as a footnote ("exercisable in monthly installments") stays null.
              exercise_date: optionalDate(row.option?.exerciseDate, 'exerciseDate'),
              expiration_date: optionalDate(row.option?.expirationDate, 'expirationDate'),
              underlying_security_title: row.option?.underlyingTitle ?? null,
              underlying_shares: row.option?.underlyingShares ?? null,
            };
          },
          context.rejects,
          counts,
        );
        if (values) await transactions.add(values);
      }
      if (ticker && issuerCik) {
        await writeFilingAndSignals(document, accession, issuerCik, ticker, filings, signals, context.now);
      }
    }
    await transactions.flush();
    await filings.flush();
    await signals.flush();
    context.progress(`form4: ${files.length} documents, ${counts.read} transactions`);
    return counts;
  },
};

function optionalDate(text: string | null | undefined, field: string): string | null {
  return text ? parseDate(text, field) : null;
}

async function writeFilingAndSignals(
  document: Form4Document,
  accession: string,
  cik: string,
  ticker: string,
  filings: BatchWriter,
  signals: BatchWriter,
  now: Date,
): Promise<void> {
  const dates = document.transactions
    .map((row) => row.transactionDate)
    .filter((date): date is string => Boolean(date))
    .sort();
  // A Form 4 is signed on the day it is filed; the period of report is the fallback.
  const filedAt =
    document.signatureDate ?? document.periodOfReport ?? dates[dates.length - 1] ?? now.toISOString().slice(0, 10);
  const url = accession.startsWith('local-')
    ? `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${cik}&type=4`
    : filingFolderUrl(cik, accession);
  await filings.add({
    accession_number: accession,
    cik,
    company_name: document.issuerName,
    ticker,
    form_type: document.documentType,
    filed_at: filedAt,
    items: [],
    url,
    fetched_at: now.toISOString(),
  });
  for (const signal of insiderSignals(document, ticker)) {
    await signals.add({
      ticker,
      company_name: document.issuerName,
      signal_type: signal.signalType,
      filing_type: document.documentType === '4/A' ? '4/A' : '4',
      ai_summary: signal.summary,
      materiality_score: signal.materiality,
      sentiment: signal.sentiment,
      urgent: signal.urgent,
      source_url: url,
      source_key: `form4:${accession}:${signal.code}`,
      created_at: `${filedAt}T00:00:00Z`,
    });
  }
}

async function tickerOfCik(context: Parameters<typeof form4Importer.run>[1], cik: string): Promise<string | null> {
  const rows = await context.db.sql.query<{ ticker: string }>(
    'SELECT min(ticker) AS ticker FROM company_profiles WHERE cik = $1',
    [cik],
  );
  return rows[0]?.ticker ?? null;
}

import type { Attorney as AttorneyRow, Company as CompanyRow, Contact as ContactRow, Firm as FirmRow, Owner as OwnerRow, Property as PropertyRow } from '../../../prisma/generated/client/client.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { Database } from '../../platform/database.ts';
import { ID_PREFIX, kindOfId } from '../../platform/ids.ts';
import type { RecordKind } from '../../platform/ids.ts';
import { builder } from '../builder.ts';
import { Attorney } from './attorney.ts';
import { Company } from './company.ts';
import { Contact } from './contact.ts';
import { Firm } from './firm.ts';
import { Owner } from './owner.ts';
import { Property } from './property.ts';

/** The record kinds a lead or a search hit can point at, with the vertical each belongs to. */
export const RECORD_VERTICAL = {
  company: 'b2b',
  contact: 'b2b',
  property: 'realestate',
  owner: 'realestate',
  attorney: 'legal',
  firm: 'legal',
} as const;

export type VerticalRecordKind = keyof typeof RECORD_VERTICAL;
export type VerticalRecordRow = CompanyRow | ContactRow | PropertyRow | OwnerRow | AttorneyRow | FirmRow;

/** `b2b_12` → `{kind: 'company', id: 12}`; undefined for anything that is not a vertical record id. */
export function parseRecordId(value: string): { kind: VerticalRecordKind; id: number } | undefined {
  const kind = kindOfId(value) as RecordKind | undefined;
  const match = /^[a-z0-9]+_(\d{1,10})$/.exec(value);
  if (!kind || !match || !(kind in RECORD_VERTICAL)) return undefined;
  const id = Number(match[1]);
  return id <= 2_147_483_647 && value === `${ID_PREFIX[kind]}_${id}` ? { kind: kind as VerticalRecordKind, id } : undefined;
}

/**
 * One record of any kind. Prisma batches the `findUnique` calls of one tick per model, so a page of leads or
 * search hits costs one query per kind present, not one per row.
 */
function findRecord(db: Database, kind: VerticalRecordKind, id: number): Promise<VerticalRecordRow | null> {
  const where = { where: { id } };
  switch (kind) {
    case 'company':
      return db.prisma.company.findUnique(where);
    case 'contact':
      return db.prisma.contact.findUnique(where);
    case 'property':
      return db.prisma.property.findUnique(where);
    case 'owner':
      return db.prisma.owner.findUnique(where);
    case 'attorney':
      return db.prisma.attorney.findUnique(where);
    case 'firm':
      return db.prisma.firm.findUnique(where);
  }
}

const kindOfRow = new WeakMap<object, VerticalRecordKind>();

export async function loadRecord(context: RequestContext, recordId: string): Promise<VerticalRecordRow | null> {
  const parsed = parseRecordId(recordId);
  if (!parsed) return null;
  const row = await findRecord(context.db, parsed.kind, parsed.id);
  if (row) kindOfRow.set(row, parsed.kind);
  return row;
}

export async function recordExists(db: Database, kind: VerticalRecordKind, id: number): Promise<boolean> {
  return (await findRecord(db, kind, id)) !== null;
}

const TYPE_OF_KIND = {
  company: 'Company',
  contact: 'Contact',
  property: 'Property',
  owner: 'Owner',
  attorney: 'Attorney',
  firm: 'Firm',
} as const;

export const VerticalRecord = builder.unionType('VerticalRecord', {
  description: 'A record of any vertical: what a lead or a search hit points at.',
  types: [Company, Contact, Property, Owner, Attorney, Firm],
  resolveType: (row) => TYPE_OF_KIND[kindOfRow.get(row) ?? 'company'],
});

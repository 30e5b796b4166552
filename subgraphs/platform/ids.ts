import { BadRequestError, NotFoundError } from './errors.ts';

/** Record ids are strings with a vertical prefix (DESIGN.md): b2b_12, prop_7, lead_3, … */
export const ID_PREFIX = {
  company: 'b2b',
  contact: 'contact',
  property: 'prop',
  owner: 'owner',
  attorney: 'atty',
  firm: 'firm',
  lead: 'lead',
  report: 'rpt',
} as const;

export type RecordKind = keyof typeof ID_PREFIX;

export function formatId(kind: RecordKind, id: number): string {
  return `${ID_PREFIX[kind]}_${id}`;
}

/** The numeric id behind a prefixed id; a malformed id is a 400, one of another kind a 404. */
export function parseId(kind: RecordKind, value: string, parameter = 'id'): number {
  const match = /^([a-z0-9]+)_(\d{1,10})$/.exec(value);
  if (!match) {
    throw new BadRequestError({ [parameter]: `must be an id like ${ID_PREFIX[kind]}_123` });
  }
  const id = Number(match[2]);
  if (match[1] !== ID_PREFIX[kind] || id > 2_147_483_647) throw new NotFoundError(`Record ${value}`);
  return id;
}

/** Which kind a prefixed id names, or undefined for an unknown prefix. */
export function kindOfId(value: string): RecordKind | undefined {
  const prefix = value.split('_')[0];
  return (Object.keys(ID_PREFIX) as RecordKind[]).find((kind) => ID_PREFIX[kind] === prefix);
}

import { z } from 'zod';
import { BadRequestError, NotFoundError } from './errors.ts';

/** The largest id a PostgreSQL `integer` column holds: a bigger number is no record of ours. */
export const MAX_ID = 2_147_483_647;

/** Record ids are strings with a prefix per record type (docs/design.md): b2b_12, prop_7, lead_3, … */
export interface IdCodec {
  prefix: string;
  format(id: number): string;
  /** The numeric id behind a prefixed id; a malformed id is a 400, one of another type a 404. */
  parse(value: string, parameter?: string): number;
  /** The numeric id, or undefined when the value is not exactly an id of this type. */
  match(value: string): number | undefined;
}

export function idCodec(prefix: string): IdCodec {
  const shape = /^([a-z0-9]+)_(\d{1,10})$/;
  return {
    prefix,
    format: (id) => `${prefix}_${id}`,
    parse(value, parameter = 'id') {
      const found = shape.exec(value);
      if (!found) throw new BadRequestError({ [parameter]: `must be an id like ${prefix}_123` });
      const id = Number(found[2]);
      if (found[1] !== prefix || id > MAX_ID) throw new NotFoundError(`Record ${value}`);
      return id;
    },
    match(value) {
      const found = shape.exec(value);
      const id = Number(found?.[2]);
      return found && found[1] === prefix && id <= MAX_ID && value === `${prefix}_${id}` ? id : undefined;
    },
  };
}

/**
 * Company ids (`b2b_12`): the verticals subgraph's companies, which the markets subgraph also names when a market
 * record points back at its company (subgraphs/markets/company-ids.ts).
 */
export const companyIds = idCodec('b2b');

/** Market records (signals, trades, insider trades) are keyed by UUID: anything else is a 400, not a lookup. */
export function parseUuid(value: string | number, parameter = 'id'): string {
  const id = String(value);
  if (!z.uuid().safeParse(id).success) throw new BadRequestError({ [parameter]: 'must be a UUID' });
  return id;
}

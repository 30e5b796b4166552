import { builder } from './builder.ts';

/**
 * The verticals, in the documents' order, each with the record type its reports export when they name none.
 * Record types (records/) say which vertical they belong to; REST serves them under /api/v1/<vertical>/<name>.
 */
export const VERTICALS = {
  b2b: { primary: 'companies' },
  realestate: { primary: 'properties' },
  legal: { primary: 'attorneys' },
} as const;

export type Vertical = keyof typeof VERTICALS;
export const VERTICAL_NAMES = Object.keys(VERTICALS) as Vertical[];

export const VerticalEnum = builder.enumType('Vertical', {
  description: 'A vertical: a family of record types, served under `/api/v1/<vertical>/`.',
  values: {
    b2b: { description: 'Business records: companies and contacts.' },
    realestate: { description: 'Real-estate records: properties and owners.' },
    legal: { description: 'Legal records: attorneys and firms.' },
  } satisfies Record<Vertical, object>,
});

import type { VerticalRecordKind } from '../types/vertical-record.ts';

/**
 * What universal search looks at in each record table: the searched text (a SQL expression that matches
 * the expression indexes of the search migration exactly, or they are not used), the hit's display title
 * and a one-line subtitle.
 */
export interface SearchSource {
  kind: VerticalRecordKind;
  table: string;
  text: string;
  title: string;
  subtitle: string;
}

export const SEARCH_SOURCES: readonly SearchSource[] = [
  {
    kind: 'company',
    table: 'companies',
    text: 'name',
    title: 'name',
    subtitle: `industry_name || ' · ' || city || ', ' || state`,
  },
  {
    kind: 'contact',
    table: 'contacts',
    text: `"first_name" || ' ' || "last_name"`,
    title: `first_name || ' ' || last_name`,
    subtitle: 'title',
  },
  {
    kind: 'property',
    table: 'properties',
    text: 'address',
    title: 'address',
    subtitle: `city || ', ' || state || ' ' || zip`,
  },
  {
    kind: 'owner',
    table: 'owners',
    text: 'name',
    title: 'name',
    subtitle: `mailing_city || ', ' || mailing_state`,
  },
  {
    kind: 'attorney',
    table: 'attorneys',
    text: `"first_name" || ' ' || "last_name"`,
    title: `first_name || ' ' || last_name`,
    subtitle: `city || ', ' || state`,
  },
  {
    kind: 'firm',
    table: 'firms',
    text: 'name',
    title: 'name',
    subtitle: `hq_city || ', ' || hq_state`,
  },
];

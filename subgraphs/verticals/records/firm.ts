import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { equalsIgnoringCase } from '../../platform/text-match.ts';
import { stateCode } from '../../platform/us-states.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import { firmPartners } from '../firm-partners.ts';
import type { RecordType } from '../record-type/define.ts';
import { cityName, practiceArea } from '../record-type/filters.ts';
import { relatedLimit } from '../record-type/page.ts';
import { pastYear, text, usState } from '../record-type/load-rules.ts';
import { reads } from '../../platform/selected-fields.ts';

const firmSize = z.number().int('must be an integer').min(1, 'must be 1 or more');

const Firm = builder.prismaObject('Firm', {
  description: 'A law firm with its headquarters, practice areas, attorneys and partners.',
  fields: (t) => ({
    id: t.string({
      description: 'The firm’s API id, `firm_<n>`.',
      extensions: reads('id'),
      resolve: (firm) => firms.ids.format(firm.id),
    }),
    name: t.exposeString('name', { description: 'The firm’s name.' }),
    hqCity: t.exposeString('hqCity', { description: 'City of the headquarters.' }),
    hqState: t.exposeString('hqState', { description: 'Two-letter US state code of the headquarters.' }),
    size: t.exposeInt('size', { description: 'Attorneys at the firm.' }),
    practiceAreas: t.exposeStringList('practiceAreas', { description: 'Practice areas, e.g. Personal Injury.' }),
    website: t.exposeString('website', { description: 'The firm’s website address.' }),
    foundedYear: t.exposeInt('foundedYear', { description: 'Year the firm was founded.' }),
    attorneys: t.relation('attorneys', {
      description: 'The firm’s attorneys, partners first.',
      args: { limit: t.arg.int({ required: false, description: 'How many attorneys, 1-100 (default 25).' }) },
      query: (args) => ({ take: relatedLimit(args.limit), orderBy: [{ isPartner: 'desc' }, { id: 'asc' }] }),
    }),
    partners: t.prismaField({
      type: ['Attorney'],
      description: 'The firm’s partners.',
      extensions: reads('id'),
      resolve: (query, firm, _args, context, info) => firmPartners(context, query, info).load(firm.id),
    }),
    attorneysCount: t.relationCount('attorneys', { description: 'Number of the firm’s attorney records.' }),
  }),
});

const firms: RecordType = defineRecordType({
  name: 'firms',
  kind: 'firm',
  idPrefix: 'firm',
  vertical: 'legal',
  model: 'Firm',
  table: 'firms',
  graphql: {
    object: Firm,
    listDescription: 'Law firms matching every given filter, one offset page at a time (largest first).',
    filters: {
      practiceArea: argument('String', practiceArea, {
        description: 'Firms practising this area, in any case, e.g. Personal Injury.',
      }),
      state: argument('String', stateCode, { description: 'State of the headquarters.' }),
      city: argument('String', cityName, { description: 'City of the headquarters.' }),
      minSize: argument('Int', firmSize, { description: 'Firms of at least this many attorneys (`size`), 1 or more.' }),
      maxSize: argument('Int', firmSize, { description: 'Firms of at most this many attorneys (`size`), 1 or more.' }),
    },
    ranges: [['minSize', 'maxSize']],
    where: (filter) => ({
      practiceAreas: filter.practiceArea ? { has: filter.practiceArea } : undefined,
      hqState: filter.state,
      hqCity: filter.city ? equalsIgnoringCase(filter.city) : undefined,
      size: { gte: filter.minSize, lte: filter.maxSize },
    }),
    sorts: { size: 'size', name: 'name', founded_year: 'foundedYear', state: 'hqState', id: 'id' },
    defaultSort: { field: 'size', direction: 'desc' },
  },
  rest: {
    fields: {
      id: 'id',
      name: 'name',
      hq_city: 'hqCity',
      hq_state: 'hqState',
      size: 'size',
      practice_areas: 'practiceAreas',
      partners: 'partners { id name }',
      website: 'website',
      founded_year: 'foundedYear',
    },
  },
  search: { text: 'name', title: 'name', subtitle: `hq_city || ', ' || hq_state` },
  plans: { plan: 'professional' },
  load: {
    required: ['name', 'hq_city', 'hq_state', 'size', 'founded_year'],
    naturalKey: ['name'],
    rules: {
      name: text(200),
      hq_city: cityName,
      hq_state: usState,
      size: firmSize,
      practice_areas: z.array(practiceArea).max(20, 'must be at most 20 practice areas'),
      website: text(200),
      founded_year: pastYear,
    },
  },
});

export default firms;

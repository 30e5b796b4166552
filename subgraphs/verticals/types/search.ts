import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { pageArgument, pageInfoSource, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import type { PageInfoSource } from '../../platform/paging.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { PAGE_DESCRIPTIONS } from '../../platform/page-object.ts';
import { PageInfo, builder } from '../builder.ts';
import { CANDIDATE_CAP, SAMPLE_CAP, searchRecords } from '../search/query.ts';
import type { SearchHitRow } from '../search/query.ts';
import { RECORD_TYPES, recordTypeOfKind } from '../record-type/catalog.ts';
import { VERTICAL_NAMES, VerticalEnum } from '../verticals.ts';
import { VerticalRecord, loadRecord } from './vertical-record.ts';

const recordIdOf = (hit: SearchHitRow) => recordTypeOfKind(hit.kind)!.ids.format(hit.id);

/** Deeper than this, relevance has long stopped meaning anything; a page past it is a 400. */
const MAX_SEARCH_DEPTH = 1000;
export const MAX_QUERY_LENGTH = 100;

const SearchHit = builder.objectRef<SearchHitRow>('SearchHit').implement({
  description: 'A record found by universal search: which vertical and type, its id and a display title.',
  fields: (t) => ({
    vertical: t.field({
      type: VerticalEnum,
      description: 'The vertical of the record.',
      resolve: (hit) => recordTypeOfKind(hit.kind)!.vertical,
    }),
    type: t.string({ description: `${RECORD_TYPES.map((type) => type.kind).join(', ')}.`, resolve: (hit) => hit.kind }),
    id: t.string({ description: 'API id of the record, e.g. `b2b_12`.', resolve: recordIdOf }),
    title: t.exposeString('title', { description: 'What matched: a name, or a property’s address.' }),
    subtitle: t.exposeString('subtitle', { description: 'Context for display, such as industry and place.' }),
    score: t.float({ description: 'Relevance, higher first.', resolve: (hit) => Math.round(hit.score * 1000) / 1000 }),
    record: t.field({
      type: VerticalRecord,
      nullable: true,
      description: 'The whole record; null if it was deleted since.',
      resolve: (hit, _args, context) => loadRecord(context, recordIdOf(hit)) as never,
    }),
  }),
});

const SearchPage = builder.objectRef<{ nodes: SearchHitRow[]; pageInfo: PageInfoSource }>('SearchPage').implement({
  description: PAGE_DESCRIPTIONS.page,
  fields: (t) => ({
    nodes: t.field({
      type: [SearchHit],
      description: 'The hits of this page, most relevant first.',
      resolve: (page) => page.nodes,
    }),
    pageInfo: t.field({
      type: PageInfo,
      description: `total counts the ranked candidates: at most ${CANDIDATE_CAP} per record type, ${SAMPLE_CAP} for a word held by thousands of its records (totalIsEstimate when a type reached its cap).`,
      resolve: (page) => page.pageInfo,
    }),
  }),
});

const searchArgs = defineArguments({
  q: argument(
    'String',
    z
      .string({ message: 'is required' })
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
    { required: 'validated', description: 'What to look for (1-100 characters).' },
  ),
  verticals: argument(
    'String',
    z
      .string()
      .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()))
      .refine(
        (list) => list.every((vertical) => (VERTICAL_NAMES as readonly string[]).includes(vertical)),
        `must be a comma-separated list of ${VERTICAL_NAMES.join(', ')}`,
      ),
    { description: `Comma-separated: ${VERTICAL_NAMES.join(',')} (all by default).` },
  ),
});

async function search(context: RequestContext, args: { page?: number | null; perPage?: number | null }) {
  const { q, verticals } = searchArgs.parse(args);
  const paging = resolvePaging({ page: args.page, size: args.perPage });
  if (paging.skip + paging.perPage > MAX_SEARCH_DEPTH) {
    throw new BadRequestError({ page: `search pages reach the best ${MAX_SEARCH_DEPTH} hits at most` });
  }
  const wanted = new Set<string>(verticals ?? VERTICAL_NAMES);
  const types = RECORD_TYPES.filter((type) => wanted.has(type.vertical));
  const { hits, total, capped } = await searchRecords(context.db, {
    q,
    types,
    skip: paging.skip,
    take: paging.perPage,
  });
  // Once a record type reached its cap the total is a lower bound, flagged like an estimated total.
  return { nodes: hits, pageInfo: pageInfoSource(paging, async () => ({ total, isEstimate: capped })) };
}

builder.queryFields((t) => ({
  search: t.field({
    type: SearchPage,
    description: 'Universal search across the verticals by name, address or title; typo- and case-tolerant.',
    args: {
      ...searchArgs.graphql(t.arg),
      page: pageArgument(t.arg),
      perPage: pageSizeArgument(t.arg),
    },
    resolve: (_root, args, context) => search(context, args),
  }),
}));

import DataLoader from 'dataloader';
import { z } from 'zod';
import { loaderFor } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { parseArguments } from '../../platform/validation.ts';
import { builder } from '../builder.ts';
import { memberQuery, searchMembers } from '../member-match.ts';

export const Party = builder.enumType('Party', {
  description: 'A member’s party.',
  values: {
    D: { description: 'Democratic.' },
    R: { description: 'Republican.' },
    I: { description: 'Independent.' },
  },
});
export const Chamber = builder.enumType('Chamber', {
  description: 'A chamber of Congress.',
  values: {
    house: { description: 'The House of Representatives.' },
    senate: { description: 'The Senate.' },
  },
});

/** A member of Congress, keyed by the Bioguide id, with the trades they disclosed. */
export const Member = builder.prismaObject('Member', {
  description: 'A member of Congress, in office or former, with the trades they disclosed.',
  fields: (t) => ({
    bioguideId: t.exposeID('bioguideId', { description: 'The member’s Bioguide id, e.g. P000197.' }),
    name: t.exposeString('fullName', { description: '<first> <last>' }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    lastName: t.exposeString('lastName', { description: 'Last name.' }),
    party: t.field({
      type: Party,
      description: 'The member’s party.',
      resolve: (member) => member.party as typeof Party.$inferType,
    }),
    chamber: t.field({
      type: Chamber,
      description: 'The member’s chamber.',
      resolve: (member) => member.chamber as typeof Chamber.$inferType,
    }),
    state: t.exposeString('state', { description: 'Two-letter code of the state the member represents.' }),
    district: t.exposeString('district', {
      nullable: true,
      description: 'House seat as state and two-digit district (MO04, AK00 at large); null for senators.',
    }),
    committees: t.exposeStringList('committees', {
      description: 'Full committees the member sits on now, without the chamber prefix, sorted.',
    }),
    tradesCount: t.int({
      description: 'Trades in force the member disclosed (as of the last rollup refresh).',
      resolve: (member, _args, context) => tradesCountByMember(context).load(member.bioguideId),
    }),
    trades: t.relation('trades', {
      description: 'The member’s disclosed trades in force, newest first.',
      args: { limit: t.arg.int({ required: false, defaultValue: 20, description: 'How many trades, 1-200.' }) },
      query: (args) => ({
        where: { supersededById: null },
        orderBy: [{ tradeDate: 'desc' }, { id: 'desc' }],
        take: parseArguments(
          z.number().int().min(1, 'must be from 1 to 200').max(200, 'must be from 1 to 200'),
          args.limit ?? 20,
        ),
      }),
    }),
  }),
});

/**
 * Trades in force per member, one statement for all members of a response, from the `market_member_trades`
 * rollup (as of its last refresh, like every rollup: docs/api.md "Rollups and freshness"). Counted per request
 * it read each member's every trade (~35k at 10M); Prisma's relation count aggregated every trade of the table.
 */
function tradesCountByMember(context: RequestContext) {
  return loaderFor(
    context,
    'markets:tradesCountByMember',
    () =>
      new DataLoader<string, number>(async (bioguideIds) => {
        const rows = await context.db.sql.query<{ bioguide_id: string; trades: number }>(
          `SELECT m.bioguide_id, t.trades
             FROM unnest($1::text[]) AS m(bioguide_id)
             JOIN market_member_trades t ON t.bioguide_id = m.bioguide_id`,
          [bioguideIds],
        );
        const counts = new Map(rows.map((row) => [row.bioguide_id, Number(row.trades)]));
        return bioguideIds.map((id) => counts.get(id) ?? 0);
      }),
  );
}

const MemberMatch = builder.objectRef<{ bioguideId: string; similarity: number }>('MemberMatch').implement({
  description: 'A member found by name, with how close the name is to the query.',
  fields: (t) => ({
    similarity: t.float({
      description: 'How close the name is to the query, 0-1: word_similarity of each query word, averaged.',
      resolve: (match) => match.similarity,
    }),
    member: t.prismaField({
      type: Member,
      description: 'The member found.',
      // findUnique calls of one tick are batched by Prisma into one query.
      resolve: (query, match, _args, context) =>
        context.db.prisma.member.findUniqueOrThrow({ ...query, where: { bioguideId: match.bioguideId } }),
    }),
  }),
});

const memberSearch = defineArguments({
  q: argument('String', memberQuery, {
    required: 'validated',
    description: 'A name or part of one, at most 100 characters, optionally with a title (Sen., Rep.).',
  }),
  limit: argument('Int', z.number().int().min(1, 'must be from 1 to 50').max(50, 'must be from 1 to 50').default(10), {
    description: 'How many members, 1-50 (default 10).',
  }),
});

builder.queryFields((t) => ({
  members: t.field({
    type: [MemberMatch],
    description:
      'Members whose name contains every word of `q` (either order, any case, accents folded) or, when none does, ' +
      'every word within one or two typos; a title (Sen., Rep.) ranks its chamber first, then similarity, then trades.',
    args: memberSearch.graphql(t.arg),
    resolve: async (_root, args, context) => {
      const search = memberSearch.parse(args);
      const matches = await searchMembers(context.db.sql, search.q, search.limit);
      // The search counted each member's trades to rank them: `tradesCount` reads those counts, not counts again.
      const counts = tradesCountByMember(context);
      for (const match of matches) counts.prime(match.bioguideId, match.trades);
      return matches;
    },
  }),
  member: t.prismaField({
    type: Member,
    nullable: true,
    description: 'One member by Bioguide id; null when unknown.',
    args: { bioguideId: t.arg.id({ required: true, description: 'The Bioguide id, in any case (P000197).' }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.member.findUnique({ ...query, where: { bioguideId: String(args.bioguideId).toUpperCase() } }),
  }),
}));

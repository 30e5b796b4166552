import DataLoader from 'dataloader';
import { loaderFor } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { builder } from '../builder.ts';
import { overlappingCommittees } from '../committee-jurisdiction.ts';
import { profileByTicker } from '../ticker-loaders.ts';
import { CongressionalTrade } from './congressional-trade.ts';

/**
 * Whether a trade's company falls under a committee its member sits on (docs/api.md, "Committees"). A page of
 * trades costs two queries in all, whatever its size: the members' committees and the companies' profiles, each
 * loaded once per request for every trade of the response.
 */
function committeesByMember(context: RequestContext) {
  return loaderFor(
    context,
    'markets:committeesByMember',
    () =>
      new DataLoader<string, string[]>(async (bioguideIds) => {
        // Through `pg`: Prisma's per-call CPU was most of this read's cost (docs/performance.md, item 21).
        const members = await context.db.sql.query<{ bioguide_id: string; committees: string[] }>(
          'SELECT bioguide_id, committees FROM members WHERE bioguide_id = ANY($1)',
          [[...bioguideIds]],
          { prepared: true },
        );
        const byId = new Map(members.map((member) => [member.bioguide_id, member.committees]));
        return bioguideIds.map((id) => byId.get(id) ?? []);
      }),
  );
}

async function tradeOverlap(
  trade: { bioguideId: string | null; ticker: string | null },
  context: RequestContext,
): Promise<string[]> {
  if (!trade.bioguideId || !trade.ticker) return [];
  const [committees, profile] = await Promise.all([
    committeesByMember(context).load(trade.bioguideId),
    profileByTicker(context).load(trade.ticker),
  ]);
  return profile ? overlappingCommittees(committees, profile.sector, profile.industry) : [];
}

builder.objectFields(CongressionalTrade, (t) => ({
  committeeOverlap: t.boolean({
    description:
      'The member sits on a committee whose jurisdiction covers the company’s sector or industry (see overlappingCommittees).',
    resolve: async (trade, _args, context) => (await tradeOverlap(trade, context)).length > 0,
  }),
  overlappingCommittees: t.stringList({
    description:
      'The member’s current committees whose jurisdiction covers the company’s profile sector or industry; empty when the company has no profile or sector.',
    resolve: (trade, _args, context) => tradeOverlap(trade, context),
  }),
}));

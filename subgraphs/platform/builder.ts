import SchemaBuilder from '@pothos/core';
import DirectivePlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../../prisma/generated/pothos-types.ts';
import { getDatamodel } from '../../prisma/generated/pothos-types.ts';
import { env } from './config.ts';
import type { RequestContext } from './context.ts';
import { formatDate, isoDate } from './dates.ts';
import { BadRequestError } from './errors.ts';

export interface BuilderTypes {
  PrismaTypes: PrismaTypes;
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    Date: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}

/** The Mutation type's options, the same in every subgraph that has one (composition merges them). */
export const MUTATION_TYPE = { description: 'What the API changes; each mutation acts for the calling account.' };

export type Builder = PothosSchemaTypes.SchemaBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>>;

/** The options both subgraphs share; each subgraph calls this once in its own builder.ts. */
export function createBuilder(): Builder {
  const builder = new SchemaBuilder<BuilderTypes>({
    // Federation comes last: it wraps what the other plugins define.
    plugins: [PrismaPlugin, RelayPlugin, DirectivePlugin, FederationPlugin],
    defaultFieldNullability: false,
    prisma: {
      client: (context) => context.db.prisma,
      dmmf: getDatamodel(),
      exposeDescriptions: false,
      filterConnectionTotalCount: true,
      onUnusedQuery: env.NODE_ENV === 'development' ? 'warn' : null,
    },
    relay: {
      clientMutationId: 'omit',
      cursorType: 'String',
      // Record ids are already global (b2b_1, prop_7, …), so Relay's base64 node ids are not used.
      nodeQueryOptions: false,
      nodesQueryOptions: false,
      // Both subgraphs define Relay's PageInfo; federation requires the shared type to say so.
      pageInfoTypeOptions: {
        shareable: true,
        description: 'Where a page of a cursor connection sits in the whole list.',
      },
      hasNextPageFieldOptions: { description: 'Whether items follow this page (paging forward with `first`).' },
      hasPreviousPageFieldOptions: { description: 'Whether items precede this page (paging back with `last`).' },
      startCursorFieldOptions: { description: 'The cursor of the first item of this page; null when it is empty.' },
      endCursorFieldOptions: { description: 'The cursor of the last item of this page; null when it is empty.' },
      defaultConnectionTypeOptions: { description: 'One page of a cursor-paged list (Relay connection).' },
      defaultEdgeTypeOptions: { description: 'One item of a cursor-paged list, with its cursor.' },
      edgesFieldOptions: { description: 'The items of this page with their cursors, in list order.' },
      pageInfoFieldOptions: { description: 'Cursors and whether more items come before or after this page.' },
      nodeFieldOptions: { description: 'The record of this edge.' },
      cursorFieldOptions: { description: 'Opaque; pass it as `after` or `before` to page from this item.' },
      firstArgOptions: { description: 'Items to return from the start or after `after`: default 20, capped at 100.' },
      afterArgOptions: { description: 'Return items after this cursor (an `endCursor` or an edge’s `cursor`).' },
      lastArgOptions: { description: 'Items to return from the end or before `before`, capped at 100.' },
      beforeArgOptions: { description: 'Return items before this cursor (a `startCursor` or an edge’s `cursor`).' },
    },
  });

  builder.scalarType('DateTime', {
    description: 'An ISO 8601 timestamp in UTC.',
    serialize: (value) => new Date(value as Date).toISOString(),
    parseValue: (value) => {
      const date = new Date(String(value));
      if (Number.isNaN(date.getTime())) throw new BadRequestError({ value: 'must be an ISO 8601 timestamp' });
      return date;
    },
  });
  builder.scalarType('Date', {
    description: 'A calendar date, YYYY-MM-DD.',
    serialize: (value) => formatDate(new Date(value as Date)),
    parseValue: (value) => {
      const parsed = isoDate.safeParse(String(value));
      if (!parsed.success) throw new BadRequestError({ date: parsed.error.issues[0]!.message });
      return parsed.data;
    },
  });
  builder.scalarType('JSON', {
    description: 'Any JSON value.',
    serialize: (value) => value,
    parseValue: (value) => value,
  });

  // A subgraph adds `builder.mutationType(MUTATION_TYPE)` once it has a mutation: an empty Mutation type is invalid.
  builder.queryType({
    description:
      'What the API reads; a field above the caller’s plan is refused (`plan_required`) before anything runs.',
  });
  return builder;
}

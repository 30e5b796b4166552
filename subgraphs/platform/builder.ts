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
      pageInfoTypeOptions: { shareable: true },
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

  // A subgraph adds `builder.mutationType({})` once it has a mutation: an empty Mutation type is invalid.
  builder.queryType({});
  return builder;
}

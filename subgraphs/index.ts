import type { GraphQLSchema } from 'graphql';
import { marketsSchema } from './markets/schema.ts';
import { verticalsSchema } from './verticals/schema.ts';

/** What the gateway's REST tables need of the record types: names, verticals, GraphQL fields and REST shapes. */
export { RECORD_TYPES } from './verticals/record-type/catalog.ts';
export type { RecordType } from './verticals/record-type/define.ts';

/** Every subgraph by name: the gateway composes them and schema/<name>.graphql is printed from them. */
export const SUBGRAPHS: Record<SubgraphName, GraphQLSchema> = {
  verticals: verticalsSchema,
  markets: marketsSchema,
};

export type SubgraphName = 'verticals' | 'markets';

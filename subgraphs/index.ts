import type { GraphQLSchema } from 'graphql';
import { marketsSchema } from './markets/schema.ts';
import { verticalsSchema } from './verticals/schema.ts';

/** Every subgraph by name: the gateway composes them and schema/<name>.graphql is printed from them. */
export const SUBGRAPHS: Record<SubgraphName, GraphQLSchema> = {
  verticals: verticalsSchema,
  markets: marketsSchema,
};

export type SubgraphName = 'verticals' | 'markets';

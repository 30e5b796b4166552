import { MUTATION_TYPE, createBuilder } from '../platform/builder.ts';
import { definePageInfo } from '../platform/paging.ts';

/** The markets subgraph's one builder; every file in types/ adds to it. */
export const builder = createBuilder();
export const PageInfo = definePageInfo(builder);
// The watchlist mutations (types/watchlist.ts) are the subgraph's mutations.
builder.mutationType(MUTATION_TYPE);

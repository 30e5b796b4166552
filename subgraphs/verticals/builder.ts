import { createBuilder } from '../shared/builder.ts';
import { definePageInfo } from '../shared/paging.ts';

/** The verticals subgraph's one builder; every file in types/ adds to it. */
export const builder = createBuilder();
builder.mutationType({});
export const PageInfo = definePageInfo(builder);

import { MUTATION_TYPE, createBuilder } from '../platform/builder.ts';
import { definePageInfo } from '../platform/paging.ts';
// Every verticals module imports the builder, so the pair indexes are known before any list is read.
import './pair-indexes.ts';

/** The verticals subgraph's one builder; every file in types/ adds to it. */
export const builder = createBuilder();
builder.mutationType(MUTATION_TYPE);
export const PageInfo = definePageInfo(builder);

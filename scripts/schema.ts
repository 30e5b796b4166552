import { writeFileSync } from 'node:fs';
import { SCHEMA_DIR, composeSupergraph, printSubgraph } from '../gateway/supergraph.ts';

/** `npm run schema`: prints each subgraph's SDL and the composed supergraph into schema/. */
try {
  writeFileSync(`${SCHEMA_DIR}verticals.graphql`, printSubgraph('verticals'));
  writeFileSync(`${SCHEMA_DIR}markets.graphql`, printSubgraph('markets'));
  writeFileSync(`${SCHEMA_DIR}supergraph.graphql`, composeSupergraph());
  console.log('wrote schema/verticals.graphql, schema/markets.graphql, schema/supergraph.graphql');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

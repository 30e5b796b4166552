import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { Supergraph } from '@apollo/federation-internals';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { SUBGRAPHS } from '../subgraphs/index.ts';
import type { SubgraphName } from '../subgraphs/index.ts';

export const SCHEMA_DIR = new URL('../schema/', import.meta.url).pathname;

export function printSubgraph(name: SubgraphName): string {
  return printSubgraphSchema(SUBGRAPHS[name]);
}

/** Composes the subgraphs offline, as `npm run schema` does; throws with every composition error. */
export function composeSupergraph(): string {
  const result = composeServices(
    (Object.keys(SUBGRAPHS) as SubgraphName[]).map((name) => ({
      name,
      url: `http://${name}.subgraph.invalid/graphql`,
      typeDefs: parse(printSubgraph(name)),
    })),
  );
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => `  ${error.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}

/** The checked-in supergraph the gateway serves (kept current by `npm run schema`, checked by a test). */
export function readSupergraph(): string {
  return readFileSync(`${SCHEMA_DIR}supergraph.graphql`, 'utf8');
}

let api: GraphQLSchema | undefined;

/** The client-facing schema of the checked-in supergraph: what the REST tables and the plan check are built against. */
export function apiSchema(): GraphQLSchema {
  api ??= Supergraph.build(readSupergraph()).apiSchema().toGraphQLJSSchema();
  return api;
}

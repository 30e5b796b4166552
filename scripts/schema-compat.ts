import { CriticalityLevel, diff } from '@graphql-inspector/core';
import type { Change } from '@graphql-inspector/core';
import { Supergraph, printSchema } from '@apollo/federation-internals';
import { buildSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';

/** A breaking change someone decided to ship, named as the check prints it (`FIELD_REMOVED Query.trades`). */
export interface AllowedChange {
  change: string;
  reason: string;
}

export interface CompatibilityReport {
  /** Breaking changes not allowed: the check fails on any. */
  breaking: string[];
  /** Breaking changes listed as allowed. */
  allowed: string[];
  /** Changes that break some clients (an enum value added, a default changed): printed, never failing. */
  dangerous: string[];
  /** Allowed changes the schema no longer makes: the list should drop them. */
  unused: string[];
}

/**
 * The schema clients see: the supergraph without federation's join and link machinery. Printed and built again
 * with this module's graphql, so the diff compares two schemas of the same graphql copy.
 */
export function clientSchema(supergraphSdl: string): GraphQLSchema {
  return buildSchema(printSchema(Supergraph.build(supergraphSdl).apiSchema()));
}

/** How a change is named, in the report and in the list of allowed changes. */
export const changeName = (change: Change) => `${change.type} ${change.path ?? ''}`.trim();

/** The client-facing changes from the published supergraph to the current one, sorted by what they mean for clients. */
export async function compareSchemas(
  publishedSdl: string,
  currentSdl: string,
  allowedChanges: readonly AllowedChange[] = [],
): Promise<CompatibilityReport> {
  const changes = await diff(clientSchema(publishedSdl), clientSchema(currentSdl));
  const allowedNames = new Set(allowedChanges.map((allowed) => allowed.change));
  const report: CompatibilityReport = { breaking: [], allowed: [], dangerous: [], unused: [] };
  const seen = new Set<string>();
  for (const change of changes) {
    const name = changeName(change);
    const line = `${name}: ${change.message}`;
    if (change.criticality.level === CriticalityLevel.Breaking) {
      seen.add(name);
      (allowedNames.has(name) ? report.allowed : report.breaking).push(line);
    } else if (change.criticality.level === CriticalityLevel.Dangerous) {
      report.dangerous.push(line);
    }
  }
  report.unused = [...allowedNames].filter((name) => !seen.has(name));
  return report;
}

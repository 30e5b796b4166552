/**
 * docs/contributing.md "Adding a record type" says a record type is its model file, one line in
 * subgraphs/verticals/records/index.ts, its migration and its generator. This holds the claim: every record type
 * of the index reaches the GraphQL schema, the REST routes, universal search, reports and the plan table, and
 * no other file of gateway/ or subgraphs/ names record types in code (a list there would be one more to keep in step).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ruleFor } from '../../../gateway/auth/plan-access.ts';
import { verticalsRoutes } from '../../../gateway/rest/verticals-routes.ts';
import { apiSchema } from '../../../gateway/supergraph.ts';
import { RECORD_TYPES } from '../../../subgraphs/index.ts';
import { DECLARED_RECORD_TYPES } from '../../../subgraphs/verticals/records/index.ts';
import { searchStatement } from '../../../subgraphs/verticals/search/query.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;

/**
 * Files outside records/ that may name a record type, each with its reason. A file listed here that no longer
 * names one fails the test too, so the list stays true.
 */
const ALLOWED: Record<string, string> = {
  'subgraphs/verticals/verticals.ts': 'a vertical names its primary record type (what its reports export)',
  'subgraphs/markets/types/company.ts': 'markets extends the federated Company entity, by its type name',
  'subgraphs/verticals/pair-indexes.ts': "the attorney state/practice-area index the kernel's where-sql.ts is given",
  'gateway/mcp/tool-catalog.ts': 'the records tool tells a model in words which type holds decision makers',
};

function sourceFiles(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The file's code without its comments: a doc comment may give a record type as an example. */
const codeOf = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\/\/.*$/, ''))
    .join('\n');

describe('the index of record types', () => {
  it('is what the catalog serves, every type once', () => {
    expect(new Set(RECORD_TYPES)).toEqual(new Set(DECLARED_RECORD_TYPES));
    expect(RECORD_TYPES).toHaveLength(DECLARED_RECORD_TYPES.length);
  });

  it.each(DECLARED_RECORD_TYPES.map((type) => [type.name, type]))(
    '%s reaches GraphQL, REST, search, reports and the plan table',
    (_name, type) => {
      const query = apiSchema().getQueryType()!.getFields();
      expect(Object.keys(query)).toEqual(expect.arrayContaining([type.list, type.connection, type.one]));
      expect(apiSchema().getType(`${type.model}Page`)).toBeDefined();
      expect(apiSchema().getType(`${type.model}Sort`)).toBeDefined();

      const paths = verticalsRoutes.filter((route) => route.method === 'GET').map((route) => route.path);
      expect(paths).toEqual(
        expect.arrayContaining([`/api/v1/${type.vertical}/${type.name}`, `/api/v1/${type.vertical}/${type.name}/:id`]),
      );

      expect(searchStatement(RECORD_TYPES, 'words', 0.3)).toContain(`FROM ${type.table}`);

      const reportTypes = apiSchema().getType('ReportRecordType') as GraphQLEnumType;
      expect(reportTypes.getValues().map((value) => value.name)).toContain(type.name);

      expect(ruleFor('Query', type.list)?.plan).toBe(type.plan);
      expect(ruleFor('Query', type.one)?.plan).toBe(type.plan);
    },
  );

  it('is the only list: no other file of gateway/ or subgraphs/ names a record type in code', () => {
    const names = DECLARED_RECORD_TYPES.flatMap((type) => [type.name, type.model]);
    const literal = new RegExp(`(['"\`])(${names.join('|')})\\1`);
    const naming = [...sourceFiles('gateway'), ...sourceFiles('subgraphs')]
      .filter((file) => !file.startsWith('subgraphs/verticals/records/'))
      .filter((file) => literal.test(codeOf(readFileSync(join(ROOT, file), 'utf8'))));
    expect(naming.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});

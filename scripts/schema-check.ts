import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { SCHEMA_DIR } from '../gateway/supergraph.ts';
import { parseCommandLine } from './command-line.ts';
import { compareSchemas } from './schema-compat.ts';

const USAGE = `Usage: npm run schema:check [-- --published <file>] [--current <file>] [--allowed <file>]

Compares the API schema of the last release (schema/published/supergraph.graphql) with the current one
(schema/supergraph.graphql) and exits 1 on a breaking change that schema/published/allowed-breaking-changes.json
does not list. On a release, copy schema/supergraph.graphql to schema/published/ and empty the list.`;

const AllowedChanges = z.array(z.strictObject({ change: z.string().min(1), reason: z.string().min(1) }));

const { values } = parseCommandLine(USAGE, {
  options: {
    published: { type: 'string', default: `${SCHEMA_DIR}published/supergraph.graphql` },
    current: { type: 'string', default: `${SCHEMA_DIR}supergraph.graphql` },
    allowed: { type: 'string', default: `${SCHEMA_DIR}published/allowed-breaking-changes.json` },
  },
});

try {
  const allowed = existsSync(values.allowed)
    ? AllowedChanges.parse(JSON.parse(readFileSync(values.allowed, 'utf8')))
    : [];
  const report = await compareSchemas(
    readFileSync(values.published, 'utf8'),
    readFileSync(values.current, 'utf8'),
    allowed,
  );
  const list = (title: string, lines: string[]) => {
    if (lines.length) console.log(`${title}:\n${lines.map((line) => `  ${line}`).join('\n')}`);
  };
  list('Breaking changes allowed by the list', report.allowed);
  list('Dangerous changes (clients may need to handle new values)', report.dangerous);
  list('Allowed changes the schema no longer makes (remove them from the list)', report.unused);
  if (report.breaking.length) {
    console.error(
      `Breaking changes against the published schema:\n${report.breaking.map((line) => `  ${line}`).join('\n')}\n` +
        `Keep the old fields (deprecate them) or, if the break is intended, list each as {"change": "<TYPE path>", ` +
        `"reason": "…"} in ${values.allowed}.`,
    );
    process.exit(1);
  }
  console.log('No breaking change against the published schema.');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

import { readFileSync } from 'node:fs';
import { GRAPHQL_TOOL } from '../../gateway/mcp/graphql-tool.ts';
import { TOOLS } from '../../gateway/mcp/tool-catalog.ts';
import type { RouteKey } from '../../gateway/mcp/tool-catalog.ts';
import { COMMON_ARGUMENTS, inputSchema, routeShape } from '../../gateway/mcp/tool-schemas.ts';
import { openApiDocument } from '../../gateway/openapi/document.ts';
import { lowestPlan, planNote } from '../../gateway/mcp/tool-plans.ts';
import { TABLE_ROUTES } from '../../gateway/mcp/tool-routes.ts';
import { apiSchema } from '../../gateway/supergraph.ts';
import type { JsonSchema } from '../../gateway/openapi/json-schema.ts';

export const MCP_DOC = new URL('../../docs/mcp.md', import.meta.url);

const START = '<!-- tools:start -->';
const END = '<!-- tools:end -->';

/** A tool as the list documents it: what `tools/list` says of it. */
interface DocumentedTool {
  name: string;
  title: string;
  description: string;
  writes: boolean;
  schema: JsonSchema;
}

/**
 * The tools as the service builds them (gateway/mcp/toolbox.ts): the catalog's text, and input schemas from the
 * routes' shapes in the OpenAPI document, which is built in-process from the route tables (no database).
 */
function documentedTools(): DocumentedTool[] {
  const document = openApiDocument();
  const schema = apiSchema();
  const routes = new Set(TOOLS.flatMap((tool) => tool.variants.map((variant) => variant.route)));
  const shapes = new Map([...routes].map((route: RouteKey) => [route, routeShape(document, route)]));
  return [
    ...TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description}${planNote(tool, (route) => lowestPlan(TABLE_ROUTES.get(route)!, schema))}`,
      writes: Boolean(tool.writes),
      schema: inputSchema(tool, shapes),
    })),
    { ...GRAPHQL_TOOL, writes: false, schema: GRAPHQL_TOOL.inputSchema },
  ];
}

/** Text for one table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** A schema's type as a reader writes it: `integer`, `string[]`, `` `list` | `get` ``, `string or null`. */
function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) {
    return [...new Set((schema.anyOf as JsonSchema[]).flatMap((option) => typeOf(option).split(' or ')))].join(' or ');
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']) as string[];
  const named = types.map((type) => {
    if (type === 'null') return 'null';
    if (Array.isArray(schema.enum))
      return schema.enum
        .filter((value) => value !== null)
        .map(code)
        .join(' | ');
    if (type === 'array') return `${typeOf((schema.items ?? {}) as JsonSchema)}[]`;
    return type;
  });
  return [...new Set(named)].join(' or ');
}

/**
 * An argument's description: that of the first alternative that has one (a merged `anyOf` keeps its variants'
 * text there), then its own (`Only for action save, update.`).
 */
function descriptionOf(schema: JsonSchema): string {
  const alternatives = (schema.anyOf ?? []) as JsonSchema[];
  const inner = alternatives.map((option) => option.description).find((text) => typeof text === 'string');
  const own = typeof schema.description === 'string' ? schema.description : undefined;
  const parts = [inner, own].filter((text): text is string => Boolean(text));
  return [...new Set(parts)].join(' ');
}

/** The arguments every tool shares: the same schema as `COMMON_ARGUMENTS` gives them. */
const isCommon = (name: string, schema: JsonSchema) =>
  Object.hasOwn(COMMON_ARGUMENTS, name) && JSON.stringify(COMMON_ARGUMENTS[name]) === JSON.stringify(schema);

function argumentTable(properties: [string, JsonSchema][], required: Set<string>): string[] {
  return [
    '| argument | type | required | description |',
    '|---|---|---|---|',
    ...properties.map(([name, schema]) => {
      const type = schema.default === undefined ? typeOf(schema) : `${typeOf(schema)}, default ${code(schema.default)}`;
      return `| \`${name}\` | ${cell(type)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(descriptionOf(schema))} |`;
    }),
  ];
}

function toolSection(tool: DocumentedTool): string[] {
  const properties = Object.entries((tool.schema.properties ?? {}) as Record<string, JsonSchema>);
  const own = properties.filter(([name, schema]) => !isCommon(name, schema));
  const common = properties.filter(([name, schema]) => isCommon(name, schema)).map(([name]) => `\`${name}\``);
  const required = new Set((tool.schema.required ?? []) as string[]);
  return [
    `### \`${tool.name}\`: ${tool.title}`,
    '',
    tool.description,
    '',
    tool.writes ? 'Changes stored data (`readOnlyHint: false`).' : 'Reads only (`readOnlyHint: true`).',
    '',
    ...(own.length ? [...argumentTable(own, required), ''] : []),
    ...(common.length ? [`Also takes the common arguments ${common.join(', ')}.`, ''] : []),
  ];
}

/**
 * The generated part of docs/mcp.md: the common arguments once, then each tool with its own arguments, as the
 * service lists them, with the plan each needs (the plan table's rules decide).
 */
export function toolList(): string {
  const tools = documentedTools();
  const commonRows = Object.entries(COMMON_ARGUMENTS);
  return [
    `${tools.length} tools. Generated from the tool catalog and the REST routes' OpenAPI shapes by`,
    '`npm run docs:mcp`; a unit test fails while this list differs from what it writes.',
    '',
    '### Common arguments',
    '',
    'Every tool takes these beside its own (`graphql` takes `max_tokens` and `dry_run`):',
    '',
    ...argumentTable(commonRows, new Set()),
    '',
    ...tools.flatMap(toolSection),
  ]
    .join('\n')
    .trimEnd();
}

/** docs/mcp.md's text with the tool list between its markers replaced by the generated one. */
export function generatedMcpDoc(current = readFileSync(MCP_DOC, 'utf8')): string {
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/mcp.md has no ${START} … ${END} block`);
  return `${current.slice(0, start + START.length)}\n${toolList()}\n${current.slice(end)}`;
}

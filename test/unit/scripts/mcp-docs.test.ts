import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../gateway/mcp/tool-catalog.ts';
import { MCP_DOC, generatedMcpDoc, toolList } from '../../../scripts/mcp/tool-docs.ts';

describe('docs/mcp.md’s tool list (scripts/mcp-docs.ts)', () => {
  it('is what `npm run docs:mcp` writes from the catalog and the OpenAPI document', () => {
    const current = readFileSync(MCP_DOC, 'utf8');
    expect(current, 'docs/mcp.md is out of date: run npm run docs:mcp').toBe(generatedMcpDoc(current));
  });

  it('names every tool with its arguments, and leaves the written text around the markers alone', () => {
    const list = toolList();
    for (const tool of [...TOOLS.map((tool) => tool.name), 'graphql']) expect(list).toContain(`### \`${tool}\`: `);
    expect(list).toMatch(/\| `view` \| `trades` \\\| `summary`, default `trades` \| no \| /);
    expect(list).toMatch(/\| `query` \| string \| yes \| One GraphQL query document\. \|/);

    const written = 'Before.\n<!-- tools:start -->\nstale\n<!-- tools:end -->\nAfter.\n';
    expect(generatedMcpDoc(written)).toBe(`Before.\n<!-- tools:start -->\n${list}\n<!-- tools:end -->\nAfter.\n`);
    expect(() => generatedMcpDoc('no markers')).toThrow(/tools:start/);
  });
});

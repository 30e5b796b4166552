import { writeFileSync } from 'node:fs';
import { MCP_DOC, generatedMcpDoc } from './mcp/tool-docs.ts';

/**
 * `npm run docs:mcp`: rewrites the tool list of docs/mcp.md (between its `tools:start` and `tools:end` markers)
 * from the tool catalog and the OpenAPI document. test/unit/scripts/mcp-docs.test.ts fails while they differ.
 */
try {
  writeFileSync(MCP_DOC, generatedMcpDoc());
  console.log('wrote docs/mcp.md');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

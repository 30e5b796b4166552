import type { CommandTool, ToolName } from './tool.ts';

/**
 * Loaded on first use, so the server does not load the importers unless it is asked to import. Apart from
 * tool.ts, which the tools import: there the loader would close an import cycle.
 */
export async function loadTool(name: ToolName): Promise<CommandTool> {
  if (name === 'admin') return (await import('./admin-tool.ts')).adminTool;
  if (name === 'ingest') return (await import('../ingest/tool.ts')).ingestTool;
  return (await import('../import/tool.ts')).importTool;
}

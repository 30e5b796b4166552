import type { CommandTool, CommandTools } from '../../subgraphs/platform/process/command-tool.ts';

export const TOOL_NAMES = ['admin', 'import', 'ingest'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * Loaded on first use, so the server does not load the importers unless it is asked to import. Apart from
 * the tool contract (subgraphs/platform/process/command-tool.ts), which the tools import: there the loader
 * would close an import cycle.
 */
export async function loadTool(name: ToolName): Promise<CommandTool> {
  if (name === 'admin') return (await import('./admin-tool.ts')).adminTool;
  if (name === 'ingest') return (await import('../ingest/tool.ts')).ingestTool;
  return (await import('../import/tool.ts')).importTool;
}

/** What a process's entry hands its admin socket (subgraphs/platform/process/single-writer.ts). */
export const COMMAND_TOOLS: CommandTools = {
  names: TOOL_NAMES,
  load: (name) => loadTool(name as ToolName),
};

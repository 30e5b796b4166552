#!/usr/bin/env node
// The `data-graph-mcp` bin (`npx data-graph-mcp` from a clone): scripts/mcp.ts under tsx, without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./mcp.ts');

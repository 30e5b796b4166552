import { fileURLToPath } from 'node:url';
import { findLayerViolations } from './import-graph.ts';
import { LAYER_RULES } from './layer-rules.ts';

/** `npm run lint`'s second step: prints each chain of imports that crosses a layer of layer-rules.ts. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const violations = findLayerViolations(root, LAYER_RULES);
for (const { chain, message } of violations) process.stderr.write(`${chain.join('\n  → ')}\n  ${message}\n\n`);
if (violations.length) {
  process.stderr.write(`import layers: ${violations.length} chain(s) cross a layer (scripts/lint/import-layers.ts)\n`);
  process.exit(1);
}

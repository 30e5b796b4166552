import type { Measurement } from './measure.ts';
import type { ScaleResult } from './report.ts';
import { REST_SCENARIOS, scenarioDetail } from './scenarios.ts';

/** The parts of a scale `--only` can name, in the order a full run measures them. */
export const ALL_PARTS = ['rest', 'layers', 'federated', 'scaleout', 'pglite'] as const;

/**
 * A run of some parts (`--only`) or REST routes (`--routes`) replaces those lines of the scale's recorded entry and
 * keeps the rest, so measuring one route again does not drop every other line of the scale. Each replaced line
 * carries the time of its own run, which the report prints beside it; the entry's conditions stay the full run's.
 */
export function mergePartialRun(
  recorded: ScaleResult,
  measured: ScaleResult,
  run: { parts: ReadonlySet<string>; routes?: readonly string[] },
): ScaleResult {
  const stamped = (lines: Measurement[]) => lines.map((line) => ({ ...line, measuredAt: measured.measuredAt }));
  const merged: ScaleResult = { ...recorded };
  if (run.parts.has('layers')) merged.layers = stamped(measured.layers);
  if (run.parts.has('federated')) merged.federated = stamped(measured.federated);
  if (run.parts.has('rest')) {
    const kept = run.routes ? recorded.rest.filter((line) => !run.routes!.includes(line.name)) : [];
    merged.rest = [...kept, ...stamped(measured.rest)].sort((a, b) => scenarioOrder(a) - scenarioOrder(b));
  }
  if (run.parts.has('scaleout') && measured.scaleOut) {
    merged.scaleOut = measured.scaleOut;
    merged.scaleOutConnections = measured.scaleOutConnections;
  }
  if (run.parts.has('pglite') && measured.pglite) merged.pglite = measured.pglite;
  return merged;
}

/** A REST line's place in the scenario table; lines of scenarios since removed go last. */
function scenarioOrder(line: Measurement): number {
  const index = REST_SCENARIOS.findIndex(
    (scenario) => scenario.path === line.name && scenarioDetail(scenario) === line.detail,
  );
  return index === -1 ? REST_SCENARIOS.length : index;
}

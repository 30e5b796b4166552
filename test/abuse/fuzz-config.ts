/**
 * How hard the abuse suite pushes. `npm test` runs a fixed seed and a few runs per kind of attack, so it is the
 * same on every run; `npm run fuzz` (or FUZZ_RUNS / FUZZ_SEED by hand) runs longer, and a failure prints the seed
 * and path that replay it. Test code reads the environment here only: it configures the test, not the service.
 */
const DEFAULT_SEED = 20261124;
/** Shared out over the routes a kind attacks, at least one run each: one per route, three per body of a write route. */
const DEFAULT_RUNS = 24;

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not ${raw}`);
  return value;
}

export const FUZZ = {
  seed: positiveInteger('FUZZ_SEED', DEFAULT_SEED),
  /**
   * Runs of each kind of attack (query, path, body, GraphQL variables), shared out over its routes; every run
   * sends one request (two on a lead's path, which first saves the lead).
   */
  numRuns: positiveInteger('FUZZ_RUNS', DEFAULT_RUNS),
};

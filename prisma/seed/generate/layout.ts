import type { SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';

/**
 * Which children belong to which parent, as a walk both the parent's and the child's generator repeat: owners
 * and their properties, firms and their attorneys. The walk has its own generator, so it is identical in both
 * passes, and it assigns consecutive child ids, so every foreign key is known without reading anything back.
 */

export interface Portfolio {
  ownerId: number;
  firstPropertyId: number;
  count: number;
}

/** Portfolio sizes: most owners hold one or two properties, a few investors hold dozens (mean ≈ 3). */
const PORTFOLIO_SIZES = new Weighted<readonly [number, number]>([
  [[1, 1], 45],
  [[2, 2], 20],
  [[3, 3], 12],
  [[4, 5], 11],
  [[6, 10], 9],
  [[11, 20], 3],
]);

/** Owners in id order until exactly `scale` properties are placed (≈ scale / 3 owners). */
export function* portfolios(ctx: SeedContext): Generator<Portfolio> {
  const rng = Rng.for(ctx.seed, 'owner-portfolios');
  let placed = 0;
  for (let ownerId = 1; placed < ctx.scale; ownerId++) {
    const [min, max] = PORTFOLIO_SIZES.pick(rng);
    const count = Math.min(rng.between(min, max), ctx.scale - placed);
    yield { ownerId, firstPropertyId: placed + 1, count };
    placed += count;
  }
}

export type LegalUnit =
  { kind: 'firm'; firmId: number; firstAttorneyId: number; size: number } | { kind: 'solo'; attorneyId: number };

/** Firm sizes: boutiques to national firms (mean ≈ 19 attorneys). */
const FIRM_SIZES = new Weighted<readonly [number, number]>([
  [[2, 5], 40],
  [[6, 15], 32],
  [[16, 40], 18],
  [[41, 100], 8],
  [[101, 300], 2],
]);

/**
 * Solo practitioners and firms in attorney-id order until exactly `scale` attorneys are placed. With a solo
 * practice at 3 in 8 steps, there is about one firm per 20 attorneys and ~3% of attorneys practise alone.
 */
export function* legalUnits(ctx: SeedContext): Generator<LegalUnit> {
  const rng = Rng.for(ctx.seed, 'firm-layout');
  let placed = 0;
  let firmId = 0;
  while (placed < ctx.scale) {
    if (rng.chance(0.375)) {
      placed += 1;
      yield { kind: 'solo', attorneyId: placed };
      continue;
    }
    const [min, max] = FIRM_SIZES.pick(rng);
    const size = Math.min(rng.between(min, max), ctx.scale - placed);
    firmId += 1;
    yield { kind: 'firm', firmId, firstAttorneyId: placed + 1, size };
    placed += size;
  }
}

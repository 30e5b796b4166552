import type { Row } from '../copy.ts';
import type { SeedContext } from '../context.ts';
import { Rng } from '../random.ts';
import { legalUnits } from './layout.ts';
import { anyPlace, domainOf, personName, type Place } from './people.ts';

/**
 * Law firms. A firm's size is its number of attorneys from the layout walk (layout.ts); its headquarters and
 * practice areas are drawn first from its own generator, because attorney.ts reads them to place its people.
 */
export const FIRM_COLUMNS = [
  'id',
  'name',
  'hq_city',
  'hq_state',
  'size',
  'practice_areas',
  'website',
  'founded_year',
] as const;

/** The documented filter values (`practice_area=Personal%20Injury`): display names with spaces. */
export const PRACTICE_AREAS = [
  'Personal Injury',
  'Real Estate',
  'Corporate Law',
  'Family Law',
  'Criminal Defense',
  'Estate Planning',
  'Immigration',
  'Intellectual Property',
  'Employment Law',
  'Bankruptcy',
  'Tax Law',
  'Medical Malpractice',
  'Civil Litigation',
  'Environmental Law',
  'Securities',
  "Workers' Compensation",
  'Mergers & Acquisitions',
  'Elder Law',
] as const;

export interface FirmCore {
  id: number;
  rng: Rng;
  name: string;
  domain: string;
  hq: Place;
  practiceAreas: readonly string[];
}

/** `count` distinct items, in the list's order (stable output for the same draws). */
export function pickDistinct(rng: Rng, items: readonly string[], count: number): string[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(rng.int(items.length));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] ?? '');
}

export function firmCore(ctx: SeedContext, firmId: number, size: number): FirmCore {
  const rng = Rng.for(ctx.seed, 'firms', firmId);
  const [a, b, c] = [personName(rng, ctx.pools), personName(rng, ctx.pools), personName(rng, ctx.pools)];
  const style = rng.int(10);
  const name =
    size <= 5 && style < 3
      ? `Law Offices of ${a.first} ${a.last}`
      : style < 6
        ? `${a.last} & ${b.last} LLP`
        : style < 8
          ? `${a.last}, ${b.last} & ${c.last}`
          : style < 9
            ? `${a.last} Law Group`
            : `${a.last} ${b.last} PC`;
  // Boutiques focus on one or two areas; full-service firms cover many.
  const areaCount = size <= 5 ? rng.between(1, 2) : size <= 40 ? rng.between(2, 4) : rng.between(4, 8);
  const place = anyPlace(rng);
  // Large firms sit in their state's largest city.
  const hq = size > 40 ? { state: place.state, city: place.state.cities[0] ?? place.city } : place;
  return {
    id: firmId,
    rng,
    name,
    domain: domainOf(`${a.last}${size > 40 ? '' : b.last}law`),
    hq,
    practiceAreas: pickDistinct(rng, PRACTICE_AREAS, areaCount),
  };
}

export function* firmRows(ctx: SeedContext): Generator<Row> {
  const year = ctx.anchor.getUTCFullYear();
  for (const unit of legalUnits(ctx)) {
    if (unit.kind !== 'firm') continue;
    const firm = firmCore(ctx, unit.firmId, unit.size);
    // Large firms are old firms.
    const foundedYear = year - 1 - Math.floor((unit.size > 40 ? 130 : 60) * firm.rng.float() ** 1.5);
    yield [
      firm.id,
      firm.name,
      firm.hq.city.name,
      firm.hq.state.code,
      unit.size,
      firm.practiceAreas,
      `https://www.${firm.domain}`,
      foundedYear,
    ];
  }
}

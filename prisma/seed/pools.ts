import { createFaker } from './random.ts';

/**
 * Word pools drawn once per seed with Faker and then indexed by the fast per-row generator: a Faker call per
 * field would dominate the run at ten million rows. Pools are built from a Faker of their own, before any
 * table, so no table's output depends on another's.
 */
export interface Pools {
  firstNames: readonly string[];
  lastNames: readonly string[];
  /** Street names without a number ("Maple Avenue"). */
  streets: readonly string[];
  /** Name stems for companies, firms and LLCs: surnames and place-like words. */
  brands: readonly string[];
}

const BRAND_WORDS = [
  'Summit',
  'Harbor',
  'Pioneer',
  'Evergreen',
  'Keystone',
  'Beacon',
  'Cascade',
  'Meridian',
  'Northstar',
  'Ironwood',
  'Bluewater',
  'Redwood',
  'Granite',
  'Lakeshore',
  'Silverline',
  'Frontier',
  'Atlas',
  'Horizon',
  'Crescent',
  'Sterling',
  'Oakridge',
  'Riverbend',
  'Highland',
  'Prairie',
  'Coastal',
  'Liberty',
  'Patriot',
  'Vanguard',
  'Brightpath',
  'Clearwater',
  'Stonebridge',
  'Westfield',
  'Eastgate',
  'Copperleaf',
  'Juniper',
  'Aspen',
  'Sequoia',
  'Magnolia',
  'Cypress',
  'Willow',
  'Falcon',
  'Eagle',
  'Orion',
  'Apex',
  'Vertex',
  'Quantum',
  'Nimbus',
  'Helix',
  'Lumen',
  'Catalyst',
];

/** `count` distinct values of `draw`, giving up after enough tries (a locale may have fewer). */
function distinct(count: number, draw: () => string): string[] {
  const values = new Set<string>();
  for (let tries = 0; values.size < count && tries < count * 20; tries++) values.add(draw());
  return [...values];
}

const cache = new Map<number, Pools>();

export function getPools(seed: number): Pools {
  const cached = cache.get(seed);
  if (cached) return cached;
  const faker = createFaker(seed, 'pools');
  const firstNames = distinct(600, () => faker.person.firstName());
  // The locale's double-barrelled surnames are rare one by one but would crowd a distinct pool.
  const lastNames = distinct(450, () => faker.person.lastName()).filter((name) => !name.includes('-'));
  const streets = distinct(1500, () => faker.location.street());
  const brands = [...BRAND_WORDS, ...lastNames.slice(0, 300)];
  const pools: Pools = { firstNames, lastNames, streets, brands };
  cache.set(seed, pools);
  return pools;
}

const slugs = new Map<string, string>();

/**
 * Lower-case ASCII letters and digits only: e-mail local parts and domains from accented names. Memoised:
 * inputs come from the pools, so there are few distinct ones, and Unicode normalisation is slow per row.
 */
export function slug(text: string): string {
  let value = slugs.get(text);
  if (value === undefined) {
    value = text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    if (slugs.size > 500_000) slugs.clear(); // bounded, in case a caller passes unpooled text
    slugs.set(text, value);
  }
  return value;
}

import type { Row } from '../copy.ts';
import type { SeedContext } from '../context.ts';
import { FIFTY_STATES, type StateInfo } from '../data/geo.ts';
import { slug } from '../pools.ts';
import { Rng, Weighted } from '../random.ts';
import { pickDistinct } from './firm.ts';
import { foldName } from '../../../subgraphs/markets/names.ts';

/**
 * Members of Congress: 100 senators (two per state) and 41 representatives in population-weighted states.
 * Names are fictional (trades are invented, so no real person is shown trading); a few carry accents so the
 * accent-folding member search has something to fold. `tradeWeight` makes a handful of members prolific
 * traders, as disclosure data shows.
 */
export const MEMBER_COLUMNS = [
  'bioguide_id',
  'first_name',
  'last_name',
  'full_name',
  'party',
  'chamber',
  'state',
  'district',
  'committees',
  'name_folded',
] as const;

export interface Member {
  bioguideId: string;
  firstName: string;
  lastName: string;
  fullName: string;
  party: string;
  chamber: 'house' | 'senate';
  state: string;
  district: string | null;
  committees: string[];
  tradeWeight: number;
}

const HOUSE_SEATS = 41;
const ACCENTED: ReadonlyArray<readonly [string, string]> = [
  ['Marisol', 'Velázquez'],
  ['José', 'Ramírez'],
  ['Inés', 'Cortés'],
  ['Raúl', 'Peña'],
  ['Zoë', 'Lefèvre'],
  ['Joaquín', 'Núñez'],
  ['Renée', 'Ibáñez'],
  ['André', 'Gonçalves'],
];
const SENATE_COMMITTEES = [
  'Appropriations',
  'Armed Services',
  'Banking, Housing, and Urban Affairs',
  'Commerce, Science, and Transportation',
  'Energy and Natural Resources',
  'Finance',
  'Foreign Relations',
  'Health, Education, Labor, and Pensions',
  'Homeland Security and Governmental Affairs',
  'Judiciary',
  'Intelligence',
  'Agriculture, Nutrition, and Forestry',
];
const HOUSE_COMMITTEES = [
  'Appropriations',
  'Armed Services',
  'Energy and Commerce',
  'Financial Services',
  'Ways and Means',
  'Judiciary',
  'Oversight and Accountability',
  'Foreign Affairs',
  'Homeland Security',
  'Agriculture',
  'Science, Space, and Technology',
  'Transportation and Infrastructure',
];
const SENATE_PARTY = new Weighted([
  ['D', 48],
  ['R', 52],
] as const);
/** Seat positions (two per state, states in data/geo.ts order) of the first senators of ME and VT. */
const INDEPENDENT_SEATS = new Set(
  ['ME', 'VT'].map((code) => 2 * FIFTY_STATES.findIndex((state) => state.code === code)),
);
const HOUSE_PARTY = new Weighted([
  ['D', 49],
  ['R', 51],
] as const);
const houseStates = new Weighted(FIFTY_STATES.map((state) => [state, state.population] as const));

/** Seats in the state's House delegation (435 seats by population; at least one). */
function delegationSize(state: StateInfo): number {
  return Math.max(1, Math.round((state.population * 435) / 334));
}

const cache = new Map<number, Member[]>();

/** All members, built once per seed: the members table and the trades generator share them. */
export function buildMembers(ctx: SeedContext): Member[] {
  const cached = cache.get(ctx.seed);
  if (cached) return cached;
  const rng = Rng.for(ctx.seed, 'members');
  const ids = new Set<string>();
  const districts = new Set<string>();
  const seats: Array<{ chamber: 'house' | 'senate'; state: StateInfo; district: string | null }> = [];
  for (const state of FIFTY_STATES)
    seats.push({ chamber: 'senate', state, district: null }, { chamber: 'senate', state, district: null });
  while (seats.length < FIFTY_STATES.length * 2 + HOUSE_SEATS) {
    const state = houseStates.pick(rng);
    const size = delegationSize(state);
    const district = `${state.code}${String(size === 1 ? 0 : rng.between(1, size)).padStart(2, '0')}`;
    if (districts.has(district)) continue;
    districts.add(district);
    seats.push({ chamber: 'house', state, district });
  }
  const members = seats.map((seat, i): Member => {
    const accented = i % 18 === 5 ? ACCENTED[(i / 18) | 0] : undefined;
    const [firstName, lastName] = accented ?? [rng.pick(ctx.pools.firstNames), rng.pick(ctx.pools.lastNames)];
    // Real format: the last name's initial and six digits.
    let bioguideId: string;
    do bioguideId = `${(slug(lastName)[0] ?? 'x').toUpperCase()}${String(rng.between(1, 1299)).padStart(6, '0')}`;
    while (ids.has(bioguideId));
    ids.add(bioguideId);
    const senate = seat.chamber === 'senate';
    const party = (senate ? SENATE_PARTY : HOUSE_PARTY).pick(rng);
    return {
      bioguideId,
      firstName,
      lastName,
      fullName: `${firstName} ${lastName}`,
      // The Senate has had two independents for years (Vermont and Maine): `party=I` always finds someone.
      party: INDEPENDENT_SEATS.has(i) ? 'I' : party,
      chamber: seat.chamber,
      state: seat.state.code,
      district: seat.district,
      committees: pickDistinct(rng, senate ? SENATE_COMMITTEES : HOUSE_COMMITTEES, rng.between(1, 3)),
      tradeWeight: rng.logNormal(1, 1.3),
    };
  });
  cache.set(ctx.seed, members);
  return members;
}

export function* memberRows(ctx: SeedContext): Generator<Row> {
  for (const m of buildMembers(ctx)) {
    yield [
      m.bioguideId,
      m.firstName,
      m.lastName,
      m.fullName,
      m.party,
      m.chamber,
      m.state,
      m.district,
      m.committees,
      foldName(m.fullName),
    ];
  }
}

import type { Row } from '../copy.ts';
import { addDays, clamp, isoDay, round, type SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';
import type { OwnerCore } from './owner.ts';
import { anyPlace, placeIn, streetAddress, zipCode, type Place } from './people.ts';

/**
 * Properties. Each one draws from its own generator: first the fields its owner's aggregates need (state
 * and estimated value, in `propertyCore`), then the rest. The owner generator replays only the first part.
 */
export const PROPERTY_COLUMNS = [
  'id',
  'address',
  'city',
  'state',
  'zip',
  'county',
  'property_type',
  'bedrooms',
  'bathrooms',
  'sqft',
  'year_built',
  'estimated_value',
  'mortgage_balance',
  'equity_pct',
  'last_sale_date',
  'last_sale_price',
  'owner_id',
  'absentee_owner',
] as const;

/** type → relative frequency, median size in sqft and price per sqft relative to the state's homes. */
const TYPES: ReadonlyArray<readonly [string, number, number, number]> = [
  ['single_family', 55, 1900, 1],
  ['condo', 14, 1050, 1.1],
  ['townhouse', 9, 1500, 0.95],
  ['multi_family', 10, 3200, 0.85],
  ['land', 5, 0, 0],
  ['commercial', 7, 6000, 0.9],
];
const typePicker = new Weighted(TYPES.map((type) => [type, type[1]] as const));

export interface PropertyCore {
  id: number;
  rng: Rng;
  place: Place;
  type: string;
  sqft: number | null;
  estimatedValue: number;
}

export function propertyCore(ctx: SeedContext, id: number, owner: OwnerCore): PropertyCore {
  const rng = Rng.for(ctx.seed, 'properties', id);
  // Investors (LLCs, corporations) buy out of state more often than households do.
  const local = owner.ownerType === 'individual' ? 0.9 : 0.65;
  const place = rng.chance(local) ? placeIn(rng, owner.mailingPlace.state) : anyPlace(rng);
  const [type, , medianSqft, priceFactor] = typePicker.pick(rng);
  const homePricePerSqft = (place.state.medianHomeValue / 1800) * rng.logNormal(1, 0.3);
  let sqft: number | null = null;
  let value: number;
  if (type === 'land') {
    value = rng.logNormal(place.state.medianHomeValue * 0.25, 0.8);
  } else {
    sqft = clamp(Math.round(rng.logNormal(medianSqft, type === 'commercial' ? 0.8 : 0.35) / 10) * 10, 350, 250_000);
    value = homePricePerSqft * priceFactor * sqft;
  }
  return { id, rng, place, type, sqft, estimatedValue: Math.max(5000, Math.round(value / 1000) * 1000) };
}

function rooms(rng: Rng, type: string, sqft: number | null): [number | null, number | null] {
  if (sqft === null || type === 'commercial') return [null, null];
  const bedrooms =
    type === 'multi_family'
      ? rng.between(4, 12)
      : type === 'condo'
        ? clamp(Math.round(sqft / 550) + rng.between(-1, 0), 0, 4)
        : clamp(Math.round(sqft / 600) + rng.between(-1, 1), 1, 8);
  const bathrooms = clamp(Math.round((bedrooms * 0.75 + rng.float()) * 2) / 2, 1, 8);
  return [bedrooms, bathrooms];
}

export function propertyRow(ctx: SeedContext, core: PropertyCore, owner: OwnerCore): Row {
  const { rng, place, type, sqft, estimatedValue } = core;
  const [bedrooms, bathrooms] = rooms(rng, type, sqft);
  const year = ctx.anchor.getUTCFullYear();
  const yearBuilt = type === 'land' ? null : year - 1 - Math.floor(110 * rng.float() ** 1.6);
  // About a third of US homes are owned free and clear.
  const mortgageBalance = rng.chance(0.33) ? 0 : Math.round((estimatedValue * (0.1 + 0.85 * rng.float())) / 100) * 100;
  const equityPct = round(((estimatedValue - mortgageBalance) / estimatedValue) * 100, 1);
  let lastSaleDate: string | null = null;
  let lastSalePrice: number | null = null;
  if (rng.chance(0.88)) {
    const daysAgo = rng.between(30, 365 * 30);
    lastSaleDate = isoDay(addDays(ctx.anchor, -daysAgo));
    // Prices rose ~4.5% a year: what it sold for then, give or take the market.
    const price = (estimatedValue / 1.045 ** (daysAgo / 365)) * rng.logNormal(1, 0.1);
    lastSalePrice = Math.max(1000, Math.round(price / 1000) * 1000);
  }
  return [
    core.id,
    streetAddress(rng, ctx.pools),
    place.city.name,
    place.state.code,
    zipCode(rng, place.city),
    place.city.county,
    type,
    bedrooms,
    bathrooms,
    sqft,
    yearBuilt,
    estimatedValue,
    mortgageBalance,
    equityPct,
    lastSaleDate,
    lastSalePrice,
    owner.id,
    place.state.code !== owner.mailingPlace.state.code,
  ];
}

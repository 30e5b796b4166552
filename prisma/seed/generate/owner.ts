import type { Row } from '../copy.ts';
import type { SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';
import { portfolios, type Portfolio } from './layout.ts';
import { anyPlace, domainOf, personName, personalEmail, phone, streetAddress, zipCode, type Place } from './people.ts';
import { propertyCore, propertyRow, type PropertyCore } from './property.ts';

/**
 * Owners and the walk over their properties. An owner's properties_count, portfolio_value and absentee flag
 * are computed here from the same property draws the property table is written from (layout.ts, property.ts).
 */
export const OWNER_COLUMNS = [
  'id',
  'name',
  'owner_type',
  'mailing_address',
  'mailing_city',
  'mailing_state',
  'mailing_zip',
  'phone',
  'email',
  'properties_count',
  'portfolio_value',
  'absentee',
] as const;

export interface OwnerCore {
  id: number;
  rng: Rng;
  ownerType: string;
  mailingPlace: Place;
}

/** Households hold one or two homes; portfolios of six or more are mostly companies and trusts. */
const SMALL_HOLDER = new Weighted([
  ['individual', 70],
  ['trust', 13],
  ['llc', 12],
  ['corporation', 5],
] as const);
const INVESTOR = new Weighted([
  ['individual', 15],
  ['trust', 15],
  ['llc', 45],
  ['corporation', 25],
] as const);
const LLC_WORDS = ['Holdings', 'Properties', 'Investments', 'Capital', 'Realty', 'Property Group', 'Ventures'];

export function ownerCore(ctx: SeedContext, portfolio: Portfolio): OwnerCore {
  const rng = Rng.for(ctx.seed, 'owners', portfolio.ownerId);
  const ownerType = (portfolio.count >= 6 ? INVESTOR : SMALL_HOLDER).pick(rng);
  return { id: portfolio.ownerId, rng, ownerType, mailingPlace: anyPlace(rng) };
}

function ownerRow(ctx: SeedContext, owner: OwnerCore, properties: readonly PropertyCore[]): Row {
  const { rng, mailingPlace } = owner;
  const person = personName(rng, ctx.pools);
  const brand = rng.pick(ctx.pools.brands);
  let name: string;
  let email: string;
  if (owner.ownerType === 'individual') {
    name = `${person.first} ${person.last}`;
    email = personalEmail(rng, person);
  } else {
    name =
      owner.ownerType === 'trust'
        ? rng.chance(0.6)
          ? `The ${person.last} Family Trust`
          : `${person.last} Revocable Trust`
        : owner.ownerType === 'llc'
          ? `${brand} ${rng.pick(LLC_WORDS)} LLC`
          : `${brand} Realty Corp.`;
    email =
      owner.ownerType === 'trust' ? personalEmail(rng, person) : `info@${domainOf(name.replace(/ (LLC|Corp\.)$/, ''))}`;
  }
  let portfolioValue = 0;
  let absentee = false;
  for (const property of properties) {
    portfolioValue += property.estimatedValue;
    absentee ||= property.place.state.code !== mailingPlace.state.code;
  }
  return [
    owner.id,
    name,
    owner.ownerType,
    streetAddress(rng, ctx.pools),
    mailingPlace.city.name,
    mailingPlace.state.code,
    zipCode(rng, mailingPlace.city),
    phone(rng, mailingPlace.city.areaCode),
    email,
    properties.length,
    portfolioValue,
    absentee,
  ];
}

function propertyCoresOf(ctx: SeedContext, portfolio: Portfolio, owner: OwnerCore): PropertyCore[] {
  const cores: PropertyCore[] = [];
  for (let i = 0; i < portfolio.count; i++) cores.push(propertyCore(ctx, portfolio.firstPropertyId + i, owner));
  return cores;
}

export function* ownerRows(ctx: SeedContext): Generator<Row> {
  for (const portfolio of portfolios(ctx)) {
    const owner = ownerCore(ctx, portfolio);
    yield ownerRow(ctx, owner, propertyCoresOf(ctx, portfolio, owner));
  }
}

export function* propertyRows(ctx: SeedContext): Generator<Row> {
  for (const portfolio of portfolios(ctx)) {
    const owner = ownerCore(ctx, portfolio);
    for (const core of propertyCoresOf(ctx, portfolio, owner)) yield propertyRow(ctx, core, owner);
  }
}

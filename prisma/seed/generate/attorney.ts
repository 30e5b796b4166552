import type { Row } from '../copy.ts';
import { addDays, type SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';
import { firmCore, pickDistinct, PRACTICE_AREAS, type FirmCore } from './firm.ts';
import { legalUnits } from './layout.ts';
import { anyPlace, personName, personalEmail, phone, workEmail } from './people.ts';

/**
 * Attorneys, walked in the same layout as firms: a firm's first attorney is a partner (so every firm has
 * one), others make partner sometimes; most work at the firm's headquarters and practise its areas. Solo
 * practitioners have no firm.
 */
export const ATTORNEY_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'firm_id',
  'is_partner',
  'practice_areas',
  'state',
  'city',
  'bar_number',
  'bar_status',
  'bar_verified',
  'verified_at',
  'admitted_year',
  'email',
  'phone',
] as const;

const BAR_STATUS = new Weighted([
  ['active', 90],
  ['inactive', 7],
  ['suspended', 3],
] as const);

function attorneyRow(ctx: SeedContext, id: number, firm: FirmCore | null, founder: boolean): Row {
  const rng = Rng.for(ctx.seed, 'attorneys', id);
  const name = personName(rng, ctx.pools);
  const isPartner = firm !== null && (founder || rng.chance(0.18));
  const place = firm && rng.chance(0.8) ? firm.hq : anyPlace(rng);
  const practiceAreas = firm
    ? pickDistinct(rng, firm.practiceAreas, rng.between(1, 2))
    : pickDistinct(rng, PRACTICE_AREAS, rng.between(1, 3));
  const year = ctx.anchor.getUTCFullYear();
  // Partners have practised for years; associates are spread over a career, skewed early.
  const admittedYear = isPartner || !firm ? year - rng.between(8, 45) : year - 1 - Math.floor(40 * rng.float() ** 1.7);
  const barVerified = rng.chance(0.85);
  const verifiedAt = barVerified
    ? new Date(addDays(ctx.anchor, -rng.between(1, 365)).getTime() + rng.int(86_400_000))
    : null;
  const email = firm ? workEmail(name, 'first.last', firm.domain) : personalEmail(rng, name);
  return [
    id,
    name.first,
    name.last,
    firm?.id ?? null,
    isPartner,
    practiceAreas,
    place.state.code,
    place.city.name,
    `${place.state.code}${rng.digits(6)}`,
    BAR_STATUS.pick(rng),
    barVerified,
    verifiedAt,
    admittedYear,
    email,
    phone(rng, place.city.areaCode),
  ];
}

export function* attorneyRows(ctx: SeedContext): Generator<Row> {
  for (const unit of legalUnits(ctx)) {
    if (unit.kind === 'solo') {
      yield attorneyRow(ctx, unit.attorneyId, null, false);
      continue;
    }
    const firm = firmCore(ctx, unit.firmId, unit.size);
    for (let i = 0; i < unit.size; i++) yield attorneyRow(ctx, unit.firstAttorneyId + i, firm, i === 0);
  }
}

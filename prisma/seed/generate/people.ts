import type { Pools } from '../pools.ts';
import { slug } from '../pools.ts';
import type { Rng } from '../random.ts';
import { statePicker, type City, type StateInfo } from '../data/geo.ts';

/** Pieces every vertical needs: people's names, phone numbers, e-mail addresses and street addresses. */

export interface PersonName {
  first: string;
  last: string;
}

export function personName(rng: Rng, pools: Pools): PersonName {
  return { first: rng.pick(pools.firstNames), last: rng.pick(pools.lastNames) };
}

/** `(415) 555-0142` style, with the city's real area code; exchanges never start with 0 or 1 (NANP). */
export function phone(rng: Rng, areaCode: string): string {
  return `(${areaCode}) ${rng.between(200, 999)}-${rng.digits(4)}`;
}

const EMAIL_PATTERNS = ['first.last', 'flast', 'first', 'firstl'] as const;
export type EmailPattern = (typeof EMAIL_PATTERNS)[number];

/** A company uses one pattern for everyone, as real companies do. */
export function emailPattern(rng: Rng): EmailPattern {
  return rng.pick(EMAIL_PATTERNS);
}

export function workEmail(name: PersonName, pattern: EmailPattern, domain: string): string {
  const first = slug(name.first);
  const last = slug(name.last);
  const local =
    pattern === 'first.last'
      ? `${first}.${last}`
      : pattern === 'flast'
        ? `${first.slice(0, 1)}${last}`
        : pattern === 'first'
          ? first
          : `${first}${last.slice(0, 1)}`;
  return `${local}@${domain}`;
}

const PERSONAL_DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'aol.com', 'hotmail.com'];

export function personalEmail(rng: Rng, name: PersonName): string {
  const separator = rng.pick(['.', '', '_']);
  const suffix = rng.chance(0.5) ? String(rng.between(1, 99)) : '';
  return `${slug(name.first)}${separator}${slug(name.last)}${suffix}@${rng.pick(PERSONAL_DOMAINS)}`;
}

export interface Place {
  state: StateInfo;
  city: City;
}

export function placeIn(rng: Rng, state: StateInfo): Place {
  return { state, city: state.cityPicker.pick(rng) };
}

/** A place anywhere, states weighted by population. */
export function anyPlace(rng: Rng): Place {
  return placeIn(rng, statePicker.pick(rng));
}

export function streetAddress(rng: Rng, pools: Pools): string {
  const number = rng.chance(0.7) ? rng.between(100, 9999) : rng.between(10, 29999);
  const unit = rng.chance(0.08) ? `, Apt ${rng.between(1, 40)}${rng.pick(['A', 'B', 'C', ''])}` : '';
  return `${number} ${rng.pick(pools.streets)}${unit}`;
}

export function zipCode(rng: Rng, city: City): string {
  return `${city.zip3}${rng.digits(2)}`;
}

/** `https://www.<slug>.com`, the domain part shared with employees' e-mail addresses. */
export function domainOf(name: string, tld = 'com'): string {
  return `${slug(name)}.${tld}`;
}

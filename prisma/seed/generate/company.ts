import type { Row } from '../copy.ts';
import { addDays, clamp, isoDay, type SeedContext } from '../context.ts';
import { STATES, stateInfo, type StateInfo } from '../data/geo.ts';
import { INDUSTRIES, industryOf, type Industry } from '../data/industries.ts';
import { TICKERS, listedCount, type Ticker } from '../data/tickers.ts';
import { Rng, Weighted } from '../random.ts';
import { decisionMaker } from './contact.ts';
import { domainOf, placeIn } from './people.ts';

/**
 * Companies. The first ones are the listed companies of data/tickers.ts (so a company links to its signals
 * and trades by ticker); the rest are private companies whose industry, size, revenue and state fit
 * together. The decision maker is copied from the company's first contact (see contact.ts).
 */
export const COMPANY_COLUMNS = [
  'id',
  'name',
  'industry',
  'industry_name',
  'revenue_usd',
  'employees',
  'state',
  'city',
  'website',
  'ticker',
  'founded_year',
  'ai_score',
  'decision_maker_id',
  'decision_maker',
  'decision_maker_title',
  'decision_maker_email',
  'created_at',
] as const;

/** The fields other tables need (contacts, profiles), drawn first from the company's own generator. */
export interface CompanyCore {
  id: number;
  name: string;
  domain: string;
  industry: Industry;
  state: string;
  city: string;
  areaCode: string;
  employees: number;
  listed: Ticker | null;
  rng: Rng;
}

const industryPicker = new Weighted(INDUSTRIES.map((industry) => [industry, industry.weight] as const));
const SUFFIXES = [' Inc.', ' LLC', ' Corp.', ' Co.', ' Group', '', ' Partners', ' Holdings'];
const suffixPicker = new Weighted(SUFFIXES.map((suffix, i) => [suffix, [30, 30, 10, 5, 8, 12, 3, 2][i] ?? 1] as const));
const LEGAL_WORDS = /^(the|inc\.?|corp\.?|corporation|company|co\.?|incorporated|group|holdings|&)$/i;

/** State weights per industry: population × the industry's hubs (software leans to CA, energy to TX). */
const statePickers = new Map<string, Weighted<StateInfo>>(
  INDUSTRIES.map((industry) => [
    industry.token,
    new Weighted(STATES.map((state) => [state, state.population * (industry.hubs[state.code] ?? 1)] as const)),
  ]),
);

/** A listed company's core: also what its market profile shows (same generator, same headcount). */
export function listedCore(ctx: SeedContext, id: number, listed: Ticker): CompanyCore {
  const rng = Rng.for(ctx.seed, 'companies', id);
  const stem = listed.name.split(/[ ,]+/).find((word) => !LEGAL_WORDS.test(word)) ?? listed.ticker;
  // Headcount grows slower than market value; the spread keeps peers from looking alike.
  const employees = Math.round(3000 * listed.capBillions ** 0.55 * rng.logNormal(1, 0.35));
  const areaCode = stateInfo(listed.state).cities[0]?.areaCode ?? '555';
  return {
    id,
    name: listed.name,
    domain: domainOf(stem.replace(/\.com$/i, '')),
    industry: industryOf(listed.industry),
    state: listed.state,
    city: listed.city,
    areaCode,
    employees,
    listed,
    rng,
  };
}

const brandDomains = new Map<string, Map<string, string>>();

/** `harborlabs.com` for Harbor + Labs; memoised by the pooled words, as it is needed for every company. */
function brandDomain(brand: string, noun: string): string {
  let byNoun = brandDomains.get(brand);
  if (!byNoun) brandDomains.set(brand, (byNoun = new Map()));
  let domain = byNoun.get(noun);
  if (domain === undefined) byNoun.set(noun, (domain = domainOf(`${brand}${noun}`)));
  return domain;
}

export function companyCore(ctx: SeedContext, id: number): CompanyCore {
  const listed = id <= listedCount(ctx.scale) ? TICKERS[id - 1] : undefined;
  if (listed) return listedCore(ctx, id, listed);
  const rng = Rng.for(ctx.seed, 'companies', id);
  const industry = industryPicker.pick(rng);
  const place = placeIn(rng, statePickers.get(industry.token)?.pick(rng) ?? stateInfo('CA'));
  const brand = rng.pick(ctx.pools.brands);
  const noun = rng.pick(industry.nouns);
  const employees = clamp(Math.round(rng.logNormal(industry.employeesMedian, 1.3)), 1, 250_000);
  return {
    id,
    name: `${brand} ${noun}${suffixPicker.pick(rng)}`,
    domain: brandDomain(brand, noun),
    industry,
    state: place.state.code,
    city: place.city.name,
    areaCode: place.city.areaCode,
    employees,
    listed: null,
    rng,
  };
}

/** Company cores 1..scale, in id order. */
export function* companyCores(ctx: SeedContext): Generator<CompanyCore> {
  for (let id = 1; id <= ctx.scale; id++) yield companyCore(ctx, id);
}

/** Revenue to the nearest thousand (nearest hundred thousand past $100M, as reported figures are). */
function revenue(rng: Rng, company: CompanyCore): number {
  const [low, high] = company.industry.revenuePerEmployee;
  const value = company.employees * rng.logUniform(low, high);
  const step = value >= 100_000_000 ? 100_000 : 1000;
  return Math.max(step, Math.round(value / step) * step);
}

export function* companyRows(ctx: SeedContext): Generator<Row> {
  const year = ctx.anchor.getUTCFullYear();
  let nextContactId = 1;
  for (const company of companyCores(ctx)) {
    const { rng } = company;
    const revenueUsd = revenue(rng, company);
    const foundedYear = company.listed ? rng.between(1880, 2012) : year - 1 - Math.floor(70 * rng.float() ** 2); // most private companies are young
    const aiScore = clamp(Math.round(55 + company.industry.aiBias + 18 * rng.normal()), 0, 100);
    const createdAt = isoDay(addDays(ctx.anchor, -rng.between(1, 1000))); // midnight: the day is enough
    const { count, contact } = decisionMaker(ctx, company);
    yield [
      company.id,
      company.name,
      company.industry.token,
      company.industry.name,
      revenueUsd,
      company.employees,
      company.state,
      company.city,
      `https://www.${company.domain}`,
      company.listed?.ticker ?? null,
      foundedYear,
      aiScore,
      nextContactId,
      `${contact.name.first} ${contact.name.last}`,
      contact.title,
      contact.email,
      createdAt,
    ];
    nextContactId += count;
  }
}

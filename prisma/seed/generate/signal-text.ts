import { addDays, clamp } from '../context.ts';
import { MACRO_FUNDS, type Ticker } from '../data/tickers.ts';
import type { Pools } from '../pools.ts';
import { Weighted, type Rng } from '../random.ts';

/**
 * What a signal says: its filing type, a one-sentence summary naming the company and the event, a
 * sentiment and a materiality that fit the event (a cyber incident matters more than a notes offering).
 */
export interface SignalDraft {
  filingType: string;
  summary: string;
  sentiment: 'BULLISH' | 'BEARISH' | 'NEUTRAL';
  materiality: number;
}

type Sentiment = SignalDraft['sentiment'];

/** Dollars the way a headline writes them: $850K, $12.5M, $2.1B. */
export function formatUsd(value: number): string {
  if (value >= 1e9) return `$${(value / 1e9).toFixed(1)}B`;
  if (value >= 1e6) return `$${(value / 1e6).toFixed(1)}M`;
  return `$${Math.round(value / 1e3)}K`;
}

function score(rng: Rng, mean: number): number {
  return clamp(Math.round(mean + 12 * rng.normal()), 0, 100);
}

/** 8-K events: item number, what happened, how the market reads it, how much it matters. */
const EIGHT_K = new Weighted<readonly [string, (rng: Rng) => string, Sentiment, number]>([
  [['1.01', () => 'entered into a material definitive agreement with a strategic partner', 'BULLISH', 58], 3],
  [['2.01', () => 'completed the acquisition of a privately held competitor', 'BULLISH', 64], 2],
  [['2.02', () => 'reported preliminary quarterly results above its guidance range', 'BULLISH', 82], 2],
  [['2.02', () => 'reported preliminary quarterly results below its guidance range', 'BEARISH', 84], 2],
  [['5.02', () => 'announced the departure of its chief financial officer', 'BEARISH', 74], 2],
  [['5.02', () => 'appointed a new chief executive officer effective immediately', 'NEUTRAL', 78], 1],
  [['1.05', () => 'disclosed a material cybersecurity incident under investigation', 'BEARISH', 88], 1],
  [['8.01', (rng) => `authorized a $${rng.between(1, 25)} billion share repurchase program`, 'BULLISH', 68], 2],
  [['2.03', (rng) => `priced a $${rng.between(5, 40) / 10} billion senior notes offering`, 'NEUTRAL', 45], 2],
  [
    [
      '2.05',
      (rng) => `announced a restructuring that cuts about ${rng.between(3, 15)}% of its workforce`,
      'BEARISH',
      70,
    ],
    1,
  ],
]);

export function secFilingDraft(rng: Rng, ticker: Ticker): SignalDraft {
  const kind = rng.float();
  const who = `${ticker.name} (${ticker.ticker})`;
  if (kind < 0.65) {
    const [item, event, sentiment, mean] = EIGHT_K.pick(rng);
    return {
      filingType: '8-K',
      summary: `${who} filed an 8-K (Item ${item}): it ${event(rng)}.`,
      sentiment,
      materiality: score(rng, mean),
    };
  }
  if (kind < 0.9) {
    const growth = Math.round(rng.normal() * 90 + 60) / 10;
    const sentiment: Sentiment = growth > 8 ? 'BULLISH' : growth < 0 ? 'BEARISH' : 'NEUTRAL';
    const direction = growth >= 0 ? `up ${growth}%` : `down ${-growth}%`;
    return {
      filingType: '10-Q',
      summary: `${who} filed its 10-Q: quarterly revenue ${direction} year over year.`,
      sentiment,
      materiality: score(rng, 45 + Math.abs(growth) * 2),
    };
  }
  const risk = rng.pick([
    'tariffs on imported components',
    'AI regulation',
    'customer concentration',
    'pending litigation',
    'interest-rate exposure',
  ]);
  return {
    filingType: '10-K',
    summary: `${who} filed its annual 10-K with new risk factors on ${risk}.`,
    sentiment: 'NEUTRAL',
    materiality: score(rng, 40),
  };
}

const ROLES = ['Director', 'Chief Executive Officer', 'Chief Financial Officer', 'President', 'EVP', '10% Owner'];

export function insiderDraft(rng: Rng, ticker: Ticker, pools: Pools, buy: boolean, price: number): SignalDraft {
  const insider = `${rng.pick(pools.firstNames)} ${rng.pick(pools.lastNames)}`;
  const shares = Math.round(rng.logNormal(buy ? 8000 : 25000, 1) / 10) * 10;
  const value = shares * price;
  const role = rng.pick(ROLES);
  const summary = buy
    ? `${role} ${insider} bought ${shares.toLocaleString('en-US')} shares of ${ticker.name} (${ticker.ticker}) at $${price.toFixed(2)}, an open-market purchase worth ${formatUsd(value)}.`
    : `${role} ${insider} sold ${shares.toLocaleString('en-US')} shares of ${ticker.name} (${ticker.ticker}) for ${formatUsd(value)}${rng.chance(0.6) ? ' under a Rule 10b5-1 plan' : ''}.`;
  // Open-market buys are rare and read as conviction; sales are routine unless large.
  const materiality = score(rng, (buy ? 55 : 35) + Math.min(30, Math.log10(Math.max(value, 1e4) / 1e4) * 10));
  return { filingType: '4', summary, sentiment: buy ? 'BULLISH' : value > 5e6 ? 'BEARISH' : 'NEUTRAL', materiality };
}

export function earningsDraft(rng: Rng, ticker: Ticker, createdAt: Date): SignalDraft {
  const reportDate = addDays(createdAt, rng.between(2, 14)).toISOString().slice(0, 10);
  const eps = rng.logNormal(1.5, 0.7).toFixed(2);
  const revision = rng.float();
  const sentiment: Sentiment = revision < 0.25 ? 'BULLISH' : revision < 0.45 ? 'BEARISH' : 'NEUTRAL';
  const trend =
    sentiment === 'BULLISH'
      ? ', with estimates revised up this month'
      : sentiment === 'BEARISH'
        ? ', with estimates revised down this month'
        : '';
  return {
    filingType: '10-Q',
    summary: `${ticker.name} (${ticker.ticker}) reports quarterly results on ${reportDate}; analysts expect EPS of $${eps}${trend}.`,
    sentiment,
    materiality: score(rng, 55),
  };
}

const MACRO_EVENTS: ReadonlyArray<readonly [string, string, (rng: Rng) => string, number]> = [
  ['CPIAUCSL', 'SPY', (rng) => `CPI rose ${rng.between(1, 5) / 10}% month over month`, 80],
  ['UNRATE', 'SPY', (rng) => `the unemployment rate came in at ${(3.6 + rng.float()).toFixed(1)}%`, 70],
  ['FEDFUNDS', 'TLT', () => 'the effective federal funds rate was unchanged', 60],
  ['DGS10', 'TLT', (rng) => `the 10-year Treasury yield moved ${rng.between(8, 25)} basis points in a week`, 72],
  ['DGS2', 'TLT', (rng) => `the 2-year Treasury yield hit a ${rng.between(2, 6)}-month extreme`, 64],
];

export function macroDraft(rng: Rng): SignalDraft & { fund: Ticker; series: string } {
  const [series, fundTicker, event, mean] = rng.pick(MACRO_EVENTS);
  const fund = MACRO_FUNDS.find((item) => item.ticker === fundTicker) ?? (MACRO_FUNDS[0] as Ticker);
  const sentiment: Sentiment = rng.pick(['BULLISH', 'BEARISH', 'NEUTRAL']);
  return {
    series,
    fund,
    filingType: 'FRED',
    sentiment,
    materiality: score(rng, mean),
    summary: `FRED ${series}: ${event(rng)}, a ${sentiment.toLowerCase()} read for the ${fund.name} (${fund.ticker}).`,
  };
}

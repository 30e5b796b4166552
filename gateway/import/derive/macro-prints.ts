import { MACRO_FUNDS } from '../../../prisma/seed/data/tickers.ts';

/**
 * The rules that turn a new monthly print of CPI, unemployment or the policy rate into a `macro` signal
 * (docs/data-sources.md "Derived signals and briefings on live data"). Every print is a signal; materiality grows
 * with the size of the move; the sentiment is the read for the fund the signal is filed under, the funds the
 * sandbox files macro signals under (SPY for prices and jobs, TLT for rates).
 */
export type Sentiment = 'BULLISH' | 'BEARISH' | 'NEUTRAL';

export interface Observation {
  /** YYYY-MM-DD, the first day of the month the print measures (FRED's observation date). */
  date: string;
  value: number;
}

export interface MacroAssessment {
  fund: { ticker: string; name: string };
  materiality: number;
  sentiment: Sentiment;
  summary: string;
}

export const PRINT_SERIES = ['CPIAUCSL', 'UNRATE', 'FEDFUNDS'] as const;
export type PrintSeries = (typeof PRINT_SERIES)[number];

export function macroFund(ticker: 'SPY' | 'TLT'): { ticker: string; name: string } {
  const fund = MACRO_FUNDS.find((entry) => entry.ticker === ticker)!;
  return { ticker: fund.ticker, name: fund.name };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function monthName(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;
}

/** The first day of the month `months` after the month of `date` (YYYY-MM-DD). */
export function addMonths(date: string, months: number): string {
  const day = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  day.setUTCMonth(day.getUTCMonth() + months);
  return day.toISOString().slice(0, 10);
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const signed = (value: number, places: number) =>
  `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(places)}`;

/**
 * When a month's print is normally released (the files carry observation dates, not release dates), 13:30 UTC
 * (8:30 in New York, after the release in summer and winter time): CPI on the first weekday from the 15th of
 * the next month (BLS publishes it between about the 10th and the 15th), unemployment on the first Friday of
 * the next month (the Employment Situation), the monthly federal funds average on the first weekday of the
 * next month (the Fed's H.15). The signal is dated then, or at the import when that is earlier.
 */
export function releaseEstimate(series: PrintSeries, observed: string): Date {
  const next = new Date(`${addMonths(observed, 1)}T13:30:00Z`);
  if (series === 'CPIAUCSL') next.setUTCDate(15);
  const isWanted = (day: number) => (series === 'UNRATE' ? day === 5 : day !== 0 && day !== 6);
  while (!isWanted(next.getUTCDay())) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * A new print against the one before it (the previous month's; `yearAgo` for CPI's year-over-year change), or
 * null when the previous month is missing, so no move can be measured.
 */
export function assessPrint(
  series: PrintSeries,
  print: Observation,
  previous: Observation | undefined,
  yearAgo: Observation | undefined,
): MacroAssessment | null {
  if (!previous || previous.date !== addMonths(print.date, -1)) return null;
  if (series === 'CPIAUCSL') return assessCpi(print, previous, yearAgo);
  if (series === 'UNRATE') return assessUnemployment(print, previous);
  return assessPolicyRate(print, previous);
}

/**
 * CPI: the month-over-month change in percent (one decimal, as BLS publishes it), against the pace of the Fed's
 * 2 % a year target, about 0.2 % a month: the further from it, the more material. 0.3 % or more is BEARISH
 * (inflation above target keeps rates up), 0.1 % or less BULLISH, 0.2 % NEUTRAL.
 */
function assessCpi(print: Observation, previous: Observation, yearAgo: Observation | undefined): MacroAssessment {
  const monthly = round((print.value / previous.value - 1) * 100, 1);
  const yearly =
    yearAgo && yearAgo.date === addMonths(print.date, -12) ? round((print.value / yearAgo.value - 1) * 100, 1) : null;
  const distance = round(Math.abs(monthly - 0.2), 1);
  const materiality = distance >= 0.4 ? 85 : distance >= 0.2 ? 70 : distance >= 0.1 ? 60 : 50;
  const sentiment: Sentiment = monthly >= 0.3 ? 'BEARISH' : monthly <= 0.1 ? 'BULLISH' : 'NEUTRAL';
  const fund = macroFund('SPY');
  const change = monthly === 0 ? 'was unchanged' : `${monthly > 0 ? 'rose' : 'fell'} ${Math.abs(monthly).toFixed(1)}%`;
  const overYear = yearly === null ? '' : `, ${signed(yearly, 1)}% over ${monthName(yearAgo!.date)}`;
  return {
    fund,
    materiality,
    sentiment,
    summary: `FRED CPIAUCSL: CPI for ${monthName(print.date)} ${change} from ${monthName(previous.date)} (${print.value} after ${previous.value})${overYear}, a ${sentiment.toLowerCase()} read for the ${fund.name} (${fund.ticker}).`,
  };
}

/**
 * Unemployment: the change in percentage points. BLS counts a change of about 0.2 point as significant, so a
 * rise of 0.2 or more is BEARISH, a fall of 0.2 or more BULLISH, smaller moves NEUTRAL.
 */
function assessUnemployment(print: Observation, previous: Observation): MacroAssessment {
  const change = round(print.value - previous.value, 1);
  const size = Math.abs(change);
  const materiality = size >= 0.5 ? 85 : size >= 0.3 ? 70 : size >= 0.2 ? 60 : 45;
  const sentiment: Sentiment = change >= 0.2 ? 'BEARISH' : change <= -0.2 ? 'BULLISH' : 'NEUTRAL';
  const fund = macroFund('SPY');
  const move = change === 0 ? 'unchanged' : `${change > 0 ? 'up' : 'down'} ${size.toFixed(1)} point`;
  return {
    fund,
    materiality,
    sentiment,
    summary: `FRED UNRATE: the unemployment rate for ${monthName(print.date)} was ${print.value.toFixed(1)}%, ${move} from ${monthName(previous.date)} (${previous.value.toFixed(1)}%), a ${sentiment.toLowerCase()} read for the ${fund.name} (${fund.ticker}).`,
  };
}

/**
 * The effective federal funds rate (a monthly average): the change in percentage points. 0.5 or more is an
 * emergency-sized move, 0.25 a standard step, 0.10 a step half passed through the month's average; smaller
 * moves are drift within the target range. A rise is BEARISH for long bonds, a fall BULLISH (0.10 or more).
 */
function assessPolicyRate(print: Observation, previous: Observation): MacroAssessment {
  const change = round(print.value - previous.value, 2);
  const size = Math.abs(change);
  const materiality = size >= 0.5 ? 85 : size >= 0.25 ? 72 : size >= 0.1 ? 58 : 40;
  const sentiment: Sentiment = change >= 0.1 ? 'BEARISH' : change <= -0.1 ? 'BULLISH' : 'NEUTRAL';
  const fund = macroFund('TLT');
  const move = change === 0 ? 'unchanged' : `${change > 0 ? 'up' : 'down'} ${size.toFixed(2)} point`;
  return {
    fund,
    materiality,
    sentiment,
    summary: `FRED FEDFUNDS: the effective federal funds rate averaged ${print.value.toFixed(2)}% in ${monthName(print.date)}, ${move} from ${monthName(previous.date)} (${previous.value.toFixed(2)}%), a ${sentiment.toLowerCase()} read for the ${fund.name} (${fund.ticker}).`,
  };
}

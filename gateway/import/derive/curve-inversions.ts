import type { MacroAssessment } from './macro-prints.ts';
import { macroFund } from './macro-prints.ts';

/**
 * 2s10s inversions of the Treasury par yield curve: the spread is 10-year minus 2-year rounded to basis points,
 * inverted below zero, exactly as `/api/signals/macro/yield-curve` computes `spread_2_10` and `inverted`, so the
 * signal and the curve the API shows never disagree. Every crossing is a signal, on the first day it shows
 * (no waiting for confirmation); how material depends on what came before.
 */
export interface CurveDay {
  date: string;
  y2: number;
  y10: number;
}

export interface CurveCrossing extends MacroAssessment {
  kind: 'start' | 'end';
  date: string;
}

/** An inversion with none in the year before is a new episode: the classic recession warning. */
const NEW_EPISODE_DAYS = 365;
/** An inversion that lasted this many trading days (about a month) ends with a material signal. */
const LASTING_DAYS = 20;

const spread = (day: CurveDay) => Math.round((day.y10 - day.y2) * 100) / 100;
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/**
 * The crossings of a run of days (oldest first, days with both tenors only). A start is BEARISH (an inverted
 * curve has preceded US recessions), 85 when it opens a new episode, 60 when the curve re-inverts within a year of
 * its last inversion; an end is NEUTRAL (historically the curve turned positive again shortly before recessions as
 * often as not), 70 after an inversion of 20 trading days or more, 45 after a brief one.
 */
export function curveCrossings(days: readonly CurveDay[]): CurveCrossing[] {
  const crossings: CurveCrossing[] = [];
  const fund = macroFund('SPY');
  let lastInvertedDay: string | null = null;
  let invertedSince = -1;
  days.forEach((day, index) => {
    const inverted = spread(day) < 0;
    const before = index > 0 ? spread(days[index - 1]!) < 0 : null;
    const rates = `2-year ${day.y2.toFixed(2)}%, 10-year ${day.y10.toFixed(2)}%, spread ${spread(day).toFixed(2)} points`;
    if (before === false && inverted) {
      const newEpisode = lastInvertedDay === null || daysBetween(lastInvertedDay, day.date) > NEW_EPISODE_DAYS;
      const since = lastInvertedDay === null ? 'the first in the data' : `the last inverted day was ${lastInvertedDay}`;
      crossings.push({
        kind: 'start',
        date: day.date,
        fund,
        materiality: newEpisode ? 85 : 60,
        sentiment: 'BEARISH',
        summary: `Treasury yield curve: the 2s10s spread turned negative on ${day.date} (${rates}); ${since}. An inverted curve has preceded US recessions, a bearish read for the ${fund.name} (${fund.ticker}).`,
      });
      invertedSince = index;
    }
    if (before === true && !inverted) {
      const lasted = invertedSince >= 0 ? index - invertedSince : null;
      crossings.push({
        kind: 'end',
        date: day.date,
        fund,
        materiality: lasted !== null && lasted >= LASTING_DAYS ? 70 : 45,
        sentiment: 'NEUTRAL',
        summary: `Treasury yield curve: the 2s10s inversion ended on ${day.date} (${rates})${lasted === null ? '' : ` after ${lasted} trading day${lasted === 1 ? '' : 's'}`}, a neutral read for the ${fund.name} (${fund.ticker}).`,
      });
    }
    if (inverted) lastInvertedDay = day.date;
  });
  return crossings;
}

/**
 * The headline and summary of a day's briefing, written from that day's rows only: its signals (most material
 * first), the congressional trades disclosed that day (largest first) and the Treasury curve of that day or the
 * latest before it. Deterministic: the same rows always give the same text, and nothing is said that the rows
 * do not hold.
 */
export interface BriefingSignal {
  ticker: string;
  company_name: string;
  signal_type: string;
  ai_summary: string;
  materiality_score: number;
  sentiment: string;
}

export interface BriefingTrade {
  member_name: string;
  party: string | null;
  chamber: string;
  ticker: string | null;
  asset_description: string;
  trade_type: string;
  amount_range: string;
  trade_date: string;
}

export interface BriefingCurve {
  date: string;
  y2: number | null;
  y10: number | null;
}

export interface BriefingRows {
  day: string;
  signals: BriefingSignal[];
  trades: BriefingTrade[];
  curve: BriefingCurve | null;
}

/** A briefing headline's words for its top signal's type; the sandbox's generator uses them too, so both read alike. */
export const HEADLINE_EVENT: Readonly<Record<string, string>> = {
  sec_filing: 'filing in focus',
  insider_buy: 'insider buying',
  insider_sell: 'insider selling',
  earnings_preview: 'earnings ahead',
  macro: 'macro data moves markets',
};

const TRADE_VERB: Readonly<Record<string, string>> = {
  purchase: 'bought',
  sale: 'sold',
  sale_partial: 'sold part of',
  exchange: 'exchanged',
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `3 purchases, 1 sale`: each value counted, in order of first appearance, named by `label` (singular, plural). */
function tally(values: string[], label: (value: string) => [string, string] = (value) => [value, value]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${count} ${label(value)[count === 1 ? 0 : 1]}`).join(', ');
}

const TRADE_TYPE_LABEL: Readonly<Record<string, [string, string]>> = {
  purchase: ['purchase', 'purchases'],
  sale: ['sale', 'sales'],
  sale_partial: ['partial sale', 'partial sales'],
  exchange: ['exchange', 'exchanges'],
};
const tradeTypeLabel = (type: string): [string, string] => TRADE_TYPE_LABEL[type] ?? [type, type];

function describeTrade(trade: BriefingTrade): string {
  const who = `${trade.member_name} (${trade.party ? `${trade.party}, ` : ''}${trade.chamber})`;
  const asset = trade.ticker ?? trade.asset_description;
  return `${who} ${TRADE_VERB[trade.trade_type] ?? trade.trade_type} ${asset} (${trade.amount_range}) on ${trade.trade_date}`;
}

function curveSentence(day: string, curve: BriefingCurve): string | null {
  if (curve.y2 === null || curve.y10 === null) return null;
  const spread = Math.round((curve.y10 - curve.y2) * 100) / 100;
  const when = curve.date === day ? `Treasury curve on ${day}` : `Treasury curve (the latest stored, of ${curve.date})`;
  return `${when}: 2-year ${curve.y2.toFixed(2)}%, 10-year ${curve.y10.toFixed(2)}%, 2s10s spread ${spread.toFixed(2)} points${spread < 0 ? ', inverted' : ''}.`;
}

export function briefingHeadline(rows: BriefingRows): string {
  const [top] = rows.signals;
  if (top) return `${top.company_name} (${top.ticker}): ${HEADLINE_EVENT[top.signal_type] ?? 'signal'}`;
  const [largest] = rows.trades;
  if (largest) return `${plural(rows.trades.length, 'congressional trade')} disclosed; ${describeTrade(largest)}`;
  const curve = rows.curve && curveSentence(rows.day, rows.curve);
  return curve ? `A quiet day: ${curve.replace(/\.$/, '')}` : 'A quiet day';
}

export function briefingSummary(rows: BriefingRows): string {
  const sentences: string[] = [];
  const [top] = rows.signals;
  if (top) {
    const others = rows.signals.length - 1;
    sentences.push(
      `Top signal on ${rows.day}, materiality ${top.materiality_score}/100, ${top.sentiment.toLowerCase()}: ${top.ai_summary}`,
    );
    if (others > 0)
      sentences.push(
        `${plural(others, 'other signal')} followed; in all ${tally(rows.signals.map((signal) => signal.sentiment.toLowerCase()))} (${tally(rows.signals.map((signal) => signal.signal_type))}).`,
      );
  } else {
    sentences.push(`No signals on ${rows.day}.`);
  }
  const [largest] = rows.trades;
  sentences.push(
    largest
      ? `${plural(rows.trades.length, 'congressional trade')} disclosed (${tally(
          rows.trades.map((trade) => trade.trade_type),
          tradeTypeLabel,
        )}); the largest: ${describeTrade(largest)}.`
      : 'No congressional trades disclosed.',
  );
  const curve = rows.curve && curveSentence(rows.day, rows.curve);
  if (curve) sentences.push(curve);
  return sentences.join(' ');
}

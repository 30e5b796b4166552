import type { CongressionalTrade, Signal } from '../../prisma/generated/client/client.ts';
import { formatDate } from '../platform/dates.ts';

/** What a daily briefing page shows. */
export interface BriefingContent {
  date: Date;
  headline: string;
  summary: string;
  signals: Signal[];
  trades: CongressionalTrade[];
  yieldCurve: {
    date: Date;
    y2: number | null;
    y10: number | null;
    y30: number | null;
    spread: number | null;
    inverted: boolean;
  } | null;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every value interpolated into the page passes through here: the data comes from outside sources. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/** Only http(s) links become hrefs; anything else (javascript:, data:) is left out. */
function safeUrl(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

function link(text: string, url: string | null): string {
  const href = safeUrl(url);
  return href ? `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

const rate = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)}%`);

function signalRows(signals: Signal[]): string {
  if (signals.length === 0) return '<p>No signals on this day.</p>';
  const rows = signals.map(
    (signal) => `<tr><td>${escapeHtml(signal.ticker)}</td><td>${escapeHtml(signal.companyName)}</td>
      <td>${escapeHtml(signal.signalType)}</td><td>${escapeHtml(signal.sentiment)}</td><td>${escapeHtml(signal.materialityScore)}</td>
      <td>${link(signal.aiSummary, signal.sourceUrl)}</td></tr>`,
  );
  return `<table><thead><tr><th>Ticker</th><th>Company</th><th>Type</th><th>Sentiment</th><th>Materiality</th><th>Summary</th></tr></thead>
    <tbody>${rows.join('\n')}</tbody></table>`;
}

function tradeRows(trades: CongressionalTrade[]): string {
  if (trades.length === 0) return '<p>No congressional trades disclosed on this day.</p>';
  const rows = trades.map(
    (trade) => `<tr><td>${link(trade.memberName, trade.filingUrl)}</td><td>${escapeHtml(trade.party ?? '')}</td>
      <td>${escapeHtml(trade.chamber)}</td><td>${escapeHtml(trade.ticker ?? trade.assetDescription)}</td>
      <td>${escapeHtml(trade.tradeType)}</td><td>${escapeHtml(trade.amountRange)}</td><td>${escapeHtml(formatDate(trade.tradeDate))}</td></tr>`,
  );
  return `<table><thead><tr><th>Member</th><th>Party</th><th>Chamber</th><th>Asset</th><th>Type</th><th>Amount</th><th>Trade date</th></tr></thead>
    <tbody>${rows.join('\n')}</tbody></table>`;
}

function yieldCurveSection(curve: BriefingContent['yieldCurve']): string {
  if (!curve) return '<p>No yield curve data.</p>';
  return `<p>As of ${escapeHtml(formatDate(curve.date))}: 2-year ${escapeHtml(rate(curve.y2))}, 10-year ${escapeHtml(rate(curve.y10))},
    30-year ${escapeHtml(rate(curve.y30))}; 2-10 spread ${escapeHtml(curve.spread === null ? 'n/a' : `${curve.spread.toFixed(2)} points`)}${
      curve.inverted ? ' <strong>(inverted)</strong>' : ''
    }.</p>`;
}

/** The briefing of one day as a complete HTML document. */
export function renderBriefingHtml(content: BriefingContent): string {
  const day = formatDate(content.date);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Market briefing ${escapeHtml(day)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}</style>
</head>
<body>
<header><h1>${escapeHtml(content.headline)}</h1><p><time datetime="${escapeHtml(day)}">${escapeHtml(day)}</time></p></header>
<main>
<p>${escapeHtml(content.summary)}</p>
<section id="signals"><h2>Signals (${content.signals.length})</h2>
${signalRows(content.signals)}
</section>
<section id="congressional-trades"><h2>Congressional trades disclosed (${content.trades.length})</h2>
${tradeRows(content.trades)}
</section>
<section id="yield-curve"><h2>Treasury yield curve</h2>
${yieldCurveSection(content.yieldCurve)}
</section>
</main>
</body>
</html>
`;
}

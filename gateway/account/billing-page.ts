import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { RateLimitScheme } from '../limits/policy.ts';
import { ASSETS_PATH } from './page.ts';
import { FEATURES, planFacts } from './plan-facts.ts';
import type { PlanFacts } from './plan-facts.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const count = (value: number) => value.toLocaleString('en');

function rateLimit({ rate_limit: limit }: PlanFacts): string {
  if (limit.requests === null) return 'unlimited';
  if (limit.requests === 0) return 'no API access';
  return `${count(limit.requests)} requests a ${limit.per === 'minute' ? 'minute' : 'rolling 24 hours'}`;
}

function row(label: string, cells: string[]): string {
  return `<tr><th scope="row">${escape(label)}</th>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

/**
 * GET /billing, where every 403's `redirect` points: the plans side by side, built from the plan table
 * (plan-facts.ts) under this server's rate-limit scheme, and how to change plan. There is no payment
 * provider, so an upgrade is the operator's `admin set-plan`; the page says so rather than pretend.
 */
export function billingPage(scheme: RateLimitScheme, sandboxCredits: number): string {
  const plans = PLANS.map((plan) => planFacts(plan, scheme));
  const header = plans.map((plan) => `<th scope="col">${escape(plan.name)}</th>`).join('');
  const rows = [
    row(
      'Rate limit',
      plans.map((plan) => escape(rateLimit(plan))),
    ),
    row(
      'Live calls included per UTC day',
      plans.map((plan) => count(plan.daily_allowance)),
    ),
    row(
      'Each live call beyond that',
      plans.map((plan) => String(plan.overage_price_per_call)),
    ),
    row(
      'Signal history',
      plans.map((plan) => (plan.signal_history_days === null ? 'full' : `${count(plan.signal_history_days)} days`)),
    ),
    ...FEATURES.map(({ feature }) =>
      row(
        feature,
        plans.map((plan) => (plan.features.includes(feature) ? '<span class="yes">included</span>' : '—')),
      ),
    ),
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plans · Data graph</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/account.css">
</head>
<body>
<header class="top"><h1>Data graph · Plans</h1><nav><a href="/account">Account</a></nav></header>
<main>
<section class="card">
<table id="plans" class="plans">
<thead><tr><td></td>${header}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p>Every plan may also create sandbox keys (<code>sk_test_…</code>): ${count(sandboxCredits)} trial calls each, on the
sandbox database. The account routes (keys, usage) are part of every plan.</p>
</section>
<section class="card" id="upgrade">
<h2>How to upgrade</h2>
<p>This service takes no payments online: there is no payment provider behind it. To change plan, ask the operator of
this service (whoever gave you your account). They change it with one command, and the new plan applies from the next
request:</p>
<pre><code>npm run --silent admin -- set-plan --email you@example.com --plan ${escape(PLANS.at(-1)!)}</code></pre>
<p>Your current plan and usage are on your <a href="/account">account page</a>.</p>
</section>
</main>
</body>
</html>
`;
}

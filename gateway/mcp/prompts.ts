import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';

interface PromptDefinition extends Prompt {
  /** The user message, from the prompt's arguments (each at most 100 characters, as the tools take names). */
  messages: (args: Record<string, string>) => string;
}

/** A few questions our users ask most, written so that a model answers them with the tools alone. */
export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'member_trading_summary',
    title: 'A member of Congress’s trading',
    description: 'What one member of Congress traded, how much, how late they disclosed, and what it overlaps.',
    arguments: [
      { name: 'member', description: 'The member’s name, or part of it (Pelosi, Sen. Tuberville).', required: true },
      { name: 'days', description: 'How many days back (default 365).', required: false },
    ],
    messages: ({ member, days }) =>
      `Summarise the stock trading of ${member} over the last ${days ?? '365'} days. First find the member with ` +
      '`members`, then list their trades with `congressional_trades` (member, days). Say how many purchases and ' +
      'sales, the largest amounts, the tickers traded most, which disclosures were late, and which trades overlap ' +
      'their committees. Cite trade dates and amounts as the data gives them.',
  },
  {
    name: 'ticker_picture',
    title: 'A ticker’s insider and congress picture',
    description: 'Who inside the company and in Congress traded a stock lately, and what the company filed.',
    arguments: [{ name: 'ticker', description: 'The ticker symbol (NVDA, BRK.B).', required: true }],
    messages: ({ ticker }) =>
      `Give me the picture of ${ticker}: start with \`ticker\` (view overview), then \`insider_trades\` for its ` +
      'Form 4 transactions and `congressional_trades` for members’ trades over the last 90 days, and `signals` ' +
      'for what it filed. Say who bought and sold, when, and whether insiders and members moved the same way.',
  },
  {
    name: 'daily_briefing',
    title: 'Today’s briefing',
    description: 'The day’s market briefing, and what stands out in it.',
    arguments: [{ name: 'date', description: 'YYYY-MM-DD (the newest briefing by default).', required: false }],
    messages: ({ date }) =>
      (date
        ? `Read the briefing of ${date} with \`briefings\` (date).`
        : 'Find the newest briefing with `briefings`.') +
      ' Then check the convergence leads with `convergence` and the yield curve with `macro`, and tell me in a ' +
      'few lines what matters today.',
  },
];

/** The prompt's messages for its arguments; undefined for a prompt that does not exist. */
export function promptMessages(name: string, args: Record<string, string>): GetPromptResult | undefined {
  const prompt = PROMPTS.find((candidate) => candidate.name === name);
  if (!prompt) return undefined;
  const missing = (prompt.arguments ?? []).filter((argument) => argument.required && !args[argument.name]);
  if (missing.length) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The prompt needs ${missing.map((argument) => argument.name).join(', ')}.`,
    );
  }
  const bounded = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, String(value).slice(0, 100)]));
  return {
    description: prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text: prompt.messages(bounded) } }],
  };
}

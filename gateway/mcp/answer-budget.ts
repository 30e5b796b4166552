/**
 * How large a tool's answer may be. A widely used client refuses results over 25,000 tokens and peers' single
 * answers reach megabytes; 20,000 tokens leaves the model room for the question and other tools' answers.
 * Tokens are estimated at 4 characters of the JSON text each, the usual rate for English and JSON.
 */
export const ANSWER_BUDGET = { defaultTokens: 20_000, charsPerToken: 4 } as const;

export const estimatedTokens = (text: string) => Math.ceil(text.length / ANSWER_BUDGET.charsPerToken);

/** What a cut answer says of itself (its `truncated` field). */
export interface TruncationNote {
  reason: string;
  budget_tokens: number;
  /** The answer's paths that were shortened (`trades`, `leads.0.purchases`, `html`). */
  cut: string[];
  items_returned?: number;
  items_available?: number;
}

export interface FittedAnswer {
  answer: Record<string, unknown>;
  truncated?: TruncationNote;
  /** How many items of the answer's page list were kept, when that list was cut: where the rest starts. */
  keptItems?: number;
}

type Json = Record<string, unknown>;

const fits = (value: unknown, budgetTokens: number) => estimatedTokens(JSON.stringify(value)) <= budgetTokens;

/** The largest `n` in [0, length] for which `fitsWith(n)` holds, given that it holds for 0 (or nothing does). */
function largestFitting(length: number, fitsWith: (n: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fitsWith(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The answer's top-level array with the most text: the page's list (`trades`, `data`, `signals`). */
export function pageListOf(answer: Json): string | undefined {
  let best: { key: string; size: number } | undefined;
  for (const [key, value] of Object.entries(answer)) {
    if (!Array.isArray(value)) continue;
    const size = JSON.stringify(value).length;
    if (!best || size > best.size) best = { key, size };
  }
  return best?.key;
}

/** Every array and string inside `value` with its path, largest text first (the candidates for cutting). */
function cuttable(value: unknown, path: string[] = []): { path: string[]; size: number }[] {
  const found: { path: string[]; size: number }[] = [];
  if (Array.isArray(value)) {
    if (path.length) found.push({ path, size: JSON.stringify(value).length });
    value.forEach((item, index) => found.push(...cuttable(item, [...path, String(index)])));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push(...cuttable(item, [...path, key]));
  } else if (typeof value === 'string' && path.length && value.length > 200) {
    found.push({ path, size: value.length });
  }
  return found.sort((a, b) => b.size - a.size);
}

function at(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Json | undefined)?.[key], root);
}

function setAt(root: Json, path: string[], replacement: unknown) {
  const parent = at(root, path.slice(0, -1)) as Json;
  parent[path.at(-1)!] = replacement;
}

/**
 * The answer within `budgetTokens`, never cut silently. The page's list is cut first, keeping whole items, so
 * that the rest can follow by cursor; if that is not enough (one item too large, an answer without a list),
 * the largest arrays and strings inside are shortened in turn. Either way `truncated` says what was cut.
 */
export function fitToBudget(answer: Json, budgetTokens: number, pageList = pageListOf(answer)): FittedAnswer {
  if (fits(answer, budgetTokens)) return { answer };
  const note: TruncationNote = {
    reason: `The answer was over its budget of ${budgetTokens} tokens.`,
    budget_tokens: budgetTokens,
    cut: [],
  };
  const result: Json = structuredClone(answer);
  const withNote = () => ({ ...result, truncated: note, next_cursor: 'x'.repeat(200) });
  let keptItems: number | undefined;

  const list = pageList ? result[pageList] : undefined;
  if (pageList && Array.isArray(list)) {
    note.cut.push(pageList);
    note.items_available = list.length;
    const whole = [...list];
    keptItems = largestFitting(whole.length, (n) => {
      result[pageList] = whole.slice(0, n);
      return fits(withNote(), budgetTokens);
    });
    result[pageList] = whole.slice(0, Math.max(keptItems, 1));
    note.items_returned = Math.max(keptItems, 1);
    keptItems = Math.max(keptItems, 1);
  }

  // One item (or an answer without a list) still too large: shorten what is largest inside it.
  for (let round = 0; round < 50 && !fits(withNote(), budgetTokens); round++) {
    // The page list keeps its whole items: the cursor goes on after the last one.
    const [largest] = cuttable(result).filter((candidate) => candidate.path.join('.') !== pageList);
    if (!largest) break;
    const value = at(result, largest.path);
    const path = largest.path.join('.');
    if (!note.cut.includes(path)) note.cut.push(path);
    if (Array.isArray(value)) {
      const whole = [...value];
      const kept = largestFitting(whole.length, (n) => {
        setAt(result, largest.path, whole.slice(0, n));
        return fits(withNote(), budgetTokens);
      });
      // The whole did not fit, so `kept` is shorter: every round makes progress.
      setAt(result, largest.path, whole.slice(0, kept));
    } else {
      const text = value as string;
      const kept = largestFitting(text.length, (n) => {
        setAt(result, largest.path, `${text.slice(0, n)}…`);
        return fits(withNote(), budgetTokens);
      });
      setAt(result, largest.path, `${text.slice(0, kept)}…`);
    }
  }
  return { answer: result, truncated: note, ...(keptItems !== undefined ? { keptItems } : {}) };
}

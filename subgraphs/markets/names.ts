/**
 * Member names as people type them and as disclosures print them: `Pelosi`, `nancy pelosi`, `Pelosi, Nancy`,
 * `Hon. Nancy Pelosi`, `Nydia Velázquez`. Pure functions, shared by the markets subgraph (the `member` filter
 * of trades and member search) and the importers (normalising disclosed names).
 */

// Titles and suffixes that never distinguish one member from another.
export const HONORIFICS: ReadonlySet<string> = new Set([
  'hon',
  'honorable',
  'the',
  'rep',
  'representative',
  'sen',
  'senator',
  'congressman',
  'congresswoman',
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
  'md',
  'phd',
  'esq',
]);

/**
 * Accents folded, lower case, apostrophes dropped, every other run of punctuation or space one space.
 * The SQL function `markets_fold_name` (migration 20261121111900_member_name_search) does the same, so a name
 * folded here matches the index built there.
 */
export function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * The words of a name in `<first> <last>` order, without honorifics: `Pelosi, Nancy` → `nancy pelosi`,
 * `Rep. Nancy Pelosi` → `nancy pelosi`. An empty string when nothing is left.
 */
export function normalizeName(name: string): string {
  const comma = name.indexOf(',');
  // "Last, First" (a comma followed by more than a suffix) is turned around.
  const ordered =
    comma >= 0 && !isOnlyHonorifics(name.slice(comma + 1)) ? `${name.slice(comma + 1)} ${name.slice(0, comma)}` : name;
  return nameWords(ordered).join(' ');
}

/** The distinct words of a normalised name: a name matches a query when it contains every one of them. */
export function nameTokens(query: string): string[] {
  return [...new Set(normalizeName(query).split(' ').filter(Boolean))];
}

function nameWords(text: string): string[] {
  return foldName(text)
    .split(' ')
    .filter((word) => word && !HONORIFICS.has(word));
}

function isOnlyHonorifics(text: string): boolean {
  return nameWords(text).length === 0;
}

const SENATE_TITLES = new Set(['sen', 'senator']);
const HOUSE_TITLES = new Set(['rep', 'representative', 'congressman', 'congresswoman']);

/**
 * The chamber a title in the query names: `Sen. Warren`, `Senator Warren` → senate; `Rep.`, `Representative`,
 * `Congressman`, `Congresswoman` → house. None when there is no title, or titles of both chambers.
 */
export function chamberOfTitle(query: string): 'senate' | 'house' | undefined {
  const words = foldName(query).split(' ');
  const senate = words.some((word) => SENATE_TITLES.has(word));
  const house = words.some((word) => HOUSE_TITLES.has(word));
  if (senate === house) return undefined;
  return senate ? 'senate' : 'house';
}

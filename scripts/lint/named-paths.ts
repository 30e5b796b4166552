import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/**
 * Repository paths named in prose (README.md, the Markdown under docs/ and the comments of our .ts files) that
 * name nothing. Files move; a comment or a doc that points at the old place misleads the next reader, so a unit
 * test (test/unit/platform/named-paths.test.ts) lists every such path.
 */

/** The folders whose paths are written from the repository's root (`gateway/execution/execution.ts`). */
const ROOTED = ['gateway', 'subgraphs', 'scripts', 'test', 'docs', 'prisma', 'schema', 'client', '.ci'];

/** The folders a relative name (`rest/envelopes.ts`, `plans.ts`) may be written from, besides the prose's own. */
const LAYER_FOLDERS = ['', 'gateway', 'subgraphs', 'subgraphs/platform', 'scripts', 'test', 'prisma', 'docs'];

/** The .ts trees whose comments are read; generated code and fixtures are left out (nobody writes their prose). */
const SOURCE_TREES = ['gateway', 'subgraphs', 'scripts', 'prisma', 'test'];
const UNREAD = ['prisma/generated/', 'test/fixtures/'];

/** What the tree leaves out: installed packages, git's own files and the ignored local folders (.gitignore). */
const OUTSIDE_TREE = new Set(['node_modules', '.git', 'data', 'reports', 'scratch', '.bench']);

/**
 * A rooted path (`gateway/…`; a folder ends in `/`; `*` and a placeholder such as `<kind>` stand for any name
 * and must match something), or a relative name that ends in one of our source or document extensions (data
 * files such as an upstream's `company_tickers.json` are not ours). It must not continue a URL, a package name
 * (`@apollo/gateway/…`) or a longer word, hence the look-behind.
 */
const CANDIDATE = new RegExp(
  String.raw`(?<![\w@.:/~$<>*{-])(?:\.{1,2}/)*(?:` +
    String.raw`(?:${ROOTED.map((folder) => folder.replace('.', '\\.')).join('|')})/(?:[\w.*/-]|<[\w-]+>)*` +
    String.raw`|[\w-][\w.-]*(?:/[\w.-]+)*\.(?:ts|md|graphql|prisma|sh))(?![\w/<{$-])`,
  'g',
);

/**
 * Prose may mark a path as gone right after it, `<old> (since removed: …)` or `<old>, now \`<new>\``: historical
 * records (docs/performance.md's numbered log) name files as they were. What the mark goes on to name is checked.
 * A path marked once as "(not in this repository)" (an operator's own script) or as a worked example's new file
 * (a table row `| path | new: …`) is exempt in all its file.
 */
const MARKED_AFTER = /^`?\s*[(,]\s*(?:since removed|now\b)/;
const ELSEWHERE_AFTER = /^`?(?:[^`(\n]{0,40}\(not in this repository\b|\s*\|\s*new:)/;

/** A line that opens with another GitHub repository (`| owner/name …`, docs/style.md's models) names its files. */
const OTHER_REPOSITORY_LINE = new RegExp(String.raw`^\|\s*(?!(?:${ROOTED.join('|')})/)[\w-]+/[\w.-]+\s`);

export interface NamedPath {
  /** The file that names it, from the repository's root. */
  file: string;
  line: number;
  path: string;
}

/** A piece of prose: a document's section or one comment, with the line it starts on. */
export interface Prose {
  text: string;
  line: number;
}

/** The comments of a TypeScript source, each with the line it starts on. */
export function commentsOf(fileName: string, text: string): Prose[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const seen = new Set<number>();
  const comments: Prose[] = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments.push({
        text: text.slice(range.pos, range.end),
        line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
      });
    }
  };
  // Every comment is trivia before some token (the end-of-file token included) or after one on its line.
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return comments.sort((a, b) => a.line - b.line);
}

/** A Markdown document cut at its headings: a relative name is read against the folders its section names. */
export function sectionsOf(text: string): Prose[] {
  const sections: Prose[] = [];
  let start = 0;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (index > start && /^#{1,6} /.test(line)) {
      sections.push({ text: lines.slice(start, index).join('\n'), line: start + 1 });
      start = index;
    }
  });
  sections.push({ text: lines.slice(start).join('\n'), line: start + 1 });
  return sections;
}

/** The path-like words of a piece of prose, each with its offset, less those the prose marks as gone. */
export function pathsIn(text: string): { path: string; index: number }[] {
  const found: { path: string; index: number }[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const path = match[0].replace(/\.+$/, '');
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    if (OTHER_REPOSITORY_LINE.test(text.slice(lineStart, match.index + 1))) continue;
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 80);
    if (MARKED_AFTER.test(after)) continue;
    found.push({ path, index: match.index });
  }
  return found;
}

/** Paths the prose says live outside the repository: `scripts/refresh.sh` … "(not in this repository)". */
function elsewhereIn(text: string): Set<string> {
  const elsewhere = new Set<string>();
  for (const match of text.matchAll(CANDIDATE)) {
    if (ELSEWHERE_AFTER.test(text.slice(match.index + match[0].length))) elsewhere.add(match[0]);
  }
  return elsewhere;
}

const isRooted = (path: string) => ROOTED.some((folder) => path.startsWith(`${folder}/`));
const folderOf = (path: string) => (path.endsWith('/') ? path.replace(/\/+$/, '') : posix.dirname(path));

/** The folders above a path, nearest first (`gateway/rest/envelopes.ts` → `gateway/rest`, `gateway`). */
function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  for (let folder = posix.dirname(path); folder !== '.'; folder = posix.dirname(folder)) folders.push(folder);
  return folders;
}

/** Every file and folder of the tree at `root` (from the root, without a trailing slash). */
export function treeOf(root: string, folder = ''): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (OUTSIDE_TREE.has(path) || entry.name === 'node_modules') return [];
    return entry.isDirectory() ? [path, ...treeOf(root, path)] : [path];
  });
}

/** Does a path (a glob with `*` / `**` matching at least one entry) exist in the tree? */
function existsIn(tree: Set<string>, path: string): boolean {
  const plain = posix
    .normalize(path)
    .replace(/\/+$/, '')
    .replace(/<[\w-]+>/g, '*');
  if (!plain.includes('*')) return tree.has(plain);
  // `**/` is any run of folders, `*` any part of one name.
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const source = plain
    .split('**/')
    .map((part) => part.split('*').map(escape).join('[^/]*'))
    .join('(?:.*/)?');
  const pattern = new RegExp(`^${source}$`);
  return [...tree].some((entry) => pattern.test(entry));
}

/** The named paths of one file's prose that resolve to nothing in `tree`. */
export function stalePathsIn(tree: Set<string>, file: string, prose: Prose[]): NamedPath[] {
  const stale: NamedPath[] = [];
  const elsewhere = elsewhereIn(prose.map((piece) => piece.text).join('\n'));
  for (const piece of prose) {
    const named = pathsIn(piece.text);
    for (const { path, index } of named) {
      if (elsewhere.has(path)) continue;
      // A relative name is read from the folders named before it in the same piece, the file's and the layers'.
      const context = named.filter((earlier) => earlier.index < index && isRooted(earlier.path));
      const folders = isRooted(path)
        ? ['']
        : [
            ...context.flatMap((earlier) => [folderOf(earlier.path), ...foldersAbove(folderOf(earlier.path))]),
            ...foldersAbove(file),
            ...LAYER_FOLDERS,
          ];
      if (folders.some((folder) => existsIn(tree, posix.join(folder || '.', path)))) continue;
      const line = piece.line + (piece.text.slice(0, index).match(/\n/g)?.length ?? 0);
      stale.push({ file, line, path });
    }
  }
  return stale;
}

/** Every path named in README.md, docs/ and our .ts comments under `root` that does not exist there. */
export function findStalePaths(root: string): NamedPath[] {
  const entries = treeOf(root);
  const tree = new Set(entries);
  const documents = entries.filter(
    (path) => path === 'README.md' || (path.startsWith('docs/') && path.endsWith('.md')),
  );
  const sources = entries.filter(
    (path) =>
      path.endsWith('.ts') &&
      SOURCE_TREES.some((top) => path.startsWith(`${top}/`)) &&
      !UNREAD.some((folder) => path.startsWith(folder)),
  );
  return [
    ...documents.flatMap((file) => stalePathsIn(tree, file, sectionsOf(readFileSync(join(root, file), 'utf8')))),
    ...sources.flatMap((file) => stalePathsIn(tree, file, commentsOf(file, readFileSync(join(root, file), 'utf8')))),
  ];
}

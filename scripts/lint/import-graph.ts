import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The relative modules a source file imports: static imports and `export … from` (type-only ones too), and
 * `import('…')` / `require('…')` with a literal string. Package and `node:` specifiers are left out: the
 * layers are about this repository's own folders.
 */
export function importedSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    } else if (ts.isCallExpression(node) && isImportOrRequire(node.expression)) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) found.push(first.text);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) found.push(argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'));
}

const isImportOrRequire = (expression: ts.Expression) =>
  expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(expression) && expression.text === 'require');

/** A specifier resolved as Node resolves ours: the file named, else with `.ts`, else the folder's index.ts. */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** One layer rule: no file under `from` may reach a file under any of `forbidden`, by any chain of imports. */
export interface LayerRule {
  /** Folders or files, relative to the root, with `/` (a folder ends in `/`). */
  from: string[];
  forbidden: string[];
  message: string;
}

/** A chain of imports from a file of a rule's `from` to a forbidden file, each step relative to the root. */
export interface LayerViolation {
  chain: string[];
  message: string;
}

/**
 * Every chain by which a rule's files reach a forbidden one. A chain is reported once, at the edge where it
 * leaves the rule's files (a file inside them that imports it is reported at its own exit), with the
 * shortest path from there to a forbidden file.
 */
export function findLayerViolations(root: string, rules: readonly LayerRule[]): LayerViolation[] {
  const graph = new ImportGraph(root);
  const violations: LayerViolation[] = [];
  for (const rule of rules) {
    const inside = matcher(rule.from);
    const forbidden = matcher(rule.forbidden);
    for (const file of rule.from.flatMap((entry) => sourceFiles(join(root, entry)))) {
      for (const next of graph.imports(file)) {
        const nextPath = graph.relative(next);
        if (inside(nextPath)) continue;
        const path = shortestPath(graph, next, (candidate) => forbidden(candidate), inside);
        if (path) violations.push({ chain: [graph.relative(file), ...path], message: rule.message });
      }
    }
  }
  return violations;
}

/** Breadth first from `start`, not entering `stopAt` (those files are checked on their own). */
function shortestPath(
  graph: ImportGraph,
  start: string,
  isTarget: (path: string) => boolean,
  stopAt: (path: string) => boolean,
): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  for (let index = 0; index < queue.length; index++) {
    const file = queue[index]!;
    if (isTarget(graph.relative(file))) {
      const path: string[] = [];
      for (let step: string | undefined = file; step; step = cameFrom.get(step)) path.unshift(graph.relative(step));
      return path;
    }
    for (const next of graph.imports(file)) {
      if (cameFrom.has(next) || stopAt(graph.relative(next))) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

const matcher = (entries: readonly string[]) => (path: string) =>
  entries.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry));

/** Every .ts file under a folder (or the file itself). */
function sourceFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return path.endsWith('.ts') ? [path] : [];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The repository's files and what each imports, read when first asked. */
class ImportGraph {
  private readonly edges = new Map<string, string[]>();
  constructor(private readonly root: string) {}

  imports(file: string): string[] {
    let found = this.edges.get(file);
    if (!found) {
      const targets = importedSpecifiers(file, readFileSync(file, 'utf8')).map((specifier) =>
        resolveSpecifier(file, specifier),
      );
      found = [...new Set(targets.filter((target): target is string => target !== undefined))];
      this.edges.set(file, found);
    }
    return found;
  }

  relative(file: string): string {
    return relative(this.root, file).split(sep).join('/');
  }
}

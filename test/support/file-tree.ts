import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * `tree(files)` writes a repository of the given files (path → text) in a temporary folder and returns its root;
 * every folder made is removed after each test of the file that called this.
 */
export function fileTrees(prefix: string): (files: Record<string, string>) => string {
  let roots: string[] = [];
  afterEach(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    roots = [];
  });
  return (files) => {
    const root = mkdtempSync(join(tmpdir(), prefix));
    roots.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };
}

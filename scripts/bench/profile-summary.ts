import { readFileSync } from 'node:fs';

/**
 * npx tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top]
 * Self time by function and by package, and inclusive time (the function and all it calls) by function, from a
 * V8 CPU profile (node --cpu-prof): where a layer's time goes.
 */
interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArgument] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
const top = Number(topArgument ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map<number, number>();
profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);

function packageOf(url: string): string {
  if (!url) return '(native/idle/gc)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.startsWith('node:')) return 'node core';
  return url
    .replace(/^file:\/\/.*?\/work\/(?:main|wt\/[^/]+)\//, '')
    .split('/')
    .slice(0, 2)
    .join('/');
}

const functions = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, time] of selfTime) {
  const frame = byId.get(id)!.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/work\/(?:main|wt\/[^/]+)\//, '')}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
  const pkg = packageOf(frame.url);
  packages.set(pkg, (packages.get(pkg) ?? 0) + time);
}
const print = (title: string, entries: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${name}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const frameName = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/work\/(?:main|wt\/[^/]+)\//, '')}`;
const inclusive = new Map<string, number>();
for (const [id, time] of selfTime) {
  const names = new Set<string>();
  for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node))
    names.add(frameName(byId.get(node)!));
  for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + time);
}
print('self time by package', packages);
print('self time by function', functions);
print('inclusive time by function', inclusive);

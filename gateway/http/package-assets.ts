import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

export const JAVASCRIPT = 'text/javascript; charset=utf-8';
export const CSS = 'text/css; charset=utf-8';
export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** A file of the installed package, or text of our own (a page's start-up module) served beside it. */
export type Asset = { type: string } & ({ file: string } | { text: string });

/** Where an installed package is and which version it is (the version goes into the asset path). */
export function installedPackage(name: string): { dir: string; version: string } {
  const packageJson = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  return { dir: dirname(packageJson), version };
}

/**
 * The browser pages' files (GraphiQL, the API reference) are served from installed packages: there is no CDN to
 * load them from. Only the named files are served; the path carries the package version, so they are cached for
 * good and an upgrade still reaches browsers. They are megabytes that never change while the process runs, so
 * each is read and gzipped once, on first use, and both forms kept. Public routes (no key needed).
 */
export function registerPackageAssets(
  app: FastifyInstance,
  { path, dir, assets }: { path: string; dir: string; assets: Record<string, Asset> },
) {
  const loaded = new Map<string, Promise<{ raw: Buffer; gzipped: Buffer }>>();
  const load = (name: string, asset: Asset) => {
    let entry = loaded.get(name);
    if (!entry) {
      const raw = 'file' in asset ? readFile(join(dir, asset.file)) : Promise.resolve(Buffer.from(asset.text));
      entry = raw.then(async (bytes) => ({ raw: bytes, gzipped: await promisify(gzip)(bytes) }));
      entry.catch(() => loaded.delete(name));
      loaded.set(name, entry);
    }
    return entry;
  };

  app.get<{ Params: { name: string } }>(`${path}/:name`, { config: { public: true } }, async (request, reply) => {
    const asset = Object.hasOwn(assets, request.params.name) ? assets[request.params.name] : undefined;
    if (!asset) return reply.callNotFound();
    const { raw, gzipped } = await load(request.params.name, asset);
    const acceptsGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    reply
      .type(asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding');
    if (acceptsGzip) reply.header('content-encoding', 'gzip');
    return reply.send(acceptsGzip ? gzipped : raw);
  });
}

import type { RequestContext } from '../../platform/context.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { orderBy, resolvePaging } from '../../platform/paging.ts';
import { pageSource } from '../../platform/page-object.ts';
import type { PageSource } from '../../platform/page-object.ts';
import type { SortOrder } from '../../platform/paging.ts';
import type { Total } from '../../platform/totals.ts';

/** Validates paging and builds the page; `count` runs only when a client asks for totals. */
export function recordPage<Where extends object>(
  where: Where,
  sort: SortOrder,
  args: { page?: number | null; perPage?: number | null },
  count: (where: Where) => Promise<Total>,
): PageSource {
  return pageSource(where, orderBy(sort), resolvePaging({ page: args.page, size: args.perPage }), () => count(where));
}

const MAX_RELATED = 100;

/** A nested list's size: the same bounds as a page (1-100), a 400 outside them. */
export function relatedLimit(limit: number | null | undefined, fallback = 25): number {
  const value = limit ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RELATED) {
    throw new BadRequestError({ limit: `must be an integer from 1 to ${MAX_RELATED}` });
  }
  return value;
}

/**
 * Reports read whole result sets through the connections in pages larger than a client may ask for. Such a
 * context is marked in its per-request map, which a client's context never carries.
 */
const BULK_READ = 'verticals:bulk-read';
const CLIENT_CONNECTION_MAX = 100;
const BULK_CONNECTION_MAX = 5000;

export function markBulkRead(context: RequestContext): RequestContext {
  context.loaders.set(BULK_READ, true);
  return context;
}

export function connectionMaxSize(_args: unknown, context: RequestContext): number {
  return context.loaders.has(BULK_READ) ? BULK_CONNECTION_MAX : CLIENT_CONNECTION_MAX;
}

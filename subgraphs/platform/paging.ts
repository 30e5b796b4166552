import type { ArgBuilder, SchemaTypes } from '@pothos/core';
import { z } from 'zod';
import { ARGUMENT_RULE } from './arguments.ts';
import type { Builder } from './builder.ts';
import { BadRequestError } from './errors.ts';
import type { Total } from './totals.ts';

export interface PagingLimits {
  defaultPerPage: number;
  maxPerPage: number;
  /** The argument that carries the page size (`perPage` for records, `limit` for market lists). */
  sizeArgument?: string;
}

export interface OffsetPaging {
  page: number;
  perPage: number;
  skip: number;
}

export const RECORD_PAGING: PagingLimits = { defaultPerPage: 25, maxPerPage: 100 };

/** The `page` argument, carrying its range for the OpenAPI document (resolvePaging enforces it). */
export function pageArgument<Types extends SchemaTypes>(arg: ArgBuilder<Types>) {
  return arg.int({
    required: false,
    description: 'The page to return, from 1 (default 1).',
    extensions: { [ARGUMENT_RULE]: z.int32().min(1).default(1) },
  });
}

/** The page-size argument (`limit` or `perPage`), carrying its range and default for the OpenAPI document. */
export function pageSizeArgument<Types extends SchemaTypes>(
  arg: ArgBuilder<Types>,
  limits: PagingLimits = RECORD_PAGING,
) {
  const rule = z.int32().min(1).max(limits.maxPerPage).default(limits.defaultPerPage);
  return arg.int({
    required: false,
    description: `Items per page, 1-${limits.maxPerPage} (default ${limits.defaultPerPage}).`,
    extensions: { [ARGUMENT_RULE]: rule },
  });
}

/** Validates offset paging: out-of-range values are a 400, never a silent default (docs/design.md). */
export function resolvePaging(
  args: { page?: number | null; size?: number | null },
  limits: PagingLimits = RECORD_PAGING,
): OffsetPaging {
  const sizeName = limits.sizeArgument ?? 'perPage';
  const page = args.page ?? 1;
  const perPage = args.size ?? limits.defaultPerPage;
  const details: Record<string, string> = {};
  if (!Number.isInteger(page) || page < 1) details.page = 'must be an integer of at least 1';
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > limits.maxPerPage) {
    details[sizeName] = `must be an integer from 1 to ${limits.maxPerPage}`;
  }
  if (Object.keys(details).length > 0) throw new BadRequestError(details);
  // Deep offsets past what any client pages through would only burn the database.
  if ((page - 1) * perPage > 10_000_000) throw new BadRequestError({ page: 'is beyond the last page' });
  return { page, perPage, skip: (page - 1) * perPage };
}

/** What a page's `pageInfo` resolves from; `count` runs only when a client asks for totals. */
export interface PageInfoSource {
  page: number;
  perPage: number;
  count: () => Promise<Total>;
}

/** `count` is `countTotal` (totals.ts) for a Prisma list, or `exactTotal` of a number counted otherwise. */
export function pageInfoSource(paging: OffsetPaging, count: () => Promise<Total>): PageInfoSource {
  let total: Promise<Total> | undefined;
  return { page: paging.page, perPage: paging.perPage, count: () => (total ??= count()) };
}

export function definePageInfo(builder: Builder) {
  return builder.objectRef<PageInfoSource>('OffsetPageInfo').implement({
    description: 'Offset paging: the page asked for and the totals of the whole result.',
    shareable: true,
    fields: (t) => ({
      page: t.exposeInt('page', { description: 'The page returned, from 1.' }),
      perPage: t.exposeInt('perPage', { description: 'Items per page: the size asked for, or the default.' }),
      total: t.int({
        description:
          'Exact up to 10,000 matches (EXACT_TOTAL_LIMIT); above that an estimate and `totalIsEstimate` is true.',
        resolve: async (source) => (await source.count()).total,
      }),
      totalPages: t.int({
        description: 'Pages in the whole list at this page size: `total` divided by the page size, rounded up.',
        resolve: async (source) => Math.ceil((await source.count()).total / source.perPage),
      }),
      totalIsEstimate: t.boolean({
        description:
          'True when `total` and `totalPages` are not exact: past 10,000 matches the planner’s estimate (search: a lower bound).',
        resolve: async (source) => (await source.count()).isEstimate,
      }),
    }),
  });
}

export interface SortOrder<Field extends string = string> {
  field: Field;
  direction: 'asc' | 'desc';
}

/**
 * A sort enum with `<FIELD>_ASC` and `<FIELD>_DESC` values for each sortable field; `fields` maps the
 * documented snake_case name (`ai_score`) to the model field (`aiScore`). REST's `sort=-ai_score` is
 * `AI_SCORE_DESC` here. `toOrder` turns a value (or nothing, for the default) into a SortOrder.
 */
export function defineSort<Field extends string>(
  builder: Builder,
  name: string,
  fields: Record<string, Field>,
  defaultOrder: SortOrder<Field>,
) {
  const orders = new Map<string, SortOrder<Field>>();
  const values: Record<string, { description: string }> = {};
  let defaultValue = '';
  for (const [documented, field] of Object.entries(fields)) {
    for (const direction of ['asc', 'desc'] as const) {
      const value = `${documented.toUpperCase()}_${direction.toUpperCase()}`;
      orders.set(value, { field, direction });
      const rest = direction === 'asc' ? documented : `-${documented}`;
      values[value] = { description: `By \`${documented}\`, ${direction}ending (REST \`sort=${rest}\`).` };
      if (field === defaultOrder.field && direction === defaultOrder.direction) defaultValue = value;
    }
  }
  const ref = builder.enumType(name, {
    description: `The orders of the list; the default is \`${defaultValue}\`, and ties are broken by id in the same direction.`,
    values,
  });
  const toOrder = (value: string | null | undefined): SortOrder<Field> => (value && orders.get(value)) || defaultOrder;
  return { ref, toOrder };
}

/** A Prisma orderBy with the primary key as tie-breaker, so pages never overlap or skip. */
export function orderBy<Field extends string>(sort: SortOrder<Field>, tieBreaker = 'id') {
  const order: Record<string, 'asc' | 'desc'>[] = [{ [sort.field]: sort.direction }];
  if (sort.field !== tieBreaker) order.push({ [tieBreaker]: sort.direction });
  return order;
}

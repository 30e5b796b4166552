/** The response shapes the documents define, shared by the routes that return them. */

import type { RecordType } from '../../subgraphs/index.ts';

export interface OffsetPage<Node> {
  nodes: Node[];
  pageInfo: { page: number; perPage: number; total: number; totalPages: number; totalIsEstimate: boolean };
}

/**
 * `/api/v1` lists across verticals (leads, search hits, reports): `{success, data, pagination: {page, per_page,
 * total, total_pages, total_is_estimate}}` (the documented pagination plus the flag of an estimated total,
 * docs/api.md "Totals").
 */
export function pagedList(page: OffsetPage<unknown>) {
  return { success: true, data: page.nodes, pagination: pagination(page) };
}

/** A record type's list: `pagedList`'s form with the record type's vertical after `success`, as documented. */
export function recordList(vertical: RecordType['vertical'], page: OffsetPage<unknown>) {
  return { success: true, vertical, data: page.nodes, pagination: pagination(page) };
}

function pagination(page: OffsetPage<unknown>) {
  return {
    page: page.pageInfo.page,
    per_page: page.pageInfo.perPage,
    total: page.pageInfo.total,
    total_pages: page.pageInfo.totalPages,
    total_is_estimate: page.pageInfo.totalIsEstimate,
  };
}

/** `{total, page, pages, total_is_estimate}`: the totals of the `/api` market lists. */
export function offsetTotals(page: OffsetPage<unknown>) {
  return {
    total: page.pageInfo.total,
    page: page.pageInfo.page,
    pages: page.pageInfo.totalPages,
    total_is_estimate: page.pageInfo.totalIsEstimate,
  };
}

/** The selection every offset page returns. */
export const PAGE_INFO = 'pageInfo { page perPage total totalPages totalIsEstimate }';

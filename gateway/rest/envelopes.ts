/** The response shapes the documents define, shared by the routes that return them. */

export interface OffsetPage<Node> {
  nodes: Node[];
  pageInfo: { page: number; perPage: number; total: number; totalPages: number; totalIsEstimate: boolean };
}

/**
 * `/api/v1` lists: `{success, vertical, data, pagination: {page, per_page, total, total_pages, total_is_estimate}}`
 * (the documented pagination plus the flag of an estimated total, docs/api.md "Totals").
 */
export function recordList(vertical: 'b2b' | 'realestate' | 'legal') {
  return (page: OffsetPage<unknown>) => ({
    success: true,
    vertical,
    data: page.nodes,
    pagination: {
      page: page.pageInfo.page,
      per_page: page.pageInfo.perPage,
      total: page.pageInfo.total,
      total_pages: page.pageInfo.totalPages,
      total_is_estimate: page.pageInfo.totalIsEstimate,
    },
  });
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

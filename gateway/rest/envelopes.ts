/** The response shapes the documents define, shared by the routes that return them. */

export interface OffsetPage<Node> {
  nodes: Node[];
  pageInfo: { page: number; perPage: number; total: number; totalPages: number };
}

/** `/api/v1` lists: `{success, vertical, data, pagination: {page, per_page, total, total_pages}}`. */
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
    },
  });
}

/** The selection every offset page returns. */
export const PAGE_INFO = 'pageInfo { page perPage total totalPages }';

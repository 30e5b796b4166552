// The deferred join of deep offset pages is shared with the markets lists.
export { DEFERRED_JOIN_FROM, findPage } from '../../shared/deep-page.ts';
export type { PageArgs, PageReaders } from '../../shared/deep-page.ts';

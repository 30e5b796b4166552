import type { BodyReader } from './body-variables.ts';

/**
 * A REST shim route: an HTTP method and path, the GraphQL operation it runs, how the request feeds the
 * operation's variables, and how the operation's data becomes the documented response body.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Routes the documents list as public (no key) say so; everything else requires a credential. */
  public?: boolean;
  /** Fields above the caller's plan are `null` instead of a 403 (rest/plan-variants.ts; the public ticker search). */
  omitFieldsAbovePlan?: boolean;
  operation: string;
  /** Query-string parameter → variable name. A `-field` sort value becomes the `FIELD_DESC` enum value. */
  query?: Record<string, string>;
  /** What a query parameter does, for those no GraphQL argument describes (the OpenAPI document says it). */
  descriptions?: Record<string, string>;
  /** Path parameter → variable name. */
  params?: Record<string, string>;
  /** The JSON body → variables (for POST and PATCH), renaming documented snake_case fields. */
  body?: BodyReader;
  /** The success status (200 unless said). */
  status?: number;
  /** Answers 201 instead of `status` when this holds of the data (a POST that created rather than found). */
  createdWhen?: (data: Record<string, unknown>) => boolean;
  respond: (data: Record<string, unknown>) => unknown;
  /** Headers every answer of the route carries (the event feed's `X-Poll-Interval`). */
  headers?: Record<string, string>;
  /**
   * Answers carry an ETag of their body, and a request whose `If-None-Match` names it is a 304 without one: a
   * poller learns that nothing changed without reading the page again (the event feed).
   */
  etag?: boolean;
  /** Content type of the response, when it is not JSON (the HTML briefing). */
  contentType?: string;
}

/** `sort=-ai_score` → `AI_SCORE_DESC`, `sort=ai_score` → `AI_SCORE_ASC`. */
export function sortValue(raw: string): string {
  return raw.startsWith('-') ? `${raw.slice(1).toUpperCase()}_DESC` : `${raw.toUpperCase()}_ASC`;
}

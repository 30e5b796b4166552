import type { Viewer } from '../../subgraphs/platform/context.ts';
import { ServiceUnavailableError } from '../../subgraphs/platform/errors.ts';
import { currentRequestId } from '../../subgraphs/platform/request-scope.ts';
import { REQUEST_ID_HEADER } from '../../subgraphs/platform/http/request-id.ts';
import { SUBGRAPH_SECRET_HEADER, VIEWER_HEADER } from '../../subgraphs/platform/http/subgraph-protocol.ts';

/**
 * What every request to a subgraph service carries: the shared secret, the viewer the gateway verified (the
 * subgraph trusts it only next to the secret) and the client request's id. Never a client's own headers.
 */
export function subgraphRequestHeaders(secret: string, viewer: Viewer | null): Record<string, string> {
  const headers: Record<string, string> = { [SUBGRAPH_SECRET_HEADER]: secret };
  if (viewer) headers[VIEWER_HEADER] = JSON.stringify(viewer);
  const requestId = currentRequestId();
  if (requestId) headers[REQUEST_ID_HEADER] = requestId;
  return headers;
}

/** A subgraph service that did not answer usably (down, too slow, refused the gateway): 503. */
export function subgraphUnreachable(name: string): ServiceUnavailableError {
  return new ServiceUnavailableError(`The ${name} service is not reachable. Try again shortly.`);
}

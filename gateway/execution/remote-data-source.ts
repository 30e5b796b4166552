import { RemoteGraphQLDataSource } from '@apollo/gateway';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import type { InFlightFetches, SubgraphResponse } from './in-flight-fetches.ts';
import { subgraphRequestHeaders, subgraphUnreachable } from './subgraph-requests.ts';

/**
 * The identity travels to remote subgraphs in a header they trust only next to the gateway's secret. Identical
 * queries in flight at the same time share one HTTP request (see in-flight-fetches.ts). A subgraph that does
 * not answer within `timeoutMs`, or cannot be reached, is a 503 `service_unavailable`.
 */
export class AuthenticatedDataSource extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    url: string,
    private readonly secret: string,
    private readonly name: string,
    private readonly inFlight: InFlightFetches,
    timeoutMs: number = env.SUBGRAPH_TIMEOUT_MS,
  ) {
    // Node's fetch (undici, keep-alive) rather than the default make-fetch-happen, whose cache and retry layers
    // showed in the bench's profiles of the gateway with subgraphs over HTTP.
    super({ url, fetcher: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }) });
  }

  override process(
    options: Parameters<RemoteGraphQLDataSource<RequestContext>['process']>[0],
  ): Promise<SubgraphResponse> {
    return this.inFlight.fetch(this.name, options, () =>
      super.process(options).catch((error: unknown) => {
        // Errors a subgraph answers come back in its response; a thrown one means no usable answer arrived.
        logger.warn({ err: error, subgraph: this.name }, 'subgraph unreachable');
        throw subgraphUnreachable(this.name);
      }),
    );
  }

  override willSendRequest({
    request,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<RequestContext>['willSendRequest']>>[0]) {
    for (const [name, value] of Object.entries(subgraphRequestHeaders(this.secret, context.viewer)))
      request.http?.headers.set(name, value);
  }
}

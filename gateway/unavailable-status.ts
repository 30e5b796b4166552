import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../subgraphs/platform/context.ts';

const UNAVAILABLE_CODES = new Set(['database_unavailable', 'service_unavailable']);

/**
 * A GraphQL response with an error saying a dependency is down (the database, a subgraph service) answers
 * HTTP 503, as REST does, so load balancers and clients retry it rather than take it as an answer.
 */
export const unavailableStatusPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const errors = response.body.singleResult.errors ?? [];
        if (errors.some((error) => UNAVAILABLE_CODES.has(String(error.extensions?.code)))) response.http.status = 503;
      },
    };
  },
};

import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';

const UNAVAILABLE_CODES = new Set(['database_unavailable', 'service_unavailable']);

/**
 * Whether a response's errors say a dependency is down (the database, a subgraph service): such a response
 * answers HTTP 503, as REST does, so load balancers and clients retry it rather than take it as an answer.
 */
export const answersUnavailable = (errors: readonly GraphQLFormattedError[]): boolean =>
  errors.some((error) => UNAVAILABLE_CODES.has(String(error.extensions?.code)));

/** The same rule for the responses Apollo Server makes. */
export const unavailableStatusPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        if (answersUnavailable(response.body.singleResult.errors ?? [])) response.http.status = 503;
      },
    };
  },
};

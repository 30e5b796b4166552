import type { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestContext } from '../subgraphs/platform/context.ts';
import type { graphqlFastPath } from './graphql-fast-path.ts';

/**
 * The handler of GET and POST /graphql: the fast path's answer when it gives one (graphql-fast-path.ts), else
 * Apollo Server's. A request the fast path hands over keeps its context object, by which the hand-over is found.
 */
export function graphqlRouteHandler(
  graphql: ApolloServer<RequestContext>,
  contextFor: (request: FastifyRequest) => RequestContext,
  answerDirectly?: ReturnType<typeof graphqlFastPath>,
) {
  const contexts = new WeakMap<FastifyRequest, RequestContext>();
  const apolloHandler = fastifyApolloHandler(graphql, {
    context: async (request) => contexts.get(request) ?? contextFor(request),
  });
  type Route = Parameters<typeof apolloHandler>;
  return async function answerGraphQL(this: FastifyInstance, request: Route[0], reply: Route[1]) {
    if (answerDirectly && request.method === 'POST') {
      const context = contextFor(request);
      const answered = await answerDirectly(request, reply, context);
      if (answered !== undefined) return answered;
      contexts.set(request, context);
    }
    return apolloHandler.call(this, request, reply);
  };
}

import Negotiator from 'negotiator';

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
/** What Apollo Server offers a single result in, in its order (chooseContentTypeForSingleResultResponse). */
const OFFERED_TYPES = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE, 'application/json; callbackSpec=1.0'];
/** Distinct `accept` headers whose negotiated type is remembered; clients send a handful. */
const MAX_ACCEPT_HEADERS = 64;

const chosenTypes = new Map<string, string | undefined>();

/**
 * The type a /graphql response is written in for this `accept` header, by Apollo Server's negotiation (the
 * `negotiator` package, which it uses, over the types it offers); undefined for one Apollo Server would refuse
 * (406) or answers otherwise (the subscription callback type), which its HTTP handler then does.
 */
export function responseTypeFor(accept: string | undefined): string | undefined {
  if (!accept) return JSON_TYPE;
  if (!chosenTypes.has(accept)) {
    if (chosenTypes.size >= MAX_ACCEPT_HEADERS) chosenTypes.clear();
    const chosen = new Negotiator({ headers: { accept } }).mediaType(OFFERED_TYPES);
    chosenTypes.set(accept, chosen === JSON_TYPE || chosen === GRAPHQL_RESPONSE_TYPE ? chosen : undefined);
  }
  return chosenTypes.get(accept);
}

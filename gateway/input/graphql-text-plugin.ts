import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, visit } from 'graphql';
import type { DocumentNode } from 'graphql';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { UNSAFE_TEXT_PROBLEM, collectUnsafeText, isUnsafeText } from './unsafe-text.ts';

/**
 * Whether a string literal of the document is unsafe text. Apollo Server hands a recurring operation over as the
 * same parsed document (its document store), so the walk over the whole document runs once per document, not
 * on every request (it was the largest `visit` in the profile of /graphql: docs/performance.md item 20).
 */
const unsafeLiterals = new WeakMap<DocumentNode, boolean>();
function hasUnsafeLiteral(document: DocumentNode): boolean {
  let unsafe = unsafeLiterals.get(document);
  if (unsafe === undefined) {
    unsafe = false;
    visit(document, {
      [Kind.STRING](node) {
        if (isUnsafeText(node.value)) unsafe = true;
      },
    });
    unsafeLiterals.set(document, unsafe);
  }
  return unsafe;
}

/** Whether the operation's variables or string literals hold unsafe text (the plugin below refuses it). */
export function hasUnsafeText(document: DocumentNode, variables: Record<string, unknown>): boolean {
  return Object.keys(unsafeTextOf(document, variables)).length > 0;
}

/** The details of unsafe text in an operation: its variables by name, its string literals as `query`. */
function unsafeTextOf(document: DocumentNode, variables: Record<string, unknown>): Record<string, string> {
  const details: Record<string, string> = Object.create(null);
  collectUnsafeText(variables, 'variables', details);
  if (hasUnsafeLiteral(document)) details.query = `has a string that ${UNSAFE_TEXT_PROBLEM}`;
  return details;
}

/**
 * GraphQL's side of the request text check (request-text-check.ts): variables, however they arrived (a JSON
 * body, or GET's `variables` parameter holding `\u0000` escapes), and string literals of the document, whose
 * escapes are decoded only by the parser. A refusal is a 400 `invalid_parameter` before the operation runs.
 */
export const refuseUnsafeText: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ document, request }) {
        const details = unsafeTextOf(document, request.variables ?? {});
        if (Object.keys(details).length === 0) return;
        const refusal = new BadRequestError(details);
        throw new GraphQLError(refusal.message, {
          extensions: { ...refusal.extensions, http: { status: refusal.status } },
        });
      },
    };
  },
};

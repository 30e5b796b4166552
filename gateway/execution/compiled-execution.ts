import { GraphQLError, execute } from 'graphql';
import type { DocumentNode, ExecutionArgs, ExecutionResult, GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { CompiledQuery } from 'graphql-jit';

/**
 * Executes an operation on an in-process subgraph with graphql-jit once its document recurs, graphql-js before.
 * graphql-jit compiles the operation into a function: per field it skips what graphql-js repeats on every
 * record (argument coercion, resolve info, field collection). The companies REST operation on bench_100k, its
 * page and count included: 0.61-0.86 ms CPU per execution with graphql-js, 0.48-0.61 compiled (docs/performance.md,
 * item 20).
 *
 * Only a document seen before is compiled (compiling costs milliseconds, a one-off document would pay it for
 * nothing), and only while it is kept: the caches are keyed by the document object, which the callers keep
 * (Apollo Server's document store, the REST routes, the subgraph data sources' parsed operations). The answer
 * is graphql-js's, byte for byte: test/gateway/compiled-execution.test.ts runs every operation of the REST
 * tables and the error cases both ways. A document graphql-jit cannot compile runs on graphql-js. What differs
 * is when sibling fields' relation loads are issued: a query with several relation-loading roots may batch them
 * in more rounds (test/verticals/records.test.ts: 23 statements compiled, 17 with graphql-js; still the same for
 * 5 records as for 20).
 */
export async function executeCompiled(args: ExecutionArgs): Promise<ExecutionResult> {
  const compiled = compiledFor(args.schema, args.document, args.operationName ?? undefined);
  if (!compiled) return execute(args);
  const result = await compiled.query(args.rootValue, args.contextValue, args.variableValues);
  // graphql-js puts `errors` before `data`, and leaves the key out without errors.
  return result.errors?.length
    ? { errors: result.errors.map(asGraphQLJsError), data: result.data }
    : { data: result.data };
}

/**
 * graphql-jit's error as graphql-js would have made it. Its own GraphQLError leaves `extensions` undefined when the
 * thrown error has none (a database that does not answer), where graphql-js gives `{}`, and the gateway's error
 * formatting reads it: such an error became a 500 instead of a 503 (test/gateway/dependencies-down.test.ts).
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const { message, path, originalError, extensions, locations } = error;
  const normalized = new GraphQLError(message, { path, originalError, extensions });
  (normalized as { locations?: typeof locations }).locations = locations;
  return normalized;
}

/** A document's executions so far, and its compiled form once it recurs (null: graphql-jit refused it). */
interface Compilation {
  uses: number;
  query?: CompiledQuery | null;
}

const compilations = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Compilation>>>();

function compiledFor(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined) {
  let bySchema = compilations.get(schema);
  if (!bySchema) compilations.set(schema, (bySchema = new WeakMap()));
  let byOperation = bySchema.get(document);
  if (!byOperation) bySchema.set(document, (byOperation = new Map()));
  const key = operationName ?? '';
  let compilation = byOperation.get(key);
  if (!compilation) byOperation.set(key, (compilation = { uses: 0 }));
  compilation.uses += 1;
  if (compilation.query === undefined && compilation.uses > 1) {
    compilation.query = compile(schema, document, operationName);
  }
  return compilation.query ?? null;
}

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined) {
  try {
    const result = compileQuery(schema, document, operationName);
    return isCompiledQuery(result) ? result : null;
  } catch {
    return null;
  }
}

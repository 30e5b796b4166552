import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse, validate } from 'graphql';
import { Supergraph, isCompositeType, operationFromDocument } from '@apollo/federation-internals';
import type { CompositeType, Operation, SelectionSet, Type } from '@apollo/federation-internals';
import { apiSchema, readSupergraph } from '../../../gateway/supergraph.ts';
import { apolloResultShaping, installResultShaping, shapeResponse } from '../../../gateway/execution/result-shaping.ts';
import type { ComputeResponseArgs } from '../../../gateway/execution/result-shaping.ts';

// Apollo Gateway's own pass, the reference every case is held to.
const apollo = apolloResultShaping();
const schema = Supergraph.build(readSupergraph()).apiSchema();

const FEDERATED = `query Federated {
  companies(industry: "software", state: "CA", minScore: 80, perPage: 25) {
    nodes { id name ticker contacts { name } signals(limit: 3) { id } }
    pageInfo { total }
  }
}`;

// Aliases an ordinary object would inherit, one response name reached twice, fragments, directives and a union.
const SHAPES = `query Shapes($withContacts: Boolean!, $skipTicker: Boolean = false) {
  companies(perPage: 2) {
    nodes {
      constructor: name
      toString: id
      __typename
      kind: __typename
      ticker @skip(if: $skipTicker)
      contacts @include(if: $withContacts) { name }
      ... on Company { id employees revenueUsd contacts @include(if: $withContacts) { __typename email } }
      ...Signals
      name @include(if: false)
    }
    pageInfo { total totalIsEstimate }
  }
  search(q: "acme") {
    nodes { title score record { __typename ... on Company { name aiScore } ... on Contact { name } } }
  }
}
fragment Signals on Company { signals(limit: 2) { id signalType urgent createdAt } }`;

const VARIABLES = [{ withContacts: true }, { withContacts: false, skipTicker: true }];

function operationOf(query: string): Operation {
  const document = parse(query);
  expect(validate(apiSchema(), document)).toEqual([]);
  return operationFromDocument(schema, document, { validate: false });
}

/** Data of the shape a query plan's merged fetches have: every selection answered, plus the keys the plan adds. */
function validInput(operation: Operation): Record<string, unknown> {
  let counter = 0;
  const leaf = (type: Type): unknown => {
    counter += 1;
    if (type.kind === 'EnumType') return type.values[counter % 2]!.name;
    switch ('name' in type ? type.name : '') {
      case 'Int':
        return counter;
      case 'Float':
        return counter + 0.5;
      case 'Boolean':
        return counter % 2 === 0;
      default:
        return `value ${counter}`;
    }
  };
  // A response name selected twice (a field and a fragment's) holds both selections, as merged fetches do.
  const value = (type: Type, selectionSet: SelectionSet | undefined, existing?: unknown): unknown => {
    if (type.kind === 'NonNullType') return value(type.ofType, selectionSet, existing);
    if (type.kind === 'ListType')
      return Array.isArray(existing)
        ? existing.map((element) => value(type.ofType, selectionSet, element))
        : [value(type.ofType, selectionSet), value(type.ofType, selectionSet)];
    if (!isCompositeType(type)) return existing ?? leaf(type);
    if (existing) {
      const into = existing as Record<string, unknown>;
      return object(selectionSet!, schema.type(into.__typename as string) as CompositeType, into);
    }
    const runtime = type.kind === 'UnionType' ? type.types()[counter++ % 2]! : type;
    return object(selectionSet!, runtime, { __typename: runtime.name, planKey: 'dropped' });
  };
  const object = (selectionSet: SelectionSet, runtime: CompositeType, into: Record<string, unknown>) => {
    for (const selection of selectionSet.selections()) {
      if (selection.kind === 'FieldSelection') {
        const field = selection.element;
        const name = field.responseName();
        if (field.name !== '__typename')
          into[name] = value(
            field.definition.type!,
            selection.selectionSet,
            Object.hasOwn(into, name) ? into[name] : undefined,
          );
      } else {
        const condition = selection.element.typeCondition;
        if (!condition || condition.name === runtime.name) object(selection.selectionSet, runtime, into);
      }
    }
    return into;
  };
  return object(operation.selectionSet, schema.schemaDefinition.rootType('query')!, {});
}

/** Every place in the data: the object or array holding it and its key. */
function places(value: unknown, at: (string | number)[] = []): { path: (string | number)[] }[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = [...at, Array.isArray(value) ? Number(key) : key];
    return [{ path }, ...places(inner, path)];
  });
}

function withValue(input: unknown, path: (string | number)[], replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(input) as Record<string, unknown>;
  let holder: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  holder[path.at(-1)!] = replacement;
  return copy;
}

const REPLACEMENTS = [null, undefined, 'text', 7, 2.5, true, {}, [], ['x'], 'Contact', 'VerticalRecord', 'Nope'];

/** Apollo's answer as bytes (data, error messages and paths), or what it threw. */
function apolloAnswer(args: ComputeResponseArgs) {
  try {
    const { data, errors } = apollo(args);
    return { bytes: JSON.stringify({ data, errors: errors.map(({ message, path }) => ({ message, path })) }), errors };
  } catch (error) {
    return { bytes: `threw ${(error as Error).message}`, errors: [error] };
  }
}

describe('result shaping (gateway/execution/result-shaping.ts) against Apollo Gateway computeResponse', () => {
  for (const [name, query, variableSets] of [
    ['the federated query', FEDERATED, [{}]],
    ['aliases, fragments, directives and a union', SHAPES, VARIABLES],
  ] as const) {
    for (const variables of variableSets) {
      const operation = operationOf(query);
      const input = validInput(operation);
      const args = (data: Record<string, unknown>): ComputeResponseArgs => ({
        operation,
        variables,
        input: data,
        introspectionHandling: () => {
          throw new Error('no introspection here');
        },
      });

      it(`gives Apollo's bytes for valid data: ${name} ${JSON.stringify(variables)}`, () => {
        const fast = shapeResponse(args(input));
        expect(fast).toBeDefined();
        expect(JSON.stringify(fast!.data)).toBe(JSON.stringify(apollo(args(input)).data));
        expect(JSON.stringify(fast!.data)).not.toContain('planKey');
      });

      it(`gives Apollo's bytes, or leaves broken data to Apollo: ${name} ${JSON.stringify(variables)}`, () => {
        let shapedHere = 0;
        let leftToApollo = 0;
        for (const { path } of places(input)) {
          for (const replacement of REPLACEMENTS) {
            const data = withValue(input, path, replacement);
            const fast = shapeResponse(args(data));
            const reference = apolloAnswer(args(data));
            const at = `${path.join('.')} = ${JSON.stringify(replacement)}`;
            if (fast) {
              shapedHere += 1;
              expect(reference.errors, at).toEqual([]);
              expect(JSON.stringify({ data: fast.data, errors: [] }), at).toBe(reference.bytes);
            } else {
              leftToApollo += 1;
              // Only where Apollo's answer has errors, or may be nulled without one: a __typename naming no
              // object type, or an object without __typename where the schema has a union.
              const silentNull =
                ['__typename', 'kind'].includes(String(path.at(-1))) ||
                (replacement !== null && typeof replacement === 'object');
              if (!silentNull) expect(reference.errors.length, at).toBeGreaterThan(0);
            }
          }
        }
        expect(shapedHere).toBeGreaterThan(0);
        expect(leftToApollo).toBeGreaterThan(0);
      });
    }
  }

  it('is what the query-plan executor calls once installed, and falls back to Apollo for what it leaves', () => {
    const module = createRequire(import.meta.url)('@apollo/gateway/dist/resultShaping.js') as {
      computeResponse: typeof apollo;
    };
    expect(installResultShaping()).toBe(true);
    expect(module.computeResponse).not.toBe(apollo);
    const operation = operationOf(FEDERATED);
    const broken = withValue(validInput(operation), ['companies', 'nodes', 0, 'name'], null);
    const args = { operation, variables: {}, input: broken, introspectionHandling: () => null };
    expect(module.computeResponse(args).errors.map((error) => error.message)).toEqual([
      'Cannot return null for non-nullable field Company.name.',
    ]);
  });
});

import { createRequire } from 'node:module';
import {
  isCompositeType,
  isObjectType,
  isSubtype,
  isValidLeafValue,
  typenameFieldName,
  Variable,
} from '@apollo/federation-internals';
import type { CompositeType, Operation, Schema, Selection, SelectionSet, Type } from '@apollo/federation-internals';
import type { GraphQLError } from 'graphql';
import { logger } from '../../subgraphs/platform/logger.ts';

/**
 * Apollo Gateway's last step for a planned query, `computeResponse` (@apollo/gateway/dist/resultShaping.js),
 * walks the merged subgraph data along the operation to drop what the plan fetched only for itself (`__typename`,
 * keys) and to report values the schema does not allow. It was a fifth of the gateway's CPU in the federated
 * query's profile with in-flight sharing on: for every row it reads each selection's `@skip`/`@include` through
 * two filtered copies of the directive list, allocates a result object per value and an assertion closure per
 * check, and builds the answer from `Object.create(null)` objects, which V8 keeps as hash tables (slower to fill
 * and to serialise).
 *
 * `shapeResponse` gives the same answer for data the schema allows: each selection set's directives are read
 * once per request, and the objects have fast properties and still no inherited keys. Whenever Apollo's pass
 * would report an error, bubble a null or throw, it gives up and Apollo's own pass runs, so every error keeps
 * Apollo's exact message and path (test/unit/gateway/result-shaping.test.ts compares both on valid and broken data).
 */

/** The version whose `computeResponse` this mirrors; another one keeps Apollo's own pass (see installResultShaping). */
export const MIRRORED_GATEWAY_VERSION = '2.14.4';

type Input = Record<string, unknown>;
type Output = Record<string, unknown>;

export interface ComputeResponseArgs {
  operation: Operation;
  variables?: Record<string, unknown>;
  input: Input | null | undefined;
  introspectionHandling: (field: unknown) => unknown;
}
export type ComputeResponse = (args: ComputeResponseArgs) => {
  data?: Output | null;
  errors: GraphQLError[];
};

/** Thrown inside the walk where Apollo's pass would report something: that pass then runs instead. */
const GIVE_UP = Symbol('give up');

/**
 * The answer's objects: fast properties, unlike `Object.create(null)`, and no inherited keys either (the
 * prototype is an empty null-prototype object), so an alias such as `constructor` reads as absent.
 */
const ResponseObject = function ResponseObject() {} as unknown as { new (): Output; prototype: object };
ResponseObject.prototype = Object.create(null) as object;

const hasOwn = Object.prototype.hasOwnProperty;

interface FieldStep {
  field: true;
  responseName: string;
  isTypename: boolean;
  type: Type;
  selectionSet: SelectionSet | undefined;
}
interface FragmentStep {
  field: false;
  typeCondition: CompositeType | undefined;
  selectionSet: SelectionSet;
}
type Step = FieldStep | FragmentStep;

class Shaping {
  private readonly schema: Schema;
  private readonly steps = new Map<SelectionSet, Step[]>();
  private variableValues: Record<string, unknown> | undefined;

  constructor(
    private readonly operation: Operation,
    private readonly variables: Record<string, unknown> | undefined,
  ) {
    this.schema = operation.schema();
  }

  /** The selections a set keeps under this request's variables, read once however many rows it shapes. */
  private stepsOf(selectionSet: SelectionSet): Step[] {
    let steps = this.steps.get(selectionSet);
    if (steps) return steps;
    steps = [];
    for (const selection of selectionSet.selections()) {
      if (this.isSkipped(selection)) continue;
      if (selection.kind === 'FieldSelection') {
        const field = selection.element;
        // `__schema` and `__type` are answered by Apollo's introspection handling: left to its pass.
        if (field.definition.isSchemaIntrospectionField()) throw GIVE_UP;
        steps.push({
          field: true,
          responseName: field.responseName(),
          isTypename: field.name === typenameFieldName,
          type: field.definition.type!,
          selectionSet: selection.selectionSet,
        });
      } else {
        steps.push({
          field: false,
          typeCondition: selection.element.typeCondition,
          selectionSet: selection.selectionSet,
        });
      }
    }
    this.steps.set(selectionSet, steps);
    return steps;
  }

  private isSkipped(selection: Selection): boolean {
    const directives = selection.element.appliedDirectives;
    if (directives.length === 0) return false;
    const skip = directives.find((directive) => directive.name === 'skip');
    const include = directives.find((directive) => directive.name === 'include');
    return (skip !== undefined && this.ifValue(skip)) || (include !== undefined && !this.ifValue(include));
  }

  private ifValue(directive: Selection['element']['appliedDirectives'][number]): boolean {
    const condition = directive.arguments().if;
    if (!(condition instanceof Variable)) return condition as boolean;
    // No prototype, as in Apollo's pass: a variable named `constructor` is only ever the client's.
    this.variableValues ??= Object.assign(
      Object.create(null) as Record<string, unknown>,
      this.operation.collectDefaultedVariableValues(),
      this.variables,
    );
    const value = this.variableValues[condition.name];
    if (typeof value !== 'boolean') throw GIVE_UP;
    return value;
  }

  shapeRoot(input: Input): Output {
    const data = new ResponseObject();
    this.applySelectionSet(
      input,
      this.operation.selectionSet,
      data,
      this.schema.schemaDefinition.rootType(this.operation.rootKind)!,
    );
    return data;
  }

  private applySelectionSet(input: Input, selectionSet: SelectionSet, output: Output, parentType: CompositeType) {
    for (const step of this.stepsOf(selectionSet)) {
      if (step.field) {
        const { responseName } = step;
        const outputValue = output[responseName];
        let inputValue = (hasOwn.call(input, responseName) ? input[responseName] : undefined) ?? null;
        if (step.isTypename) {
          if (outputValue !== undefined) continue;
          if (inputValue === null && responseName !== typenameFieldName) inputValue = input[typenameFieldName] ?? null;
          const type = typeof inputValue === 'string' ? (this.schema.type(inputValue) ?? parentType) : parentType;
          if (!isObjectType(type)) throw GIVE_UP;
          output[responseName] = type.name;
          continue;
        }
        output[responseName] = this.updateOutputValue(outputValue, step.type, inputValue, step.selectionSet);
      } else {
        const typename = input[typenameFieldName];
        if (typename && typeof typename !== 'string') throw GIVE_UP;
        if (this.typeConditionApplies(step.typeCondition, typename as string | undefined, parentType))
          this.applySelectionSet(input, step.selectionSet, output, step.typeCondition ?? parentType);
      }
    }
  }

  private typeConditionApplies(
    condition: CompositeType | undefined,
    typename: string | undefined,
    parentType: CompositeType,
  ) {
    if (!condition) return true;
    if (!typename) return isSubtype(condition, parentType);
    const type = this.schema.type(typename);
    return !!type && isSubtype(condition, type);
  }

  private updateOutputValue(
    outputValue: unknown,
    type: Type,
    inputValue: unknown,
    selectionSet: SelectionSet | undefined,
  ): unknown {
    if (inputValue === undefined) throw GIVE_UP;
    if (outputValue === null || (outputValue !== undefined && !selectionSet)) return outputValue;
    if (type.kind === 'NonNullType') {
      const updated = this.updateOutputValue(outputValue, type.ofType, inputValue, selectionSet);
      if (updated === null) throw GIVE_UP;
      return updated;
    }
    if (inputValue === null) return null;
    if (type.kind === 'ListType') {
      if (!Array.isArray(inputValue)) throw GIVE_UP;
      if (outputValue !== undefined && (!Array.isArray(outputValue) || outputValue.length !== inputValue.length))
        throw GIVE_UP;
      const updated = new Array<unknown>(inputValue.length);
      for (let index = 0; index < inputValue.length; index++)
        updated[index] = this.updateOutputValue(
          (outputValue as unknown[] | undefined)?.[index],
          type.ofType,
          inputValue[index],
          selectionSet,
        );
      return updated;
    }
    if (isCompositeType(type)) {
      if (!selectionSet || typeof inputValue !== 'object') throw GIVE_UP;
      if (outputValue !== undefined && typeof outputValue !== 'object') throw GIVE_UP;
      const inputTypename = (inputValue as Input)[typenameFieldName];
      if (inputTypename !== undefined && typeof inputTypename !== 'string') throw GIVE_UP;
      let objectType: CompositeType = type;
      if (inputTypename) {
        const named = this.schema.type(inputTypename);
        if (!named || !isCompositeType(named)) throw GIVE_UP;
        objectType = named;
      }
      const output = (outputValue as Output | undefined) ?? new ResponseObject();
      this.applySelectionSet(inputValue as Input, selectionSet, output, objectType);
      return output;
    }
    if (!isValidLeafValue(this.schema, inputValue, type as Parameters<typeof isValidLeafValue>[2])) throw GIVE_UP;
    return inputValue;
  }
}

/**
 * The answer Apollo's `computeResponse` gives for `args`, or undefined where that answer would carry errors (or
 * the pass would throw, or it involves introspection): the caller then runs Apollo's pass.
 */
export function shapeResponse(args: ComputeResponseArgs): { data: Output; errors: GraphQLError[] } | undefined {
  if (!args.input) return undefined;
  try {
    return { data: new Shaping(args.operation, args.variables).shapeRoot(args.input), errors: [] };
  } catch {
    // GIVE_UP, or an assertion of federation-internals, which Apollo's pass meets too and reports its own way.
    return undefined;
  }
}

const requireFromHere = createRequire(import.meta.url);

/**
 * Where an installed `computeResponse` keeps Apollo's own. On the function itself, and a registered symbol, because
 * Apollo's module is loaded once per process while this module may be evaluated again (a test runner's isolation):
 * a second install then sees the first, and Apollo's pass is still found.
 */
const APOLLO_PASS = Symbol.for('data-graph.apolloComputeResponse');
type InstalledComputeResponse = ComputeResponse & { [APOLLO_PASS]?: ComputeResponse };

const apolloModule = () =>
  requireFromHere('@apollo/gateway/dist/resultShaping.js') as { computeResponse: InstalledComputeResponse };

/**
 * Puts `shapeResponse` in front of Apollo Gateway's `computeResponse`. The query-plan executor reads it from its
 * module's exports on every call, so replacing that property is the one place it can be changed. Only for the
 * version this was checked against: with any other, Apollo's pass stays and a warning says why. Idempotent.
 */
export function installResultShaping(): boolean {
  const version = (requireFromHere('@apollo/gateway/package.json') as { version: string }).version;
  if (version !== MIRRORED_GATEWAY_VERSION) {
    logger.warn(
      { version, mirrored: MIRRORED_GATEWAY_VERSION },
      "@apollo/gateway's version changed: its own result shaping stays until gateway/result-shaping.ts is checked against it",
    );
    return false;
  }
  const module = apolloModule();
  if (module.computeResponse[APOLLO_PASS]) return true;
  const apollo = module.computeResponse;
  const shaped: InstalledComputeResponse = (args) => shapeResponse(args) ?? apollo(args);
  shaped[APOLLO_PASS] = apollo;
  module.computeResponse = shaped;
  return true;
}

/** Apollo's own `computeResponse`, installed in front of or not (tests compare against it). */
export function apolloResultShaping(): ComputeResponse {
  const current = apolloModule().computeResponse;
  return current[APOLLO_PASS] ?? current;
}

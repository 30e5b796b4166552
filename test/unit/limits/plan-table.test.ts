import { extendSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  PLAN_RULES,
  assertEveryFieldHasAPlan,
  assertPlanReaches,
  fieldsWithoutPlan,
  ruleFor,
} from '../../../gateway/auth/plan-access.ts';
import { FIELD_LIMITS } from '../../../gateway/limits/policy.ts';
import { apiSchema } from '../../../gateway/supergraph.ts';
import { RECORD_TYPES } from '../../../subgraphs/index.ts';

const api = apiSchema();

function exists(coordinate: string): boolean {
  const [typeName, fieldName] = coordinate.split('.');
  const type = api.getType(typeName!);
  if (!type || !('getFields' in type)) return false;
  return fieldName === '*' || fieldName! in type.getFields();
}

describe('the plan and limit tables', () => {
  it('name only types and fields that exist, so a renamed field cannot slip out of its plan', () => {
    const coordinates = [...PLAN_RULES.flatMap((rule) => rule.coordinates), ...Object.keys(FIELD_LIMITS)];
    expect(coordinates.filter((coordinate) => !exists(coordinate))).toEqual([]);
  });

  it('give every field of the API a plan', () => {
    expect(fieldsWithoutPlan(api)).toEqual([]);
  });

  it('put every record type’s lists, connection and single record at the plan its model file declares', () => {
    for (const type of RECORD_TYPES) {
      for (const root of [type.list, type.connection, type.one])
        expect(ruleFor('Query', root)?.plan, root).toBe(type.plan);
    }
  });
});

describe('a field without a plan rule', () => {
  const unplanned = extendSchema(api, parse('extend type Query { unplannedRecords: Int }'));

  it('stops the gateway from starting, naming the field', () => {
    expect(() => assertEveryFieldHasAPlan(unplanned)).toThrow(/No plan rule names Query\.unplannedRecords/);
  });

  it('is refused to every plan, institutional included', () => {
    expect(() => assertPlanReaches('institutional', [{ typeName: 'Query', fieldName: 'unplannedRecords' }])).toThrow(
      expect.objectContaining({ code: 'plan_required' }),
    );
    expect(() => assertPlanReaches('analyst', [{ typeName: 'Query', fieldName: '__typename' }])).not.toThrow();
  });
});

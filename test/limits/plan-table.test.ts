import { Supergraph } from '@apollo/federation-internals';
import { describe, expect, it } from 'vitest';
import { PLAN_RULES } from '../../gateway/auth/plan-access.ts';
import { FIELD_LIMITS } from '../../gateway/limits/policy.ts';
import { readSupergraph } from '../../gateway/supergraph.ts';

const api = Supergraph.build(readSupergraph()).apiSchema().toGraphQLJSSchema();

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

  it('cover every root field of the records API', () => {
    const covered = new Set(PLAN_RULES.flatMap((rule) => rule.coordinates));
    const recordRoots = ['companies', 'contacts', 'properties', 'owners', 'attorneys', 'firms', 'leads', 'search', 'reports'];
    for (const root of recordRoots) expect(covered, root).toContain(`Query.${root}`);
    for (const mutation of Object.keys(api.getMutationType()!.getFields())) {
      if (/Lead|Report/.test(mutation)) expect(covered, mutation).toContain(`Mutation.${mutation}`);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../../subgraphs/index.ts';
import { scalarFields } from '../../../subgraphs/verticals/record-type/columns.ts';

describe('the columns a loader of records writes', () => {
  it.each(RECORD_TYPES.map((type) => [type.name, type]))(
    'cover every field %s needs to be created, once each',
    (_name, type) => {
      const required = scalarFields(type.model)
        .filter((field) => field.isRequired && !field.hasDefaultValue)
        .map((field) => field.name);
      const written = Object.values(type.columns);
      expect(required.filter((field) => !written.includes(field))).toEqual([]);
      expect(new Set(written).size).toBe(written.length);
      expect(written).not.toContain('id');
    },
  );

  it('use the API’s names where they are not the stored field’s (a company’s name is `company`)', () => {
    const companies = RECORD_TYPES.find((type) => type.name === 'companies')!;
    expect(companies.columns).toMatchObject({
      company: 'name',
      title: 'decisionMakerTitle',
      email: 'decisionMakerEmail',
      revenue_usd: 'revenueUsd',
    });
    expect(companies.columns).not.toHaveProperty('name');
  });
});

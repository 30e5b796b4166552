import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../subgraphs/platform/process/command-tool.ts';
import { parseColumnsOption, resolveColumns } from '../../../gateway/import/records/column-map.ts';
import { rowConverter } from '../../../gateway/import/records/convert.ts';
import { loadFields, loadReferences } from '../../../gateway/import/records/load-fields.ts';
import { importTool } from '../../../gateway/import/tool.ts';
import { RECORD_TYPES, recordTypeNamed } from '../../../subgraphs/verticals/record-type/catalog.ts';

const FIELDS = ['external_id', 'company', 'revenue_usd', 'employees', 'state', 'ticker'];

describe('--columns', () => {
  it('maps headings to fields, with a factor and an escaped comma', () => {
    const mapping = parseColumnsOption('company=Name\\, Inc.,revenue_usd=Revenue (M)*1000000,employees=Staff', FIELDS);
    expect(Object.fromEntries(mapping)).toEqual({
      company: { heading: 'Name, Inc.', scale: undefined },
      revenue_usd: { heading: 'Revenue (M)', scale: 1_000_000 },
      employees: { heading: 'Staff', scale: undefined },
    });
  });

  it('refuses an unknown field, a field mapped twice and a pair without a heading', () => {
    expect(() => parseColumnsOption('revenue=Revenue', FIELDS)).toThrow(/no field "revenue"/);
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'])
      expect(() => parseColumnsOption(`${name}=Name`, FIELDS)).toThrow(`no field "${name}"`);
    expect(() => parseColumnsOption('company=A,company=B', FIELDS)).toThrow(/mapped twice/);
    expect(() => parseColumnsOption('company=', FIELDS)).toThrow(UsageError);
    expect(() => parseColumnsOption('company=A*0', FIELDS)).toThrow(/no usable factor/);
  });

  it('fills a field from its own heading in any case and spacing, and stops at a mapped heading the file lacks', () => {
    const sources = resolveColumns('f.csv', ['Company', 'Revenue USD', 'STATE'], FIELDS, new Map());
    expect([...sources.keys()]).toEqual(['company', 'revenue_usd', 'state']);
    expect(() => resolveColumns('f.csv', ['Company'], FIELDS, parseColumnsOption('state=HQ State', FIELDS))).toThrow(
      /no column "HQ State" \(for state\)/,
    );
  });
});

describe('a row of companies', () => {
  const type = recordTypeNamed('companies')!;
  const fields = loadFields(type);
  const convert = (row: Record<string, string>, columns = '') => {
    const fileFields = ['external_id', 'headquarters', ...fields.map((field) => field.name)];
    const sources = resolveColumns('f.csv', Object.keys(row), fileFields, parseColumnsOption(columns, fileFields));
    return rowConverter(type, fields, loadReferences(type, fields, RECORD_TYPES), sources)(row);
  };

  it('is converted to the columns’ types, scaled, derived and keyed by its name when it has no external_id', () => {
    const converted = convert(
      { Company: ' Walmart ', 'Revenue (M)': '500,343.0', employees: '2300000', industry: 'General Merchandisers' },
      'company=Company,revenue_usd=Revenue (M)*1000000',
    );
    expect(converted).toMatchObject({ externalId: 'walmart' });
    expect(Object.fromEntries((converted as { values: Map<string, unknown> }).values)).toEqual({
      company: 'Walmart',
      revenue_usd: 500_343_000_000,
      employees: 2_300_000,
      industry: 'General Merchandisers',
      industry_code: 'general_merchandisers',
    });
  });

  it('takes a headquarters "City, State" apart, and leaves both empty abroad', () => {
    const home = convert({ company: '3M', headquarters: 'Saint Paul, Minnesota' }) as { values: Map<string, unknown> };
    expect([home.values.get('city'), home.values.get('state')]).toEqual(['Saint Paul', 'MN']);
    const abroad = convert({ company: 'Accenture', headquarters: 'Dublin, Ireland' }) as {
      values: Map<string, unknown>;
    };
    expect([abroad.values.get('city'), abroad.values.get('state')]).toEqual([undefined, undefined]);
  });

  it('lists every problem of a bad row', () => {
    expect(convert({ company: '', state: 'ZZ', employees: '12.5', ai_score: '7' })).toEqual({
      externalId: undefined,
      problems: [
        'employees: "12.5" is not a whole number',
        'state: must be a US state code such as CA, or its name',
        'company: is required',
      ],
    });
  });
});

describe('import -- records on the command line', () => {
  const output = { out: () => undefined, err: () => undefined };
  it.each([
    [['records'], /name a record type/],
    [['records', 'widgets', 'a.csv'], /not "widgets"/],
    [['records', 'companies'], /no files given/],
    [['records', 'companies', 'a.csv', '--format', 'xml'], /--format must be csv or jsonl/],
    [['house-trades', 'a.json', '--columns', 'x=y'], /--columns is an option of `import records` only/],
  ])('refuses %j as a usage error (exit 2)', (argv, message) => {
    let refusal: unknown;
    try {
      importTool.prepare(argv, output);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as Error).message).toMatch(message);
    let printed = '';
    expect(importTool.fail(refusal, { out: () => undefined, err: (text) => (printed += text) })).toBe(2);
    expect(printed).toMatch(/usage: import/);
  });
});

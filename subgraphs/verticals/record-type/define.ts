import type { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { defineArguments } from '../../platform/arguments.ts';
import type { ArgumentSpecs, ArgumentValues, DefinedArguments } from '../../platform/arguments.ts';
import type { Plan } from '../../platform/plans.ts';
import type { Database } from '../../platform/database.ts';
import { idCodec } from '../../platform/ids.ts';
import type { IdCodec } from '../../platform/ids.ts';
import type { SortOrder } from '../../platform/paging.ts';
import type { Vertical } from '../verticals.ts';
import { delegateOf } from '../../platform/model-delegate.ts';
import { loadColumns } from './columns.ts';
import { rangeRules } from './filters.ts';
import { addRecordFields } from './graphql-fields.ts';

/**
 * Everything about one record type, declared once in its model file (records/<kind>.ts, listed in records/index.ts):
 * what the record is, then one part per concern. From it come the GraphQL list, connection and single-record
 * fields, the REST routes, report exports, universal search, the plan table, leads, the records loader and the
 * sandbox generator (prisma/seed/records/<kind>.ts).
 */
export interface RecordTypeDefinition<Filters extends ArgumentSpecs> {
  /** Plural: the REST path's last part and the list field (`owners`, `ownersConnection`). */
  name: string;
  /** Singular: the single-record field, a lead's `recordType`, a search hit's `type` (`owner`). */
  kind: string;
  /** Ids look like `<prefix>_<n>`. */
  idPrefix: string;
  vertical: Vertical;
  /** The Prisma model, which is also the GraphQL object type's name. */
  model: Prisma.ModelName;
  /** The model's table, for search and totals written in SQL. */
  table: string;
  /** Record types this one points at (by the filter that names them): they are generated and loaded first. */
  references?: Record<string, string>;
  graphql: RecordGraphql<Filters>;
  rest: RecordRest;
  /** Universal search: the searched SQL text (matching the search migration's indexes), the hit's title and subtitle. */
  search: { text: string; title: string; subtitle: string };
  plans: RecordPlans;
  /** How `import -- records` loads this type from a customer's files. */
  load: RecordLoadSpec;
}

/** The GraphQL side: the object and its list's arguments, which REST and reports take too. */
export interface RecordGraphql<Filters extends ArgumentSpecs> {
  /** The record's GraphQL object (`builder.prismaObject`), declared in the model file above the definition. */
  object: object;
  listDescription: string;
  /** The list's filters (GraphQL arguments; REST query parameters are their snake_case names). */
  filters: Filters;
  /** Pairs of filters where the first is a minimum that must not exceed the second (`min_value` ≤ `max_value`). */
  ranges?: [min: keyof Filters & string, max: keyof Filters & string][];
  /** Validated filters as a Prisma `where`: lists, connections, totals and report jobs all use this one function. */
  where: (filter: ArgumentValues<Filters>) => object;
  /** Sortable fields: documented name (`-equity_pct` in REST) → model field, and the default order. */
  sorts: Record<string, string>;
  defaultSort: SortOrder;
}

/** The REST side: the record as the documents show it. */
export interface RecordRest {
  /** Documented field name → GraphQL selection (`company: name`). Reports export the same shape. */
  fields: Record<string, string>;
}

/** Who reaches the records (the plan table, gateway/auth/plan-access.ts). */
export interface RecordPlans {
  /** The lowest plan that reaches these records. */
  plan: Plan;
  /** Overrides by field of the record's object (`*` for every field). */
  fields?: Record<string, Plan>;
}

/**
 * Loading records of a type from files (gateway/import/records/, docs/data-sources.md "Records"). Fields are
 * named by their API names (`columns`); each value is converted to its column's type, then checked by `rules`.
 */
export interface RecordLoadSpec {
  /** API names of stored fields whose name in the API is not their snake_case name (`company: 'name'`). */
  columnNames?: Record<string, string>;
  /** Fields every row must carry; a file without one of them is refused whole, a row without it is rejected. */
  required: readonly string[];
  /** Fields that name a record when the file gives no `external_id` (a company's name): loads upsert by them. */
  naturalKey: readonly string[];
  /** Checks beyond the stored type, by field (record-type/load-rules.ts and the filters' own schemas). */
  rules: Record<string, z.ZodType>;
  /** Text a file may give that is not stored but derives fields (a company's `headquarters` → city and state). */
  inputs?: Record<string, z.ZodType>;
  /**
   * Fields worked out from others of the row (`industry_code` from `industry`): written when the file gives
   * every field in `from` (and not the field itself); `value` may return undefined to leave it empty.
   */
  derive?: Record<string, { from: readonly string[]; value: (row: Record<string, unknown>) => unknown }>;
  /** Fields only the service computes (a property's equity): a file may not give them. */
  computed?: readonly string[];
  /**
   * SQL that brings records depending on this type up to date after a load (an owner's portfolio after its
   * properties); `$1` is the source loaded.
   */
  afterLoad?: readonly string[];
}

/** A record type as the rest of the service uses it. */
export interface RecordType {
  name: string;
  kind: string;
  ids: IdCodec;
  vertical: Vertical;
  model: Prisma.ModelName;
  table: string;
  object: object;
  /** GraphQL query fields: the offset list, the cursor connection and the single record. */
  list: string;
  connection: string;
  one: string;
  restFields: Record<string, string>;
  search: RecordTypeDefinition<ArgumentSpecs>['search'];
  plan: Plan;
  fieldPlans: Record<string, Plan>;
  references: Record<string, string>;
  /** What a loader writes: API field name → Prisma field (record-type/columns.ts). */
  columns: Record<string, string>;
  load: RecordLoadSpec;
  /** The list's filter arguments (GraphQL names). */
  filterNames: readonly string[];
  /** Filter arguments → a Prisma `where`, validated (a BadRequestError names the bad arguments). */
  where(args: object): object;
  count(db: Database, where: object): Promise<number>;
  findUnique(db: Database, id: number): Promise<object | null>;
}

/** Declares a record type and adds its GraphQL fields to the verticals schema. */
export function defineRecordType<Filters extends ArgumentSpecs>(definition: RecordTypeDefinition<Filters>): RecordType {
  const { graphql } = definition;
  const filters: DefinedArguments<Filters> = defineArguments(graphql.filters, rangeRules(graphql.ranges ?? []));
  const type: RecordType = {
    name: definition.name,
    kind: definition.kind,
    ids: idCodec(definition.idPrefix),
    vertical: definition.vertical,
    model: definition.model,
    table: definition.table,
    object: graphql.object,
    list: definition.name,
    connection: `${definition.name}Connection`,
    one: definition.kind,
    restFields: definition.rest.fields,
    search: definition.search,
    plan: definition.plans.plan,
    fieldPlans: definition.plans.fields ?? {},
    references: definition.references ?? {},
    columns: loadColumns(definition.model, definition.load.columnNames ?? {}),
    load: definition.load,
    filterNames: filters.names,
    where: (args) => graphql.where(filters.parse(args)),
    count: (db, where) => delegateOf(db, definition.model).count({ where }),
    findUnique: (db, id) => delegateOf(db, definition.model).findUnique({ where: { id } }),
  };
  addRecordFields(type, filters, graphql);
  return type;
}

import { GraphQLEnumType, getNamedType } from 'graphql';
import type { GraphQLField } from 'graphql';
import { NotFoundError } from '../../subgraphs/platform/errors.ts';
import { selectionOf, snakeCase } from '../../subgraphs/platform/names.ts';
import { RECORD_TYPES } from '../../subgraphs/index.ts';
import type { RecordType } from '../../subgraphs/index.ts';
import { apiSchema } from '../supergraph.ts';
import { bodyVariables } from './body-variables.ts';
import { PAGE_INFO, recordList } from './envelopes.ts';
import type { OffsetPage } from './envelopes.ts';
import type { RestRoute } from './route.ts';

/** Each record type lives under /api/v1/<vertical>/<name>. */
const recordPath = (type: RecordType) => `/api/v1/${type.vertical}/${type.name}`;

function queryField(name: string): GraphQLField<unknown, unknown> {
  const field = apiSchema().getQueryType()?.getFields()[name];
  if (!field) throw new Error(`the API schema has no query field ${name}`);
  return field;
}

/** An enum's values as the API schema declares them: what a JSON body field of that type accepts. */
function enumValues(name: string): readonly string[] {
  const type = apiSchema().getType(name);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`the API schema has no enum ${name}`);
  return type.getValues().map((value) => value.name);
}

const operationName = (field: string) => field.charAt(0).toUpperCase() + field.slice(1);

/**
 * A record list: every argument of the list field is a query parameter under its snake_case name
 * (`minEquity` → `min_equity`, `perPage` → `per_page`), so the filters, sorts and paging of a list are
 * declared once, in the subgraph.
 */
function listRoute(type: RecordType): RestRoute {
  const args = queryField(type.list).args;
  const declarations = args.map((arg) => `$${arg.name}: ${getNamedType(arg.type).name}`).join(', ');
  const passed = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return {
    method: 'GET',
    path: recordPath(type),
    operation: `query ${operationName(type.list)}(${declarations}) {
      ${type.list}(${passed}) { nodes { ${selectionOf(type.restFields)} } ${PAGE_INFO} }
    }`,
    query: Object.fromEntries(args.map((arg) => [snakeCase(arg.name), arg.name])),
    respond: (data) => recordList(type.vertical)(data[type.list] as OffsetPage<unknown>),
  };
}

/** One record by its prefixed id, in the list's record shape: `{success, vertical, data}`; unknown ids are a 404. */
function recordRoute(type: RecordType): RestRoute {
  return {
    method: 'GET',
    path: `${recordPath(type)}/:id`,
    operation: `query ${operationName(type.one)}($id: String!) { ${type.one}(id: $id) { ${selectionOf(type.restFields)} } }`,
    params: { id: 'id' },
    respond: (data) => {
      if (!data[type.one]) throw new NotFoundError('The record');
      return { success: true, vertical: type.vertical, data: data[type.one] };
    },
  };
}

const recordRoutes = RECORD_TYPES.flatMap((type) => [listRoute(type), recordRoute(type)]);

const LEAD_FIELDS = selectionOf({
  id: 'id',
  record_id: 'recordId',
  record_type: 'recordType',
  vertical: 'vertical',
  status: 'status',
  notes: 'notes',
  tags: 'tags',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
});

/** Leads and search hits span verticals: the list envelope without `vertical`. */
function crossVerticalList(page: OffsetPage<unknown>) {
  const { success, data, pagination } = recordList('b2b')(page);
  return { success, data, pagination };
}

const one = (field: string) => (data: Record<string, unknown>) => ({ success: true, data: data[field] });

const leadRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/leads',
    operation: `query Leads($status: LeadStatus, $vertical: Vertical, $tag: String, $sort: LeadSort, $page: Int, $perPage: Int) {
      leads(status: $status, vertical: $vertical, tag: $tag, sort: $sort, page: $page, perPage: $perPage) {
        nodes { ${LEAD_FIELDS} } ${PAGE_INFO}
      }
    }`,
    query: { status: 'status', vertical: 'vertical', tag: 'tag', sort: 'sort', page: 'page', per_page: 'perPage' },
    respond: (data) => crossVerticalList(data.leads as OffsetPage<unknown>),
  },
  {
    method: 'POST',
    path: '/api/v1/leads',
    operation: `mutation SaveLead($recordId: String!, $notes: String, $tags: [String!]) {
      saveLead(input: { recordId: $recordId, notes: $notes, tags: $tags }) { created lead { ${LEAD_FIELDS} } }
    }`,
    body: bodyVariables({
      record_id: { variable: 'recordId', type: 'string', required: true },
      notes: { variable: 'notes', type: 'string' },
      tags: { variable: 'tags', type: 'string[]' },
    }),
    // 201 for a new lead, 200 with the existing one when the record was already saved.
    createdWhen: (data) => (data.saveLead as { created: boolean }).created,
    respond: (data) => ({ success: true, data: (data.saveLead as { lead: unknown }).lead }),
  },
  {
    method: 'GET',
    path: '/api/v1/leads/:id',
    operation: `query Lead($id: String!) { lead(id: $id) { ${LEAD_FIELDS} } }`,
    params: { id: 'id' },
    respond: (data) => {
      if (!data.lead) throw new NotFoundError('The lead');
      return { success: true, data: data.lead };
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/leads/:id',
    operation: `mutation UpdateLead($id: String!, $status: LeadStatus, $notes: String, $tags: [String!]) {
      updateLead(input: { id: $id, status: $status, notes: $notes, tags: $tags }) { ${LEAD_FIELDS} }
    }`,
    params: { id: 'id' },
    body: bodyVariables({
      status: { variable: 'status', type: enumValues('LeadStatus') },
      notes: { variable: 'notes', type: 'string' },
      tags: { variable: 'tags', type: 'string[]' },
    }),
    respond: one('updateLead'),
  },
  {
    method: 'DELETE',
    path: '/api/v1/leads/:id',
    operation: `mutation DeleteLead($id: String!) { deleteLead(input: { id: $id }) { ${LEAD_FIELDS} } }`,
    params: { id: 'id' },
    respond: one('deleteLead'),
  },
];

const searchRoute: RestRoute = {
  method: 'GET',
  path: '/api/v1/search',
  operation: `query Search($q: String, $verticals: String, $page: Int, $perPage: Int) {
    search(q: $q, verticals: $verticals, page: $page, perPage: $perPage) {
      nodes { vertical type id title subtitle score } ${PAGE_INFO}
    }
  }`,
  query: { q: 'q', verticals: 'verticals', page: 'page', per_page: 'perPage' },
  respond: (data) => crossVerticalList(data.search as OffsetPage<unknown>),
};

const REPORT_FIELDS = selectionOf({
  id: 'id',
  status: 'status',
  vertical: 'vertical',
  record_type: 'recordType',
  format: 'format',
  fields: 'fields',
  filters: 'filters',
  progress: 'progress',
  row_count: 'rowCount',
  error: 'error',
  created_at: 'createdAt',
  started_at: 'startedAt',
  completed_at: 'completedAt',
  download_url: 'downloadUrl',
});

/** Report jobs; the finished file streams from gateway/rest/report-download.ts (a file is no GraphQL value). */
const reportRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/reports/generate',
    operation: `mutation GenerateReport($vertical: Vertical!, $recordType: ReportRecordType, $filters: JSON, $format: ReportFormat, $fields: [String!]) {
      generateReport(input: { vertical: $vertical, recordType: $recordType, filters: $filters, format: $format, fields: $fields }) {
        ${REPORT_FIELDS}
      }
    }`,
    body: bodyVariables({
      vertical: { variable: 'vertical', type: enumValues('Vertical'), required: true },
      record_type: { variable: 'recordType', type: enumValues('ReportRecordType') },
      filters: { variable: 'filters', type: 'object' },
      format: { variable: 'format', type: enumValues('ReportFormat') },
      fields: { variable: 'fields', type: 'string[]' },
    }),
    // Accepted, not done: the job runs in the background (GET /api/v1/reports/:id follows it).
    status: 202,
    respond: one('generateReport'),
  },
  {
    method: 'GET',
    path: '/api/v1/reports',
    operation: `query Reports($status: ReportStatus, $sort: ReportSort, $page: Int, $perPage: Int) {
      reports(status: $status, sort: $sort, page: $page, perPage: $perPage) { nodes { ${REPORT_FIELDS} } ${PAGE_INFO} }
    }`,
    query: { status: 'status', sort: 'sort', page: 'page', per_page: 'perPage' },
    respond: (data) => crossVerticalList(data.reports as OffsetPage<unknown>),
  },
  {
    method: 'GET',
    path: '/api/v1/reports/:id',
    operation: `query Report($id: String!) { report(id: $id) { ${REPORT_FIELDS} } }`,
    params: { id: 'id' },
    respond: (data) => {
      if (!data.report) throw new NotFoundError('The report');
      return { success: true, data: data.report };
    },
  },
];

/** The `/api/v1` routes of the verticals document (docs/contract/verticals-api.md). */
export const verticalsRoutes: RestRoute[] = [searchRoute, ...recordRoutes, ...leadRoutes, ...reportRoutes];

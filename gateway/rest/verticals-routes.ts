import { GraphQLEnumType } from 'graphql';
import { NotFoundError } from '../../subgraphs/platform/errors.ts';
import { selectionOf } from '../../subgraphs/platform/names.ts';
import { RECORD_TYPES } from '../../subgraphs/index.ts';
import type { RecordType } from '../../subgraphs/index.ts';
import { apiSchema } from '../supergraph.ts';
import { bodyVariables } from './body-variables.ts';
import { fieldRoute } from './field-route.ts';
import { PAGE_INFO, pagedList, recordList } from './envelopes.ts';
import type { OffsetPage } from './envelopes.ts';
import type { RestRoute } from './route.ts';

/** Each record type lives under /api/v1/<vertical>/<name>. */
const recordPath = (type: RecordType) => `/api/v1/${type.vertical}/${type.name}`;

/** An enum's values as the API schema declares them: what a JSON body field of that type accepts. */
function enumValues(name: string): readonly string[] {
  const type = apiSchema().getType(name);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`the API schema has no enum ${name}`);
  return type.getValues().map((value) => value.name);
}

/**
 * A record list: every argument of the list field is a query parameter under its snake_case name
 * (`minEquity` → `min_equity`, `perPage` → `per_page`), so the filters, sorts and paging of a list are
 * declared once, in the subgraph.
 */
function listRoute(type: RecordType): RestRoute {
  return fieldRoute({
    path: recordPath(type),
    field: type.list,
    selection: `nodes { ${selectionOf(type.restFields)} } ${PAGE_INFO}`,
    respond: (data) => recordList(type.vertical, data[type.list] as OffsetPage<unknown>),
  });
}

/** One record by its prefixed id, in the list's record shape: `{success, vertical, data}`; unknown ids are a 404. */
function recordRoute(type: RecordType): RestRoute {
  return fieldRoute({
    path: `${recordPath(type)}/:id`,
    field: type.one,
    selection: selectionOf(type.restFields),
    respond: (data) => {
      if (!data[type.one]) throw new NotFoundError('The record');
      return { success: true, vertical: type.vertical, data: data[type.one] };
    },
  });
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

const one = (field: string) => (data: Record<string, unknown>) => ({ success: true, data: data[field] });

const leadRoutes: RestRoute[] = [
  fieldRoute({
    path: '/api/v1/leads',
    field: 'leads',
    selection: `nodes { ${LEAD_FIELDS} } ${PAGE_INFO}`,
    respond: (data) => pagedList(data.leads as OffsetPage<unknown>),
  }),
  fieldRoute({
    method: 'POST',
    path: '/api/v1/leads',
    field: 'saveLead',
    selection: `created lead { ${LEAD_FIELDS} }`,
    body: bodyVariables({
      record_id: { variable: 'recordId', type: 'string', required: true },
      notes: { variable: 'notes', type: 'string' },
      tags: { variable: 'tags', type: 'string[]' },
    }),
    // 201 for a new lead, 200 with the existing one when the record was already saved.
    createdWhen: (data) => (data.saveLead as { created: boolean }).created,
    respond: (data) => ({ success: true, data: (data.saveLead as { lead: unknown }).lead }),
  }),
  fieldRoute({
    path: '/api/v1/leads/:id',
    field: 'lead',
    selection: LEAD_FIELDS,
    respond: (data) => {
      if (!data.lead) throw new NotFoundError('The lead');
      return { success: true, data: data.lead };
    },
  }),
  fieldRoute({
    method: 'PATCH',
    path: '/api/v1/leads/:id',
    field: 'updateLead',
    selection: LEAD_FIELDS,
    body: bodyVariables({
      status: { variable: 'status', type: enumValues('LeadStatus') },
      notes: { variable: 'notes', type: 'string' },
      tags: { variable: 'tags', type: 'string[]' },
    }),
    respond: one('updateLead'),
  }),
  fieldRoute({
    method: 'DELETE',
    path: '/api/v1/leads/:id',
    field: 'deleteLead',
    selection: LEAD_FIELDS,
    respond: one('deleteLead'),
  }),
];

const searchRoute = fieldRoute({
  path: '/api/v1/search',
  field: 'search',
  selection: `nodes { vertical type id title subtitle score } ${PAGE_INFO}`,
  respond: (data) => pagedList(data.search as OffsetPage<unknown>),
});

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
  fieldRoute({
    method: 'POST',
    path: '/api/v1/reports/generate',
    field: 'generateReport',
    selection: REPORT_FIELDS,
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
  }),
  fieldRoute({
    path: '/api/v1/reports',
    field: 'reports',
    selection: `nodes { ${REPORT_FIELDS} } ${PAGE_INFO}`,
    respond: (data) => pagedList(data.reports as OffsetPage<unknown>),
  }),
  fieldRoute({
    path: '/api/v1/reports/:id',
    field: 'report',
    selection: REPORT_FIELDS,
    respond: (data) => {
      if (!data.report) throw new NotFoundError('The report');
      return { success: true, data: data.report };
    },
  }),
];

/** The `/api/v1` routes of the verticals document (docs/contract/verticals-api.md). */
export const verticalsRoutes: RestRoute[] = [searchRoute, ...recordRoutes, ...leadRoutes, ...reportRoutes];

import { connectionTypes } from '../platform/plans.ts';
import type { PlanRule } from '../platform/plans.ts';
import { RECORD_TYPES } from './record-type/catalog.ts';
import type { RecordType } from './record-type/define.ts';

const RECORDS_FEATURE = 'Business, real-estate and legal records, universal search, leads (/api/v1)';

/** A record type's roots and fields at its plan, with its per-field exceptions. */
function recordCoordinates(type: RecordType): { plan: PlanRule['plan']; coordinate: string }[] {
  const roots = [`Query.${type.list}`, `Query.${type.connection}`, `Query.${type.one}`];
  const fields = type.fieldPlans['*'] ? [] : [`${type.model}.*`];
  return [
    ...[...roots, ...fields].map((coordinate) => ({ plan: type.plan, coordinate })),
    ...Object.entries(type.fieldPlans).map(([field, plan]) => ({ plan, coordinate: `${type.model}.${field}` })),
  ];
}

const records = RECORD_TYPES.flatMap(recordCoordinates);
const atRecordPlan = records.filter(({ plan }) => plan !== 'analyst').map(({ coordinate }) => coordinate);
const open = records.filter(({ plan }) => plan === 'analyst').map(({ coordinate }) => coordinate);

/** The verticals subgraph's lines of the plan table (docs/api.md "Plans and limits" prints the restricted ones). */
export const VERTICALS_PLAN_RULES: readonly PlanRule[] = [
  {
    feature: RECORDS_FEATURE,
    plan: 'professional',
    coordinates: [
      ...atRecordPlan,
      'Query.leads',
      'Query.leadsConnection',
      'Query.lead',
      'Lead.*',
      'Query.search',
      'Mutation.saveLead',
      'Mutation.updateLead',
      'Mutation.updateLeadStatus',
      'Mutation.deleteLead',
    ],
  },
  {
    feature: 'Report generation and bulk export',
    plan: 'professional',
    coordinates: ['Mutation.generateReport', 'Query.report', 'Query.reports', 'ReportJob.*'],
  },
  {
    // Pages, connections and payloads are reached only through the fields above, which carry the plan.
    feature: 'Paging and payload types of the records API',
    plan: 'analyst',
    coordinates: [
      ...open,
      ...RECORD_TYPES.flatMap((type) => [`${type.model}Page.*`, ...connectionTypes('Query', type.connection)]),
      'LeadPage.*',
      ...connectionTypes('Query', 'leadsConnection'),
      'SaveLeadPayload.*',
      'SearchPage.*',
      'SearchHit.*',
      'ReportPage.*',
      'OffsetPageInfo.*',
      'PageInfo.*',
    ],
  },
];

import type { GraphQLSchema } from 'graphql';
import type { PlanRule } from './platform/plans.ts';
import { MARKETS_PLAN_RULES } from './markets/plan-rules.ts';
import { marketsSchema } from './markets/schema.ts';
import { VERTICALS_PLAN_RULES } from './verticals/plan-rules.ts';
import { verticalsSchema } from './verticals/schema.ts';

/** What the gateway's REST tables need of the record types: names, verticals, GraphQL fields and REST shapes. */
export { RECORD_TYPES } from './verticals/record-type/catalog.ts';
export type { RecordType } from './verticals/record-type/define.ts';
/** The verticals subgraph's HTTP side (report worker, download route), attached to whichever app hosts it. */
export { attachVerticalsHttp } from './verticals/http.ts';
export type { VerticalsHttpOptions } from './verticals/http.ts';
export { REPORT_CONTENT_TYPES, REPORT_DOWNLOAD_ROUTE } from './verticals/reports/download.ts';
export type { ReportFileSender } from './verticals/reports/download.ts';
/** Fails the report jobs of an account whose plan or standing no longer allows them (gateway/auth/account-state.ts). */
export { cancelAccountJobs } from './verticals/reports/queue.ts';

/** How far back each plan sees the markets' signals (the plan facts of /account and the billing page). */
export { SIGNAL_HISTORY_DAYS } from './markets/signal-history.ts';

/** How current each ingested public source is (gateway/http/ingest-metrics.ts reads it for /metrics). */
export { sourceStatuses } from './markets/sources/source-status.ts';

/** Every subgraph by name: the gateway composes them and schema/<name>.graphql is printed from them. */
export const SUBGRAPHS: Record<SubgraphName, GraphQLSchema> = {
  verticals: verticalsSchema,
  markets: marketsSchema,
};

export type SubgraphName = 'verticals' | 'markets';

/** The plan table: each subgraph's rules for the fields it defines (gateway/auth/plan-access.ts enforces it). */
export const PLAN_RULES: readonly PlanRule[] = [...VERTICALS_PLAN_RULES, ...MARKETS_PLAN_RULES];

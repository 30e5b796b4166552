/**
 * What the loaders of data that the server runs (gateway/import: the importers, gateway/ingest: the schedule
 * that feeds them) need of the subgraphs: the record types they load, and the markets' names, disclosure rules,
 * webhook events, rollups, briefing and source schedule their rows must agree with. Apart from subgraphs/index.ts,
 * which builds both schemas, so that an import does not.
 */
export { RECORD_TYPES, RECORD_TYPE_NAMES, recordTypeNamed } from './verticals/record-type/catalog.ts';
export type { RecordType } from './verticals/record-type/define.ts';
export { scalarFields } from './verticals/record-type/columns.ts';

export { HONORIFICS, foldName } from './markets/names.ts';
export { parseAmountRange, STOCK_ACT_DEADLINE_DAYS } from './markets/disclosure.ts';
export { FORM4_TRANSACTION_CODES } from './markets/form4-codes.ts';
export { CONGRESSIONAL_TRADE_DISCLOSED, INSIDER_TRADE_FILED, SIGNAL_CREATED } from './markets/webhooks/events.ts';
export { marketPublishingCtes } from './markets/webhooks/event-types.ts';
export { announceMarketChanges } from './markets/webhooks/announcements.ts';
export { MARKET_ROLLUPS, refreshMarketRollups } from './markets/rollups.ts';
export { publishDailyBriefing } from './markets/daily-briefing.ts';
export { BRIEFING_SCHEDULE, nextScheduledRun, SOURCE_SCHEDULES, sourceSchedule } from './markets/sources/catalog.ts';
export type { SourceSchedule } from './markets/sources/catalog.ts';
export { sourceStatuses } from './markets/sources/source-status.ts';
export { MARKETS_PLAN_RULES } from './markets/plan-rules.ts';

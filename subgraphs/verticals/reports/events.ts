import { isoTimestamp, publishingCtes } from '../../platform/webhooks/outbox.ts';
import { reportIds } from './ids.ts';

/**
 * `report.completed` and `report.failed` (docs/webhooks.md): the job as `GET /api/v1/reports/:id` returns it,
 * for the account that queued it. `done` is the job row the worker's UPDATE returned.
 */
const REPORT_DATA = `jsonb_build_object(
  'id', '${reportIds.prefix}_' || r.id, 'status', r.status, 'vertical', r.vertical, 'record_type', r.record_type,
  'format', r.format, 'fields', to_jsonb(r.fields),
  'filters', (SELECT coalesce(jsonb_object_agg(lower(regexp_replace(f.key, '([a-z0-9])([A-Z])', '\\1_\\2', 'g')), f.value),
                              '{}'::jsonb)
                FROM jsonb_each(r.filters) f),
  'progress', r.progress, 'row_count', r.row_count, 'error', r.error, 'created_at', ${isoTimestamp('r.created_at')},
  'started_at', ${isoTimestamp('r.started_at')}, 'completed_at', ${isoTimestamp('r.completed_at')},
  'download_url', CASE WHEN r.status = 'completed' THEN '/api/v1/reports/${reportIds.prefix}_' || r.id || '/download' END)`;

/** The common table expressions that publish the finished job of a CTE named `done`. */
export const reportFinishedEvents = (type: 'report.completed' | 'report.failed') =>
  publishingCtes(`SELECT '${type}' AS type, ${REPORT_DATA} AS data,
                         jsonb_build_object('account_id', r.account_id) AS attributes
                    FROM done r`);

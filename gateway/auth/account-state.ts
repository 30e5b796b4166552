import { cancelAccountJobs } from '../../subgraphs/index.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { applyEndpointStanding } from '../../subgraphs/platform/webhooks/endpoint-standing.ts';
import type { StandingApplied, SuspensionReason } from '../../subgraphs/platform/webhooks/endpoint-standing.ts';
import { planReaches, ruleFor } from './plan-access.ts';

/** What an account may do now: its plan, and whether an operator disabled it. */
export interface AccountState {
  plan: Plan;
  disabled: boolean;
}

export interface AccountStateApplied extends StandingApplied {
  /** Report jobs failed before they ran. */
  reportsCancelled: number;
}

// The plan table decides, as it does for requests: the lowest plan of the fields that create the delayed work.
const WEBHOOKS_RULE = ruleFor('Mutation', 'createWebhookEndpoint');
const REPORTS_RULE = ruleFor('Mutation', 'generateReport');

/**
 * Applies an account's plan and standing to the work whose plan was checked when it was asked for but which runs
 * later (docs/webhooks.md "Plan changes"), in every database (endpoints and jobs live in live and sandbox alike):
 * below the webhook plan, or disabled, its endpoints are suspended (kept, sent nothing, pending deliveries
 * cancelled), and lifted again otherwise; below the report plan, or disabled, its queued and running report jobs
 * fail with the reason. Idempotent: call it after every change of plan or standing.
 */
export async function applyAccountState(
  databases: Record<Mode, Database>,
  accountId: string,
  state: AccountState,
): Promise<Record<Mode, AccountStateApplied>> {
  const suspension: SuspensionReason | null = state.disabled
    ? 'account_disabled'
    : planReaches(state.plan, WEBHOOKS_RULE)
      ? null
      : 'plan_excludes_webhooks';
  const reportsRefusal = state.disabled
    ? 'Cancelled: the account is disabled.'
    : planReaches(state.plan, REPORTS_RULE)
      ? undefined
      : `Cancelled: the account's plan (${state.plan}) no longer includes reports (${REPORTS_RULE?.plan ?? 'none'} and above).`;
  const applied = async (db: Database): Promise<AccountStateApplied> => ({
    ...(await applyEndpointStanding(db.sql, accountId, suspension)),
    reportsCancelled: reportsRefusal === undefined ? 0 : await cancelAccountJobs(db, accountId, reportsRefusal),
  });
  return { live: await applied(databases.live), sandbox: await applied(databases.sandbox) };
}

import type { Plan } from '../platform/plans.ts';

/** How far back each plan sees signals (documents: Analyst 7 days, Professional 90 days, Institutional full). */
export const SIGNAL_HISTORY_DAYS: Record<Plan, number | null> = {
  analyst: 7,
  professional: 90,
  institutional: null,
};

/** The oldest signal time a plan may see, or undefined for full history. */
export function signalHistoryStart(plan: Plan | undefined, now = new Date()): Date | undefined {
  const days = plan ? SIGNAL_HISTORY_DAYS[plan] : SIGNAL_HISTORY_DAYS.analyst;
  return days === null ? undefined : new Date(now.getTime() - days * 86_400_000);
}

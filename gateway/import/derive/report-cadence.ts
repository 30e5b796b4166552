/**
 * When a company's next results 8-K (Item 2.02) is due, from its own Item 2.02 history
 * (docs/data-sources.md "Derived signals and briefings on live data").
 *
 * Reporting follows the fiscal year: the gap after a given quarter's report is much the same every year, while
 * consecutive gaps differ (the fourth quarter waits for the annual audit; Tesla files two 2.02s a quarter, its
 * deliveries and its results, so its gaps alternate about 16 and 75 days and their median predicts neither).
 * So the next report is expected as long after the latest as the report that followed its counterpart a year
 * earlier; without a counterpart (a history shorter than a year), after the median gap of the latest reports.
 */
export interface ReportFiling {
  accession: string;
  /** YYYY-MM-DD */
  filedAt: string;
}

export interface ExpectedReport {
  /** YYYY-MM-DD */
  expected: string;
  method: 'year_ago' | 'median_gap';
  /** The filings the date is inferred from, oldest first: the counterpart and its successor, or the median's run. */
  basis: ReportFiling[];
  latest: ReportFiling;
  gapDays: number;
}

/** Fewer Item 2.02 reports than this give no expected date. */
export const MIN_REPORTS = 3;
/** Filings this close together are one report (a release and its correction, two days of one announcement). */
const SAME_REPORT_DAYS = 7;
/** The counterpart is the report nearest to a year (52 weeks) before the latest, if it is this close to it. */
const COUNTERPART_TOLERANCE_DAYS = 21;
/** The median is taken over the gaps between at most this many latest reports. */
const MEDIAN_REPORTS = 8;

const DAY_MS = 86_400_000;
const time = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Filings in date order, one per report: a filing within 7 days of the report before it is part of it. */
export function reportsOf(filings: readonly ReportFiling[]): ReportFiling[] {
  const sorted = [...filings].sort(
    (a, b) => a.filedAt.localeCompare(b.filedAt) || a.accession.localeCompare(b.accession),
  );
  const reports: ReportFiling[] = [];
  for (const filing of sorted) {
    const last = reports[reports.length - 1];
    if (last && time(filing.filedAt) - time(last.filedAt) < SAME_REPORT_DAYS * DAY_MS) continue;
    reports.push(filing);
  }
  return reports;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** The expected date of the next report, or null for a history of fewer than three reports. */
export function expectedReport(filings: readonly ReportFiling[]): ExpectedReport | null {
  const reports = reportsOf(filings);
  if (reports.length < MIN_REPORTS) return null;
  const latest = reports[reports.length - 1]!;
  const yearBefore = time(latest.filedAt) - 364 * DAY_MS;
  let counterpart = -1;
  reports.slice(0, -1).forEach((report, index) => {
    const distance = Math.abs(time(report.filedAt) - yearBefore);
    if (distance <= COUNTERPART_TOLERANCE_DAYS * DAY_MS) {
      if (counterpart < 0 || distance < Math.abs(time(reports[counterpart]!.filedAt) - yearBefore)) counterpart = index;
    }
  });
  if (counterpart >= 0) {
    const basis = [reports[counterpart]!, reports[counterpart + 1]!];
    const gapDays = Math.round((time(basis[1]!.filedAt) - time(basis[0]!.filedAt)) / DAY_MS);
    return { expected: dayOf(time(latest.filedAt) + gapDays * DAY_MS), method: 'year_ago', basis, latest, gapDays };
  }
  const basis = reports.slice(-MEDIAN_REPORTS);
  const gapDays = median(
    basis.slice(1).map((report, index) => (time(report.filedAt) - time(basis[index]!.filedAt)) / DAY_MS),
  );
  return { expected: dayOf(time(latest.filedAt) + gapDays * DAY_MS), method: 'median_gap', basis, latest, gapDays };
}

/**
 * 8-K items: their titles and how material each is for a market signal. Scores follow what moves prices:
 * bankruptcy, non-reliance on past statements, acquisitions, results and material agreements rank high;
 * Regulation FD, "other events" and exhibits low. A filing scores as its most material item.
 */
const ITEMS: Record<string, { title: string; materiality: number; sentiment?: 'BEARISH' }> = {
  '1.01': { title: 'Entry into a Material Definitive Agreement', materiality: 70 },
  '1.02': { title: 'Termination of a Material Definitive Agreement', materiality: 65, sentiment: 'BEARISH' },
  '1.03': { title: 'Bankruptcy or Receivership', materiality: 98, sentiment: 'BEARISH' },
  '1.04': { title: 'Mine Safety', materiality: 45 },
  '1.05': { title: 'Material Cybersecurity Incidents', materiality: 80, sentiment: 'BEARISH' },
  '2.01': { title: 'Completion of Acquisition or Disposition of Assets', materiality: 78 },
  '2.02': { title: 'Results of Operations and Financial Condition', materiality: 75 },
  '2.03': { title: 'Creation of a Direct Financial Obligation', materiality: 55 },
  '2.04': { title: 'Triggering Events That Accelerate a Financial Obligation', materiality: 80, sentiment: 'BEARISH' },
  '2.05': { title: 'Costs Associated with Exit or Disposal Activities', materiality: 65, sentiment: 'BEARISH' },
  '2.06': { title: 'Material Impairments', materiality: 72, sentiment: 'BEARISH' },
  '3.01': { title: 'Notice of Delisting or Failure to Satisfy a Listing Rule', materiality: 85, sentiment: 'BEARISH' },
  '3.02': { title: 'Unregistered Sales of Equity Securities', materiality: 50 },
  '3.03': { title: 'Material Modification to Rights of Security Holders', materiality: 55 },
  '4.01': { title: "Changes in Registrant's Certifying Accountant", materiality: 65, sentiment: 'BEARISH' },
  '4.02': { title: 'Non-Reliance on Previously Issued Financial Statements', materiality: 92, sentiment: 'BEARISH' },
  '5.01': { title: 'Changes in Control of Registrant', materiality: 85 },
  '5.02': { title: 'Departure or Appointment of Directors or Officers', materiality: 68 },
  '5.03': { title: 'Amendments to Articles of Incorporation or Bylaws', materiality: 35 },
  '5.04': { title: 'Temporary Suspension of Trading Under Employee Benefit Plans', materiality: 30 },
  '5.05': { title: 'Amendments to the Code of Ethics', materiality: 25 },
  '5.06': { title: 'Change in Shell Company Status', materiality: 50 },
  '5.07': { title: 'Submission of Matters to a Vote of Security Holders', materiality: 35 },
  '5.08': { title: 'Shareholder Director Nominations', materiality: 25 },
  '6.01': { title: 'ABS Informational and Computational Material', materiality: 20 },
  '7.01': { title: 'Regulation FD Disclosure', materiality: 40 },
  '8.01': { title: 'Other Events', materiality: 30 },
  '9.01': { title: 'Financial Statements and Exhibits', materiality: 10 },
};

/** `"2.02,9.01"` → `["2.02", "9.01"]`: the item numbers of an 8-K, in order, without duplicates or blanks. */
export function parseItems(text: string | null | undefined): string[] {
  const items = (text ?? '')
    .split(/[,;\s]+/)
    .map((item) => item.trim())
    .filter((item) => /^\d+\.\d{2}$/.test(item));
  return [...new Set(items)];
}

export interface EightKAssessment {
  materiality: number;
  sentiment: 'BULLISH' | 'BEARISH' | 'NEUTRAL';
  urgent: boolean;
  summary: string;
}

/** Materiality (the most material item, +2 for each further substantive item, at most 100), tone and a summary. */
export function assessEightK(companyName: string, ticker: string, items: string[]): EightKAssessment {
  const known = items.map((item) => ({ item, ...(ITEMS[item] ?? { title: 'Unlisted item', materiality: 30 }) }));
  const substantive = known.filter((entry) => entry.item !== '9.01');
  const top = Math.max(10, ...known.map((entry) => entry.materiality));
  const materiality = Math.min(100, top + 2 * Math.max(0, substantive.length - 1));
  const sentiment = known.some((entry) => entry.sentiment === 'BEARISH') ? 'BEARISH' : 'NEUTRAL';
  const described = known.length
    ? known.map((entry) => `Item ${entry.item} ${entry.title}`).join('; ')
    : 'no items listed';
  return {
    materiality,
    sentiment,
    urgent: materiality >= 80,
    summary: `${companyName} (${ticker}) filed an 8-K: ${described}.`,
  };
}

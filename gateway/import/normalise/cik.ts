/** A CIK in EDGAR's ten-digit, zero-padded form (`320193` → `0000320193`), the one form stored. */
export function normaliseCik(raw: string | number | null | undefined): string | null {
  const digits = String(raw ?? '').trim();
  if (!/^\d{1,10}$/.test(digits)) return null;
  return digits.padStart(10, '0');
}

/** The folder EDGAR keeps a filing in: the CIK without its padding and the accession number without dashes. */
export function filingFolderUrl(cik: string, accessionNumber: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accessionNumber.replace(/-/g, '')}`;
}

export const ACCESSION_PATTERN = /\b(\d{10}-\d{2}-\d{6})\b/;

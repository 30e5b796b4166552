import type { UpsertTable } from '../batch-writer.ts';
import { SIGNAL_CREATED } from '../../../subgraphs/data-loading.ts';

/** Filings, keyed by accession number. `fetched_at` is set only by the importer that read the document itself. */
export const FILINGS_TABLE: UpsertTable = {
  table: 'filings',
  columns: {
    accession_number: 'text',
    cik: 'text',
    company_name: 'text',
    ticker: 'text',
    form_type: 'text',
    filed_at: 'date',
    items: 'text[]',
    url: 'text',
    fetched_at: 'timestamp(3)',
  },
  key: ['accession_number'],
  keep: ['fetched_at'],
};

/** Signals, keyed by the source record (`8-K:<accession>`, `form4:<accession>:P`). */
export const SIGNALS_TABLE: UpsertTable = {
  table: 'signals',
  columns: {
    ticker: 'text',
    company_name: 'text',
    signal_type: 'text',
    filing_type: 'text',
    ai_summary: 'text',
    materiality_score: 'int',
    sentiment: 'text',
    urgent: 'boolean',
    source_url: 'text',
    source_key: 'text',
    created_at: 'timestamp(3)',
  },
  key: ['source_key'],
  insertOnly: { id: 'gen_random_uuid()' },
  events: SIGNAL_CREATED,
};

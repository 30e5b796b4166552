import { jsonArrayItems } from '../read/json.ts';
import type { Importer } from '../importer.ts';
import { importTrades } from './congressional-trades.ts';
import type { DisclosedTrade } from './congressional-trades.ts';

/** Senate Stock Watcher's aggregate layout: `senator`, `ptr_link`, and `disclosure_date` in newer copies only. */
interface SenateRecord {
  transaction_date?: string;
  disclosure_date?: string | null;
  owner?: string;
  ticker?: string | null;
  asset_description?: string;
  asset_type?: string;
  type?: string;
  amount?: string;
  senator?: string;
  /** Some copies of the data add the member's Bioguide id. */
  bioguide_id?: string | null;
  ptr_link?: string;
}

async function* senateTrades(files: string[]): AsyncGenerator<{ raw: unknown; trade: DisclosedTrade }> {
  for (const file of files) {
    for await (const raw of jsonArrayItems(file)) {
      const record = (raw ?? {}) as SenateRecord;
      yield {
        raw,
        trade: {
          memberName: record.senator ?? '',
          bioguideId: record.bioguide_id,
          transactionDate: record.transaction_date,
          disclosureDate: record.disclosure_date,
          owner: record.owner,
          ticker: record.ticker,
          assetDescription: record.asset_description,
          assetType: record.asset_type,
          type: record.type,
          amount: record.amount,
          filingUrl: record.ptr_link,
        },
      };
    }
  }
}

export const senateTradesImporter: Importer = {
  source: 'senate-trades',
  describe: 'Senate Stock Watcher all_transactions.json (JSON array; with or without disclosure_date)',
  run: (files, context) => importTrades('senate-trades', 'senate', senateTrades(files), context),
};

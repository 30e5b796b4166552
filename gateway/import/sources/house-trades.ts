import { jsonArrayItems } from '../read/json.ts';
import type { Importer } from '../importer.ts';
import { importTrades } from './congressional-trades.ts';
import type { DisclosedTrade } from './congressional-trades.ts';

/** capitol-watch-data's House layout: `representative`, `district` (`MO04`), `source_url` of the PTR PDF. */
interface HouseRecord {
  disclosure_date?: string | null;
  transaction_date?: string;
  owner?: string;
  ticker?: string | null;
  asset_description?: string;
  type?: string;
  amount?: string;
  representative?: string;
  /** Some copies of the data add the member's Bioguide id. */
  bioguide_id?: string | null;
  district?: string | null;
  source_url?: string;
}

async function* houseTrades(files: string[]): AsyncGenerator<{ raw: unknown; trade: DisclosedTrade }> {
  for (const file of files) {
    for await (const raw of jsonArrayItems(file)) {
      const record = (raw ?? {}) as HouseRecord;
      yield {
        raw,
        trade: {
          memberName: record.representative ?? '',
          bioguideId: record.bioguide_id,
          district: record.district,
          transactionDate: record.transaction_date,
          // A House report always has a filing date; a missing one is a parse error, not "unknown".
          disclosureDate: record.disclosure_date ?? '',
          owner: record.owner,
          ticker: record.ticker,
          assetDescription: record.asset_description,
          type: record.type,
          amount: record.amount,
          filingUrl: record.source_url,
        },
      };
    }
  }
}

export const houseTradesImporter: Importer = {
  source: 'house-trades',
  describe: 'House transactions JSON array (capitol-watch-data layout: representative, district, source_url)',
  run: (files, context) => importTrades('house-trades', 'house', houseTrades(files), context),
};

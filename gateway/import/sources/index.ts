import type { Importer } from '../importer.ts';
import { edgarIndexImporter } from './edgar-index.ts';
import { form4Importer } from './form4.ts';
import { fredImporter } from './fred.ts';
import { houseTradesImporter } from './house-trades.ts';
import { legislatorsHistoricalImporter } from './legislators-historical.ts';
import { membersImporter } from './members.ts';
import { pricesImporter } from './prices.ts';
import { secSubmissionsImporter } from './sec-submissions.ts';
import { secTickersImporter } from './sec-tickers.ts';
import { senateTradesImporter } from './senate-trades.ts';
import { sp500ConstituentsImporter } from './sp500-constituents.ts';
import { treasuryYieldsImporter } from './treasury-yields.ts';

/** Every importer by its source name, in the order a full load runs them (members, then former members, before trades). */
export const IMPORTERS: ReadonlyMap<string, Importer> = new Map(
  [
    membersImporter,
    legislatorsHistoricalImporter,
    secTickersImporter,
    sp500ConstituentsImporter,
    pricesImporter,
    senateTradesImporter,
    houseTradesImporter,
    secSubmissionsImporter,
    form4Importer,
    edgarIndexImporter,
    treasuryYieldsImporter,
    fredImporter,
  ].map((importer) => [importer.source, importer]),
);

import { builder } from './builder.ts';
// Every model file (records/index.ts lists them), then what spans record types.
import './records/index.ts';
import './types/lead.ts';
import './types/search.ts';
import './types/report.ts';

/** The verticals subgraph: business, real-estate and legal records, search, leads and reports. */
export const verticalsSchema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });

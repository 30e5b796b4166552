import { builder } from './builder.ts';
import './types/company.ts';
import './types/contact.ts';
import './types/property.ts';
import './types/owner.ts';
import './types/firm.ts';
import './types/attorney.ts';
import './types/lead.ts';
import './types/search.ts';
import './types/report.ts';

/** The verticals subgraph: business, real-estate and legal records, search, leads and reports. */
export const verticalsSchema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });

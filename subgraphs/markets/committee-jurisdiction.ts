/**
 * Which companies each congressional committee legislates over: committee → GICS sectors and sub-industries,
 * reviewed by hand from each committee's `jurisdiction` text in committees-current.yaml (the unitedstates/
 * congress-legislators file the members importer reads). A trade overlaps a committee when the member sits on it
 * and the traded company's profile falls in one of its sectors or industries (docs/api.md, "Committees").
 *
 * The rule for the review: a committee covers a sector or industry when its jurisdiction names the industry,
 * its products or its federal regulator. Committees over the government's own money and operations (budget,
 * appropriations, oversight, rules, ethics, elections), foreign policy, courts, intelligence or a group of
 * people (veterans, older Americans, tribes) cover nothing: their reach is every company or none, and a flag on
 * every trade says nothing. Every committee name the importer or the seed writes has an entry, so a new
 * committee is a decision made here, not a silent "covers nothing" (test/markets/committees.test.ts).
 */

/** The eleven GICS sectors, spelled as the S&P 500 constituents file spells them. */
export const GICS_SECTORS = [
  'Communication Services',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Information Technology',
  'Materials',
  'Real Estate',
  'Utilities',
] as const;
export type GicsSector = (typeof GICS_SECTORS)[number];

/** The other sector names profiles carry (the seed's, Yahoo/Morningstar style) and their GICS sector. */
const SECTOR_ALIASES: Record<string, GicsSector> = {
  technology: 'Information Technology',
  'financial services': 'Financials',
  healthcare: 'Health Care',
  'consumer cyclical': 'Consumer Discretionary',
  'consumer defensive': 'Consumer Staples',
  'basic materials': 'Materials',
};

const GICS_BY_LOWER = new Map<string, GicsSector>(GICS_SECTORS.map((sector) => [sector.toLowerCase(), sector]));

/** A profile's sector as a GICS sector; null for anything else (a fund's `ETF`, an empty string). */
export function gicsSector(sector: string | null | undefined): GicsSector | null {
  const key = (sector ?? '').trim().toLowerCase();
  return GICS_BY_LOWER.get(key) ?? SECTOR_ALIASES[key] ?? null;
}

interface Jurisdiction {
  sectors: readonly GicsSector[];
  /** GICS sub-industries (or the seed's industry names) covered where the whole sector would be too coarse. */
  industries: readonly string[];
}

const NOTHING: Jurisdiction = { sectors: [], industries: [] };

// Sub-industry lists shared by several committees.
const DEFENSE = ['Aerospace & Defense'];
const TRANSPORTATION = [
  'Air Freight & Logistics',
  'Airport Services',
  'Cargo Ground Transportation',
  'Highways & Railtracks',
  'Marine Ports & Services',
  'Marine Transportation',
  'Passenger Airlines',
  'Passenger Ground Transportation',
  'Rail Transportation',
  // The seed's industry for freight, logistics and ride-hailing companies.
  'Transportation & Logistics',
];
const MINING = [
  'Aluminum',
  'Copper',
  'Diversified Metals & Mining',
  'Gold',
  'Precious Metals & Minerals',
  'Silver',
  'Forest Products',
  'Timber REITs',
];
const FARMING = [
  'Agricultural & Farm Machinery',
  'Fertilizers & Agricultural Chemicals',
  'Forest Products',
  'Paper & Plastic Packaging Products & Materials',
  'Timber REITs',
  // House Rule X 1(a) and the Commodity Exchange Act give both agriculture committees the CFTC.
  'Financial Exchanges & Data',
];
const BANKING: Jurisdiction = { sectors: ['Financials', 'Real Estate'], industries: ['Homebuilding'] };
const MEDICARE: Jurisdiction = { sectors: ['Health Care'], industries: [] };

/** Committee (as stored on members: full committees, no chamber prefix) → what it legislates over. */
export const COMMITTEE_JURISDICTION: Readonly<Record<string, Jurisdiction>> = {
  // House: "agriculture, food, rural development, and forestry"; Senate: "agriculture, food, and nutrition".
  Agriculture: { sectors: ['Consumer Staples'], industries: FARMING },
  'Agriculture, Nutrition, and Forestry': { sectors: ['Consumer Staples'], industries: FARMING },
  // "military and defense".
  'Armed Services': { sectors: [], industries: DEFENSE },
  // "the banking system, housing, insurance, and securities and exchanges"; Senate: banking, housing, urban affairs.
  'Financial Services': BANKING,
  'Banking, Housing, and Urban Affairs': BANKING,
  // "telecommunications, consumer protection, food and drug safety, public health research, environmental quality,
  // energy policy, and interstate and foreign commerce" (FCC, FTC, FDA, DOE, HHS): the broadest committee.
  'Energy and Commerce': {
    sectors: [
      'Energy',
      'Utilities',
      'Health Care',
      'Communication Services',
      'Consumer Staples',
      'Consumer Discretionary',
    ],
    industries: [],
  },
  // "energy resources and development, nuclear energy, ... public lands ..., surface mining, ... water resources".
  'Energy and Natural Resources': { sectors: ['Energy', 'Utilities'], industries: MINING },
  // "American energy production, mineral lands and mining, fisheries and wildlife, public lands, ... irrigation".
  'Natural Resources': { sectors: ['Energy'], industries: [...MINING, 'Water Utilities'] },
  // "environmental protection, resource utilization and conservation, and public infrastructure".
  'Environment and Public Works': {
    sectors: ['Utilities'],
    industries: ['Construction & Engineering', 'Construction Materials', 'Environmental & Facilities Services'],
  },
  // "all modes of transportation", pipelines, clean water and waste water, public buildings; the FAA certifies aircraft.
  'Transportation and Infrastructure': {
    sectors: [],
    industries: [
      ...TRANSPORTATION,
      ...DEFENSE,
      'Construction & Engineering',
      'Oil & Gas Storage & Transportation',
      'Water Utilities',
      'Environmental & Facilities Services',
    ],
  },
  // "science and technology, oceans policy, transportation, communications, and consumer affairs".
  'Commerce, Science, and Transportation': {
    sectors: ['Communication Services', 'Information Technology', 'Consumer Discretionary'],
    industries: [...TRANSPORTATION, ...DEFENSE],
  },
  // NIST, NASA, NSF, civil aviation and non-military research.
  'Science, Space, and Technology': { sectors: ['Information Technology'], industries: DEFENSE },
  // The FDA, CDC and NIH; education; labor and pensions (staffing firms).
  'Health, Education, Labor, and Pensions': {
    sectors: ['Health Care'],
    industries: ['Education Services', 'Human Resource & Employment Services'],
  },
  // "higher and lower education, workforce development ... health, employment, labor, and pensions": employer
  // health plans (ERISA) rather than health care at large.
  'Education and Workforce': {
    sectors: [],
    industries: ['Education Services', 'Human Resource & Employment Services', 'Managed Health Care'],
  },
  // Taxes and tariffs reach every company, so only the part naming an industry counts: Medicare and Medicaid
  // (Finance: "health programs under the Social Security Act such as Medicare, Medicaid"; Ways and Means:
  // "revenue-related aspects of ... Medicare").
  Finance: MEDICARE,
  'Ways and Means': MEDICARE,
  // Foreign Affairs names "the enforcement of the Arms Export Control Act"; arms sales go to both committees.
  'Foreign Affairs': { sectors: [], industries: DEFENSE },
  'Foreign Relations': { sectors: [], industries: DEFENSE },

  // The government's own money: every company or none.
  Appropriations: NOTHING,
  Budget: NOTHING,
  Taxation: NOTHING,
  'Economic Committee': NOTHING,
  // Oversight of federal agencies' own operations ("Oversight and Accountability" is its name in the seed).
  'Oversight and Government Reform': NOTHING,
  'Oversight and Accountability': NOTHING,
  'Homeland Security': NOTHING,
  'Homeland Security and Governmental Affairs': NOTHING,
  // Courts and law enforcement; antitrust and patents reach every sector alike.
  Judiciary: NOTHING,
  // Congress itself.
  'House Administration': NOTHING,
  Rules: NOTHING,
  'Rules and Administration': NOTHING,
  Ethics: NOTHING,
  'Select Committee on Ethics': NOTHING,
  Printing: NOTHING,
  'Committee of Congress on the Library': NOTHING,
  // Intelligence ("Intelligence" is its name in the seed).
  'Permanent Select Committee on Intelligence': NOTHING,
  'Select Committee on Intelligence': NOTHING,
  Intelligence: NOTHING,
  // Programs for a group of people, or the SBA, not an industry.
  "Veterans' Affairs": NOTHING,
  'Indian Affairs': NOTHING,
  'Special Committee on Aging': NOTHING,
  'Small Business': NOTHING,
  'Small Business and Entrepreneurship': NOTHING,
  // Diplomacy, drug policy, and select committees without legislative jurisdiction.
  'Commission on Security and Cooperation in Europe': NOTHING,
  'United States Senate Caucus on International Narcotics Control': NOTHING,
  'Select Committee on the Strategic Competition Between the United States and the Chinese Communist Party': NOTHING,
  'Select Subcommittee to Investigate the Remaining Questions Surrounding January 6, 2021': NOTHING,
};

const COVERAGE = new Map(
  Object.entries(COMMITTEE_JURISDICTION).map(([name, jurisdiction]) => [
    name,
    { sectors: new Set<string>(jurisdiction.sectors), industries: new Set(jurisdiction.industries.map(fold)) },
  ]),
);

function fold(text: string): string {
  return text.trim().toLowerCase();
}

/** Whether a committee's jurisdiction covers a company of this profile sector and industry. */
export function coversCompany(committee: string, sector: string | null, industry: string | null): boolean {
  const coverage = COVERAGE.get(committee);
  if (!coverage) return false;
  const gics = gicsSector(sector);
  if (gics && coverage.sectors.has(gics)) return true;
  return industry !== null && coverage.industries.has(fold(industry));
}

/** The member's committees whose jurisdiction covers the company, in the member's order; none without a sector. */
export function overlappingCommittees(
  committees: readonly string[],
  sector: string | null,
  industry: string | null,
): string[] {
  if (!sector) return [];
  return committees.filter((committee) => coversCompany(committee, sector, industry));
}

/**
 * The industries of the business vertical. `token` is the documented filter value (`industry=software`),
 * `name` the display name. Revenue is employees × revenue per employee drawn from the industry's band (US
 * figures: software and finance earn several times per head what hospitality does), so the two never
 * contradict each other. `hubs` multiply a state's weight where the industry clusters.
 */
export interface Industry {
  token: string;
  name: string;
  /** Share of companies, relative. */
  weight: number;
  /** Median headcount of a private company in the industry; sizes spread log-normally around it. */
  employeesMedian: number;
  revenuePerEmployee: readonly [low: number, high: number];
  /** Words a company of the industry puts in its name ("Brennan Analytics Inc."). */
  nouns: readonly string[];
  /** Added to the mean AI score: how much the industry buys data tooling. */
  aiBias: number;
  hubs: Readonly<Record<string, number>>;
}

export const INDUSTRIES: readonly Industry[] = [
  { token: 'software', name: 'Software', weight: 12, employeesMedian: 45, revenuePerEmployee: [150_000, 600_000], nouns: ['Software', 'Analytics', 'Labs', 'Systems', 'Cloud', 'Data', 'AI', 'Technologies'], aiBias: 10, hubs: { CA: 2.2, WA: 1.8, NY: 1.4, MA: 1.6, TX: 1.2, CO: 1.3 } },
  { token: 'financial_services', name: 'Financial Services', weight: 7, employeesMedian: 60, revenuePerEmployee: [250_000, 1_200_000], nouns: ['Capital', 'Financial', 'Partners', 'Wealth', 'Advisors', 'Bancorp'], aiBias: 6, hubs: { NY: 2.5, CT: 2, IL: 1.3, NC: 1.3 } },
  { token: 'healthcare', name: 'Healthcare', weight: 8, employeesMedian: 80, revenuePerEmployee: [90_000, 250_000], nouns: ['Health', 'Medical', 'Care', 'Clinics', 'Health Partners'], aiBias: 2, hubs: { TN: 1.6, MN: 1.4, MA: 1.2 } },
  { token: 'biotechnology', name: 'Biotechnology', weight: 3, employeesMedian: 40, revenuePerEmployee: [150_000, 700_000], nouns: ['Therapeutics', 'Bio', 'Biosciences', 'Genomics'], aiBias: 8, hubs: { MA: 3, CA: 2, NJ: 1.6, MD: 1.5 } },
  { token: 'pharmaceuticals', name: 'Pharmaceuticals', weight: 2, employeesMedian: 120, revenuePerEmployee: [300_000, 900_000], nouns: ['Pharmaceuticals', 'Pharma', 'Laboratories'], aiBias: 5, hubs: { NJ: 3, PA: 1.6, MA: 1.4 } },
  { token: 'semiconductors', name: 'Semiconductors', weight: 1.5, employeesMedian: 90, revenuePerEmployee: [250_000, 900_000], nouns: ['Semiconductor', 'Microsystems', 'Silicon', 'Devices'], aiBias: 9, hubs: { CA: 3, TX: 1.8, AZ: 1.8, OR: 1.5 } },
  { token: 'hardware', name: 'Computer Hardware', weight: 1.5, employeesMedian: 70, revenuePerEmployee: [200_000, 700_000], nouns: ['Devices', 'Electronics', 'Networks', 'Hardware'], aiBias: 6, hubs: { CA: 2.5, TX: 1.5 } },
  { token: 'telecommunications', name: 'Telecommunications', weight: 2, employeesMedian: 70, revenuePerEmployee: [250_000, 700_000], nouns: ['Communications', 'Telecom', 'Wireless', 'Networks'], aiBias: 3, hubs: { TX: 1.3, NY: 1.2 } },
  { token: 'media_entertainment', name: 'Media & Entertainment', weight: 3, employeesMedian: 35, revenuePerEmployee: [120_000, 450_000], nouns: ['Media', 'Studios', 'Entertainment', 'Pictures', 'Publishing'], aiBias: 4, hubs: { CA: 2, NY: 2 } },
  { token: 'retail', name: 'Retail', weight: 8, employeesMedian: 40, revenuePerEmployee: [100_000, 350_000], nouns: ['Outfitters', 'Supply', 'Market', 'Goods', 'Stores'], aiBias: -2, hubs: {} },
  { token: 'consumer_goods', name: 'Consumer Goods', weight: 4, employeesMedian: 60, revenuePerEmployee: [180_000, 550_000], nouns: ['Brands', 'Products', 'Home', 'Essentials'], aiBias: 0, hubs: { OH: 1.3, NY: 1.2 } },
  { token: 'food_beverage', name: 'Food & Beverage', weight: 4, employeesMedian: 50, revenuePerEmployee: [120_000, 450_000], nouns: ['Foods', 'Beverage', 'Provisions', 'Kitchens', 'Farms'], aiBias: -3, hubs: { IL: 1.3, MN: 1.3, WI: 1.4 } },
  { token: 'manufacturing', name: 'Manufacturing', weight: 8, employeesMedian: 120, revenuePerEmployee: [150_000, 450_000], nouns: ['Manufacturing', 'Industries', 'Fabrication', 'Materials', 'Works'], aiBias: -4, hubs: { OH: 1.6, MI: 1.6, IN: 1.6, WI: 1.5, PA: 1.3 } },
  { token: 'aerospace_defense', name: 'Aerospace & Defense', weight: 1.5, employeesMedian: 150, revenuePerEmployee: [200_000, 500_000], nouns: ['Aerospace', 'Defense', 'Aviation', 'Dynamics'], aiBias: 4, hubs: { VA: 2.5, WA: 1.8, CA: 1.4, CO: 1.5, AL: 1.5 } },
  { token: 'automotive', name: 'Automotive', weight: 2, employeesMedian: 110, revenuePerEmployee: [200_000, 600_000], nouns: ['Automotive', 'Motors', 'Mobility', 'Auto Parts'], aiBias: -1, hubs: { MI: 4, OH: 1.5, TN: 1.5 } },
  { token: 'energy', name: 'Energy', weight: 3, employeesMedian: 60, revenuePerEmployee: [400_000, 2_000_000], nouns: ['Energy', 'Resources', 'Petroleum', 'Power', 'Solar'], aiBias: 0, hubs: { TX: 3, OK: 2.5, ND: 2, LA: 1.8, CO: 1.4 } },
  { token: 'utilities', name: 'Utilities', weight: 1, employeesMedian: 150, revenuePerEmployee: [400_000, 1_200_000], nouns: ['Electric', 'Power', 'Utilities', 'Water'], aiBias: -2, hubs: {} },
  { token: 'real_estate', name: 'Real Estate', weight: 6, employeesMedian: 20, revenuePerEmployee: [150_000, 800_000], nouns: ['Realty', 'Properties', 'Real Estate', 'Development'], aiBias: -1, hubs: { FL: 1.5, NY: 1.3, TX: 1.2 } },
  { token: 'construction', name: 'Construction', weight: 6, employeesMedian: 35, revenuePerEmployee: [150_000, 450_000], nouns: ['Construction', 'Builders', 'Contracting', 'Homes'], aiBias: -6, hubs: { TX: 1.3, FL: 1.3, AZ: 1.2 } },
  { token: 'transportation_logistics', name: 'Transportation & Logistics', weight: 4, employeesMedian: 60, revenuePerEmployee: [120_000, 400_000], nouns: ['Logistics', 'Freight', 'Transport', 'Shipping'], aiBias: -2, hubs: { TN: 1.5, IL: 1.4, GA: 1.3 } },
  { token: 'hospitality', name: 'Hospitality', weight: 5, employeesMedian: 45, revenuePerEmployee: [40_000, 120_000], nouns: ['Hospitality', 'Hotels', 'Restaurants', 'Resorts', 'Group'], aiBias: -7, hubs: { NV: 2.5, FL: 1.6, HI: 2 } },
  { token: 'insurance', name: 'Insurance', weight: 3, employeesMedian: 70, revenuePerEmployee: [300_000, 1_000_000], nouns: ['Insurance', 'Assurance', 'Mutual', 'Underwriters'], aiBias: 3, hubs: { CT: 3, NE: 1.8, IL: 1.4 } },
  { token: 'professional_services', name: 'Professional Services', weight: 6, employeesMedian: 30, revenuePerEmployee: [100_000, 300_000], nouns: ['Consulting', 'Advisory', 'Solutions', 'Associates', 'Group'], aiBias: 2, hubs: { DC: 2, VA: 1.5, NY: 1.2 } },
];

export const INDUSTRY_BY_TOKEN: ReadonlyMap<string, Industry> = new Map(INDUSTRIES.map((item) => [item.token, item]));

export function industryOf(token: string): Industry {
  const industry = INDUSTRY_BY_TOKEN.get(token);
  if (!industry) throw new Error(`unknown industry ${token}`);
  return industry;
}

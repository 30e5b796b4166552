/**
 * Well-known US listings: the companies that link the business vertical to market data by ticker. Each
 * entry: ticker, company name, sector, the business vertical's industry token, headquarters city and state,
 * and an approximate market cap in $ billions (orders of magnitude only; it sizes the company, its trading
 * volume and how often it shows up in signals). Sorted by cap below, so small scales keep the best-known.
 */
export interface Ticker {
  ticker: string;
  name: string;
  sector: string;
  industry: string;
  city: string;
  state: string;
  capBillions: number;
  /** SEC Central Index Key, zero-padded to ten digits as EDGAR writes it. */
  cik: string;
}

type Raw = readonly [string, string, string, string, string, string, number];

const RAW: readonly Raw[] = [
  ['AAPL', 'Apple Inc.', 'Technology', 'hardware', 'Cupertino', 'CA', 3400], ['MSFT', 'Microsoft Corporation', 'Technology', 'software', 'Redmond', 'WA', 3300],
  ['NVDA', 'NVIDIA Corporation', 'Technology', 'semiconductors', 'Santa Clara', 'CA', 3500], ['AVGO', 'Broadcom Inc.', 'Technology', 'semiconductors', 'Palo Alto', 'CA', 1100],
  ['ORCL', 'Oracle Corporation', 'Technology', 'software', 'Austin', 'TX', 500], ['CRM', 'Salesforce, Inc.', 'Technology', 'software', 'San Francisco', 'CA', 280],
  ['ADBE', 'Adobe Inc.', 'Technology', 'software', 'San Jose', 'CA', 180], ['AMD', 'Advanced Micro Devices, Inc.', 'Technology', 'semiconductors', 'Santa Clara', 'CA', 230],
  ['CSCO', 'Cisco Systems, Inc.', 'Technology', 'hardware', 'San Jose', 'CA', 240], ['INTC', 'Intel Corporation', 'Technology', 'semiconductors', 'Santa Clara', 'CA', 100],
  ['QCOM', 'QUALCOMM Incorporated', 'Technology', 'semiconductors', 'San Diego', 'CA', 180], ['TXN', 'Texas Instruments Incorporated', 'Technology', 'semiconductors', 'Dallas', 'TX', 170],
  ['IBM', 'International Business Machines Corporation', 'Technology', 'software', 'Armonk', 'NY', 230], ['NOW', 'ServiceNow, Inc.', 'Technology', 'software', 'Santa Clara', 'CA', 200],
  ['INTU', 'Intuit Inc.', 'Technology', 'software', 'Mountain View', 'CA', 180], ['AMAT', 'Applied Materials, Inc.', 'Technology', 'semiconductors', 'Santa Clara', 'CA', 140],
  ['MU', 'Micron Technology, Inc.', 'Technology', 'semiconductors', 'Boise', 'ID', 110], ['LRCX', 'Lam Research Corporation', 'Technology', 'semiconductors', 'Fremont', 'CA', 100],
  ['KLAC', 'KLA Corporation', 'Technology', 'semiconductors', 'Milpitas', 'CA', 95], ['ADI', 'Analog Devices, Inc.', 'Technology', 'semiconductors', 'Wilmington', 'MA', 110],
  ['PANW', 'Palo Alto Networks, Inc.', 'Technology', 'software', 'Santa Clara', 'CA', 120], ['SNPS', 'Synopsys, Inc.', 'Technology', 'software', 'Sunnyvale', 'CA', 80],
  ['CDNS', 'Cadence Design Systems, Inc.', 'Technology', 'software', 'San Jose', 'CA', 85], ['CRWD', 'CrowdStrike Holdings, Inc.', 'Technology', 'software', 'Austin', 'TX', 100],
  ['PLTR', 'Palantir Technologies Inc.', 'Technology', 'software', 'Denver', 'CO', 250], ['SNOW', 'Snowflake Inc.', 'Technology', 'software', 'Bozeman', 'MT', 60],
  ['WDAY', 'Workday, Inc.', 'Technology', 'software', 'Pleasanton', 'CA', 70], ['DELL', 'Dell Technologies Inc.', 'Technology', 'hardware', 'Round Rock', 'TX', 80],
  ['HPQ', 'HP Inc.', 'Technology', 'hardware', 'Palo Alto', 'CA', 30], ['ANET', 'Arista Networks, Inc.', 'Technology', 'hardware', 'Santa Clara', 'CA', 120],
  ['FTNT', 'Fortinet, Inc.', 'Technology', 'software', 'Sunnyvale', 'CA', 75], ['ADSK', 'Autodesk, Inc.', 'Technology', 'software', 'San Francisco', 'CA', 65],
  ['MRVL', 'Marvell Technology, Inc.', 'Technology', 'semiconductors', 'Santa Clara', 'CA', 70], ['DDOG', 'Datadog, Inc.', 'Technology', 'software', 'New York', 'NY', 45],
  ['UBER', 'Uber Technologies, Inc.', 'Technology', 'transportation_logistics', 'San Francisco', 'CA', 160], ['GOOGL', 'Alphabet Inc.', 'Communication Services', 'software', 'Mountain View', 'CA', 2300],
  ['META', 'Meta Platforms, Inc.', 'Communication Services', 'software', 'Menlo Park', 'CA', 1600], ['NFLX', 'Netflix, Inc.', 'Communication Services', 'media_entertainment', 'Los Gatos', 'CA', 450],
  ['DIS', 'The Walt Disney Company', 'Communication Services', 'media_entertainment', 'Burbank', 'CA', 200], ['CMCSA', 'Comcast Corporation', 'Communication Services', 'telecommunications', 'Philadelphia', 'PA', 140],
  ['T', 'AT&T Inc.', 'Communication Services', 'telecommunications', 'Dallas', 'TX', 190], ['VZ', 'Verizon Communications Inc.', 'Communication Services', 'telecommunications', 'New York', 'NY', 180],
  ['TMUS', 'T-Mobile US, Inc.', 'Communication Services', 'telecommunications', 'Bellevue', 'WA', 270], ['CHTR', 'Charter Communications, Inc.', 'Communication Services', 'telecommunications', 'Stamford', 'CT', 55],
  ['EA', 'Electronic Arts Inc.', 'Communication Services', 'media_entertainment', 'Redwood City', 'CA', 40], ['WBD', 'Warner Bros. Discovery, Inc.', 'Communication Services', 'media_entertainment', 'New York', 'NY', 25],
  ['AMZN', 'Amazon.com, Inc.', 'Consumer Cyclical', 'retail', 'Seattle', 'WA', 2200], ['TSLA', 'Tesla, Inc.', 'Consumer Cyclical', 'automotive', 'Austin', 'TX', 1000],
  ['HD', 'The Home Depot, Inc.', 'Consumer Cyclical', 'retail', 'Atlanta', 'GA', 390], ['MCD', "McDonald's Corporation", 'Consumer Cyclical', 'hospitality', 'Chicago', 'IL', 210],
  ['NKE', 'NIKE, Inc.', 'Consumer Cyclical', 'consumer_goods', 'Beaverton', 'OR', 100], ['LOW', "Lowe's Companies, Inc.", 'Consumer Cyclical', 'retail', 'Mooresville', 'NC', 130],
  ['SBUX', 'Starbucks Corporation', 'Consumer Cyclical', 'hospitality', 'Seattle', 'WA', 100], ['BKNG', 'Booking Holdings Inc.', 'Consumer Cyclical', 'hospitality', 'Norwalk', 'CT', 160],
  ['TJX', 'The TJX Companies, Inc.', 'Consumer Cyclical', 'retail', 'Framingham', 'MA', 140], ['GM', 'General Motors Company', 'Consumer Cyclical', 'automotive', 'Detroit', 'MI', 50],
  ['F', 'Ford Motor Company', 'Consumer Cyclical', 'automotive', 'Dearborn', 'MI', 42], ['MAR', 'Marriott International, Inc.', 'Consumer Cyclical', 'hospitality', 'Bethesda', 'MD', 75],
  ['HLT', 'Hilton Worldwide Holdings Inc.', 'Consumer Cyclical', 'hospitality', 'McLean', 'VA', 60], ['CMG', 'Chipotle Mexican Grill, Inc.', 'Consumer Cyclical', 'hospitality', 'Newport Beach', 'CA', 75],
  ['ABNB', 'Airbnb, Inc.', 'Consumer Cyclical', 'hospitality', 'San Francisco', 'CA', 85], ['ORLY', "O'Reilly Automotive, Inc.", 'Consumer Cyclical', 'retail', 'Springfield', 'MO', 75],
  ['EBAY', 'eBay Inc.', 'Consumer Cyclical', 'retail', 'San Jose', 'CA', 35], ['ROST', 'Ross Stores, Inc.', 'Consumer Cyclical', 'retail', 'Dublin', 'CA', 48],
  ['DHI', 'D.R. Horton, Inc.', 'Consumer Cyclical', 'construction', 'Arlington', 'TX', 45], ['LEN', 'Lennar Corporation', 'Consumer Cyclical', 'construction', 'Miami', 'FL', 35],
  ['WMT', 'Walmart Inc.', 'Consumer Defensive', 'retail', 'Bentonville', 'AR', 750], ['COST', 'Costco Wholesale Corporation', 'Consumer Defensive', 'retail', 'Issaquah', 'WA', 420],
  ['PG', 'The Procter & Gamble Company', 'Consumer Defensive', 'consumer_goods', 'Cincinnati', 'OH', 380], ['KO', 'The Coca-Cola Company', 'Consumer Defensive', 'food_beverage', 'Atlanta', 'GA', 300],
  ['PEP', 'PepsiCo, Inc.', 'Consumer Defensive', 'food_beverage', 'Purchase', 'NY', 200], ['PM', 'Philip Morris International Inc.', 'Consumer Defensive', 'consumer_goods', 'Stamford', 'CT', 250],
  ['MO', 'Altria Group, Inc.', 'Consumer Defensive', 'consumer_goods', 'Richmond', 'VA', 100], ['MDLZ', 'Mondelez International, Inc.', 'Consumer Defensive', 'food_beverage', 'Chicago', 'IL', 85],
  ['CL', 'Colgate-Palmolive Company', 'Consumer Defensive', 'consumer_goods', 'New York', 'NY', 75], ['TGT', 'Target Corporation', 'Consumer Defensive', 'retail', 'Minneapolis', 'MN', 45],
  ['KR', 'The Kroger Co.', 'Consumer Defensive', 'retail', 'Cincinnati', 'OH', 45], ['GIS', 'General Mills, Inc.', 'Consumer Defensive', 'food_beverage', 'Minneapolis', 'MN', 30],
  ['KMB', 'Kimberly-Clark Corporation', 'Consumer Defensive', 'consumer_goods', 'Irving', 'TX', 45], ['HSY', 'The Hershey Company', 'Consumer Defensive', 'food_beverage', 'Hershey', 'PA', 35],
  ['BRK-B', 'Berkshire Hathaway Inc.', 'Financial Services', 'insurance', 'Omaha', 'NE', 1050], ['JPM', 'JPMorgan Chase & Co.', 'Financial Services', 'financial_services', 'New York', 'NY', 700],
  ['V', 'Visa Inc.', 'Financial Services', 'financial_services', 'San Francisco', 'CA', 650], ['MA', 'Mastercard Incorporated', 'Financial Services', 'financial_services', 'Purchase', 'NY', 520],
  ['BAC', 'Bank of America Corporation', 'Financial Services', 'financial_services', 'Charlotte', 'NC', 330], ['WFC', 'Wells Fargo & Company', 'Financial Services', 'financial_services', 'San Francisco', 'CA', 250],
  ['GS', 'The Goldman Sachs Group, Inc.', 'Financial Services', 'financial_services', 'New York', 'NY', 200], ['MS', 'Morgan Stanley', 'Financial Services', 'financial_services', 'New York', 'NY', 210],
  ['C', 'Citigroup Inc.', 'Financial Services', 'financial_services', 'New York', 'NY', 150], ['AXP', 'American Express Company', 'Financial Services', 'financial_services', 'New York', 'NY', 210],
  ['SCHW', 'The Charles Schwab Corporation', 'Financial Services', 'financial_services', 'Westlake', 'TX', 160], ['BLK', 'BlackRock, Inc.', 'Financial Services', 'financial_services', 'New York', 'NY', 160],
  ['SPGI', 'S&P Global Inc.', 'Financial Services', 'financial_services', 'New York', 'NY', 160], ['PGR', 'The Progressive Corporation', 'Financial Services', 'insurance', 'Mayfield Village', 'OH', 150],
  ['MMC', 'Marsh & McLennan Companies, Inc.', 'Financial Services', 'insurance', 'New York', 'NY', 110], ['PYPL', 'PayPal Holdings, Inc.', 'Financial Services', 'financial_services', 'San Jose', 'CA', 70],
  ['COF', 'Capital One Financial Corporation', 'Financial Services', 'financial_services', 'McLean', 'VA', 130], ['USB', 'U.S. Bancorp', 'Financial Services', 'financial_services', 'Minneapolis', 'MN', 70],
  ['PNC', 'The PNC Financial Services Group, Inc.', 'Financial Services', 'financial_services', 'Pittsburgh', 'PA', 75], ['MET', 'MetLife, Inc.', 'Financial Services', 'insurance', 'New York', 'NY', 55],
  ['AIG', 'American International Group, Inc.', 'Financial Services', 'insurance', 'New York', 'NY', 45], ['ALL', 'The Allstate Corporation', 'Financial Services', 'insurance', 'Northbrook', 'IL', 50],
  ['ICE', 'Intercontinental Exchange, Inc.', 'Financial Services', 'financial_services', 'Atlanta', 'GA', 95], ['CME', 'CME Group Inc.', 'Financial Services', 'financial_services', 'Chicago', 'IL', 95],
  ['KKR', 'KKR & Co. Inc.', 'Financial Services', 'financial_services', 'New York', 'NY', 110], ['BX', 'Blackstone Inc.', 'Financial Services', 'financial_services', 'New York', 'NY', 180],
  ['COIN', 'Coinbase Global, Inc.', 'Financial Services', 'financial_services', 'Wilmington', 'DE', 70], ['LLY', 'Eli Lilly and Company', 'Healthcare', 'pharmaceuticals', 'Indianapolis', 'IN', 750],
  ['UNH', 'UnitedHealth Group Incorporated', 'Healthcare', 'healthcare', 'Minnetonka', 'MN', 300], ['JNJ', 'Johnson & Johnson', 'Healthcare', 'pharmaceuticals', 'New Brunswick', 'NJ', 380],
  ['ABBV', 'AbbVie Inc.', 'Healthcare', 'pharmaceuticals', 'North Chicago', 'IL', 330], ['MRK', 'Merck & Co., Inc.', 'Healthcare', 'pharmaceuticals', 'Rahway', 'NJ', 210],
  ['PFE', 'Pfizer Inc.', 'Healthcare', 'pharmaceuticals', 'New York', 'NY', 140], ['TMO', 'Thermo Fisher Scientific Inc.', 'Healthcare', 'healthcare', 'Waltham', 'MA', 170],
  ['ABT', 'Abbott Laboratories', 'Healthcare', 'healthcare', 'Abbott Park', 'IL', 220], ['DHR', 'Danaher Corporation', 'Healthcare', 'healthcare', 'Washington', 'DC', 140],
  ['AMGN', 'Amgen Inc.', 'Healthcare', 'biotechnology', 'Thousand Oaks', 'CA', 150], ['ISRG', 'Intuitive Surgical, Inc.', 'Healthcare', 'healthcare', 'Sunnyvale', 'CA', 180],
  ['GILD', 'Gilead Sciences, Inc.', 'Healthcare', 'biotechnology', 'Foster City', 'CA', 130], ['VRTX', 'Vertex Pharmaceuticals Incorporated', 'Healthcare', 'biotechnology', 'Boston', 'MA', 110],
  ['REGN', 'Regeneron Pharmaceuticals, Inc.', 'Healthcare', 'biotechnology', 'Tarrytown', 'NY', 65], ['BMY', 'Bristol-Myers Squibb Company', 'Healthcare', 'pharmaceuticals', 'Princeton', 'NJ', 95],
  ['CVS', 'CVS Health Corporation', 'Healthcare', 'healthcare', 'Woonsocket', 'RI', 85], ['ELV', 'Elevance Health, Inc.', 'Healthcare', 'healthcare', 'Indianapolis', 'IN', 80],
  ['CI', 'The Cigna Group', 'Healthcare', 'healthcare', 'Bloomfield', 'CT', 80], ['HCA', 'HCA Healthcare, Inc.', 'Healthcare', 'healthcare', 'Nashville', 'TN', 95],
  ['SYK', 'Stryker Corporation', 'Healthcare', 'healthcare', 'Kalamazoo', 'MI', 140], ['BSX', 'Boston Scientific Corporation', 'Healthcare', 'healthcare', 'Marlborough', 'MA', 150],
  ['ZTS', 'Zoetis Inc.', 'Healthcare', 'pharmaceuticals', 'Parsippany', 'NJ', 70], ['MRNA', 'Moderna, Inc.', 'Healthcare', 'biotechnology', 'Cambridge', 'MA', 12],
  ['BIIB', 'Biogen Inc.', 'Healthcare', 'biotechnology', 'Cambridge', 'MA', 20], ['GE', 'GE Aerospace', 'Industrials', 'aerospace_defense', 'Cincinnati', 'OH', 280],
  ['CAT', 'Caterpillar Inc.', 'Industrials', 'manufacturing', 'Irving', 'TX', 200], ['RTX', 'RTX Corporation', 'Industrials', 'aerospace_defense', 'Arlington', 'VA', 200],
  ['HON', 'Honeywell International Inc.', 'Industrials', 'manufacturing', 'Charlotte', 'NC', 140], ['UNP', 'Union Pacific Corporation', 'Industrials', 'transportation_logistics', 'Omaha', 'NE', 140],
  ['BA', 'The Boeing Company', 'Industrials', 'aerospace_defense', 'Arlington', 'VA', 160], ['LMT', 'Lockheed Martin Corporation', 'Industrials', 'aerospace_defense', 'Bethesda', 'MD', 110],
  ['DE', 'Deere & Company', 'Industrials', 'manufacturing', 'Moline', 'IL', 130], ['UPS', 'United Parcel Service, Inc.', 'Industrials', 'transportation_logistics', 'Atlanta', 'GA', 85],
  ['ADP', 'Automatic Data Processing, Inc.', 'Industrials', 'professional_services', 'Roseland', 'NJ', 120], ['NOC', 'Northrop Grumman Corporation', 'Industrials', 'aerospace_defense', 'Falls Church', 'VA', 80],
  ['GD', 'General Dynamics Corporation', 'Industrials', 'aerospace_defense', 'Reston', 'VA', 85], ['MMM', '3M Company', 'Industrials', 'manufacturing', 'Saint Paul', 'MN', 80],
  ['FDX', 'FedEx Corporation', 'Industrials', 'transportation_logistics', 'Memphis', 'TN', 60], ['CSX', 'CSX Corporation', 'Industrials', 'transportation_logistics', 'Jacksonville', 'FL', 65],
  ['NSC', 'Norfolk Southern Corporation', 'Industrials', 'transportation_logistics', 'Atlanta', 'GA', 60], ['WM', 'Waste Management, Inc.', 'Industrials', 'professional_services', 'Houston', 'TX', 90],
  ['EMR', 'Emerson Electric Co.', 'Industrials', 'manufacturing', 'St. Louis', 'MO', 75], ['ITW', 'Illinois Tool Works Inc.', 'Industrials', 'manufacturing', 'Glenview', 'IL', 75],
  ['DAL', 'Delta Air Lines, Inc.', 'Industrials', 'transportation_logistics', 'Atlanta', 'GA', 38], ['UAL', 'United Airlines Holdings, Inc.', 'Industrials', 'transportation_logistics', 'Chicago', 'IL', 30],
  ['LUV', 'Southwest Airlines Co.', 'Industrials', 'transportation_logistics', 'Dallas', 'TX', 18], ['PWR', 'Quanta Services, Inc.', 'Industrials', 'construction', 'Houston', 'TX', 50],
  ['XOM', 'Exxon Mobil Corporation', 'Energy', 'energy', 'Spring', 'TX', 480], ['CVX', 'Chevron Corporation', 'Energy', 'energy', 'Houston', 'TX', 270],
  ['COP', 'ConocoPhillips', 'Energy', 'energy', 'Houston', 'TX', 120], ['EOG', 'EOG Resources, Inc.', 'Energy', 'energy', 'Houston', 'TX', 65],
  ['OXY', 'Occidental Petroleum Corporation', 'Energy', 'energy', 'Houston', 'TX', 45], ['PSX', 'Phillips 66', 'Energy', 'energy', 'Houston', 'TX', 50],
  ['MPC', 'Marathon Petroleum Corporation', 'Energy', 'energy', 'Findlay', 'OH', 50], ['KMI', 'Kinder Morgan, Inc.', 'Energy', 'energy', 'Houston', 'TX', 60],
  ['NEE', 'NextEra Energy, Inc.', 'Utilities', 'utilities', 'Juno Beach', 'FL', 150], ['DUK', 'Duke Energy Corporation', 'Utilities', 'utilities', 'Charlotte', 'NC', 90],
  ['SO', 'The Southern Company', 'Utilities', 'utilities', 'Atlanta', 'GA', 95], ['D', 'Dominion Energy, Inc.', 'Utilities', 'utilities', 'Richmond', 'VA', 47],
  ['AEP', 'American Electric Power Company, Inc.', 'Utilities', 'utilities', 'Columbus', 'OH', 55], ['PLD', 'Prologis, Inc.', 'Real Estate', 'real_estate', 'San Francisco', 'CA', 100],
  ['AMT', 'American Tower Corporation', 'Real Estate', 'real_estate', 'Boston', 'MA', 90], ['EQIX', 'Equinix, Inc.', 'Real Estate', 'real_estate', 'Redwood City', 'CA', 80],
  ['SPG', 'Simon Property Group, Inc.', 'Real Estate', 'real_estate', 'Indianapolis', 'IN', 55], ['O', 'Realty Income Corporation', 'Real Estate', 'real_estate', 'San Diego', 'CA', 50],
  ['PSA', 'Public Storage', 'Real Estate', 'real_estate', 'Glendale', 'CA', 50], ['SHW', 'The Sherwin-Williams Company', 'Basic Materials', 'manufacturing', 'Cleveland', 'OH', 85],
  ['APD', 'Air Products and Chemicals, Inc.', 'Basic Materials', 'manufacturing', 'Allentown', 'PA', 65], ['FCX', 'Freeport-McMoRan Inc.', 'Basic Materials', 'manufacturing', 'Phoenix', 'AZ', 60],
  ['NEM', 'Newmont Corporation', 'Basic Materials', 'manufacturing', 'Denver', 'CO', 60], ['NUE', 'Nucor Corporation', 'Basic Materials', 'manufacturing', 'Charlotte', 'NC', 30],
];

/** The real CIKs (from SEC's company_tickers.json), so signal links point at the right EDGAR folder. */
const CIKS: Readonly<Record<string, number>> = {
  AAPL: 320193, MSFT: 789019, NVDA: 1045810, AVGO: 1730168, ORCL: 1341439, CRM: 1108524, ADBE: 796343, AMD: 2488,
  CSCO: 858877, INTC: 50863, QCOM: 804328, TXN: 97476, IBM: 51143, NOW: 1373715, INTU: 896878, AMAT: 6951,
  MU: 723125, LRCX: 707549, KLAC: 319201, ADI: 6281, PANW: 1327567, SNPS: 883241, CDNS: 813672, CRWD: 1535527,
  PLTR: 1321655, SNOW: 1640147, WDAY: 1327811, DELL: 1571996, HPQ: 47217, ANET: 1596532, FTNT: 1262039,
  ADSK: 769397, MRVL: 1835632, DDOG: 1561550, UBER: 1543151, GOOGL: 1652044, META: 1326801, NFLX: 1065280,
  DIS: 1744489, CMCSA: 1166691, T: 732717, VZ: 732712, TMUS: 1283699, CHTR: 1091667, EA: 712515, WBD: 1437107,
  AMZN: 1018724, TSLA: 1318605, HD: 354950, MCD: 63908, NKE: 320187, LOW: 60667, SBUX: 829224, BKNG: 1075531,
  TJX: 109198, GM: 1467858, F: 37996, MAR: 1048286, HLT: 1585689, CMG: 1058090, ABNB: 1559720, ORLY: 898173,
  EBAY: 1065088, ROST: 745732, DHI: 882184, LEN: 920760, WMT: 104169, COST: 909832, PG: 80424, KO: 21344,
  PEP: 77476, PM: 1413329, MO: 764180, MDLZ: 1103982, CL: 21665, TGT: 27419, KR: 56873, GIS: 40704, KMB: 55785,
  HSY: 47111, 'BRK-B': 1067983, JPM: 19617, V: 1403161, MA: 1141391, BAC: 70858, WFC: 72971, GS: 886982,
  MS: 895421, C: 831001, AXP: 4962, SCHW: 316709, BLK: 1364742, SPGI: 64040, PGR: 80661, MMC: 62709,
  PYPL: 1633917, COF: 927628, USB: 36104, PNC: 713676, MET: 1099219, AIG: 5272, ALL: 899051, ICE: 1571949,
  CME: 1156375, KKR: 1404912, BX: 1393818, COIN: 1679788, LLY: 59478, UNH: 731766, JNJ: 200406, ABBV: 1551152,
  MRK: 310158, PFE: 78003, TMO: 97745, ABT: 1800, DHR: 313616, AMGN: 318154, ISRG: 1035267, GILD: 882095,
  VRTX: 875320, REGN: 872589, BMY: 14272, CVS: 64803, ELV: 1156039, CI: 1739940, HCA: 860730, SYK: 310764,
  BSX: 885725, ZTS: 1555280, MRNA: 1682852, BIIB: 875045, GE: 40545, CAT: 18230, RTX: 101829, HON: 773840,
  UNP: 100885, BA: 12927, LMT: 936468, DE: 315189, UPS: 1090727, ADP: 8670, NOC: 1133421, GD: 40533, MMM: 66740,
  FDX: 1048911, CSX: 277948, NSC: 702165, WM: 823768, EMR: 32604, ITW: 49826, DAL: 27904, UAL: 100517,
  LUV: 92380, PWR: 1050915, XOM: 34088, CVX: 93410, COP: 1163165, EOG: 821189, OXY: 797468, PSX: 1534701,
  MPC: 1510295, KMI: 1506307, NEE: 753308, DUK: 1326160, SO: 92122, D: 715957, AEP: 4904, PLD: 1045609,
  AMT: 1053507, EQIX: 1101239, SPG: 1063761, O: 726728, PSA: 1393311, SHW: 89800, APD: 2969, FCX: 831259,
  NEM: 1164727, NUE: 73309, SPY: 884394, TLT: 1100663,
};

const toTicker = ([ticker, name, sector, industry, city, state, capBillions]: Raw): Ticker => ({
  ticker, name, sector, industry, city, state, capBillions,
  cik: String(CIKS[ticker] ?? 0).padStart(10, '0'),
});

/** The companies, largest first. */
export const TICKERS: readonly Ticker[] = RAW.map(toTicker).sort((a, b) => b.capBillions - a.capBillions);

/** Funds that macro signals are filed under: they have a profile and prices, but are not companies. */
export const MACRO_FUNDS: readonly Ticker[] = [
  toTicker(['SPY', 'SPDR S&P 500 ETF Trust', 'ETF', 'financial_services', 'Boston', 'MA', 600]),
  toTicker(['TLT', 'iShares 20+ Year Treasury Bond ETF', 'ETF', 'financial_services', 'New York', 'NY', 55]),
];

/** How many tickers have a company row at this scale: the first `min(scale, TICKERS.length)`. */
export function listedCount(scale: number): number {
  return Math.min(scale, TICKERS.length);
}

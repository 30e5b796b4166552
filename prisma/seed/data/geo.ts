import { Weighted } from '../random.ts';

/**
 * Real states and cities, so sandbox filters (`state=CA`, `city=Austin`) behave as they would on real data.
 * Each state: population in millions (the weight of companies, properties and attorneys there), median home
 * value in $1000s (the price level of its properties), and cities as `name:county:zip3:area code`, largest
 * first (the first city draws the most records).
 */
const RAW: ReadonlyArray<readonly [string, number, number, string]> = [
  ['AL', 5.1, 210, 'Birmingham:Jefferson:352:205|Huntsville:Madison:358:256|Montgomery:Montgomery:361:334|Mobile:Mobile:366:251'],
  ['AK', 0.73, 340, 'Anchorage:Anchorage:995:907|Fairbanks:Fairbanks North Star:997:907|Juneau:Juneau:998:907'],
  ['AZ', 7.4, 420, 'Phoenix:Maricopa:850:602|Tucson:Pima:857:520|Mesa:Maricopa:852:480|Scottsdale:Maricopa:852:480|Flagstaff:Coconino:860:928'],
  ['AR', 3.1, 190, 'Little Rock:Pulaski:722:501|Fayetteville:Washington:727:479|Fort Smith:Sebastian:729:479'],
  ['CA', 39.0, 750, 'Los Angeles:Los Angeles:900:213|San Diego:San Diego:921:619|San Jose:Santa Clara:951:408|San Francisco:San Francisco:941:415|Sacramento:Sacramento:958:916|Oakland:Alameda:946:510|Irvine:Orange:926:949|Fresno:Fresno:937:559|Palo Alto:Santa Clara:943:650'],
  ['CO', 5.9, 540, 'Denver:Denver:802:303|Colorado Springs:El Paso:809:719|Boulder:Boulder:803:303|Aurora:Arapahoe:800:303'],
  ['CT', 3.6, 370, 'Stamford:Fairfield:069:203|Hartford:Hartford:061:860|New Haven:New Haven:065:203|Bridgeport:Fairfield:066:203'],
  ['DE', 1.0, 360, 'Wilmington:New Castle:198:302|Dover:Kent:199:302|Newark:New Castle:197:302'],
  ['DC', 0.68, 650, 'Washington:District of Columbia:200:202'],
  ['FL', 22.6, 390, 'Miami:Miami-Dade:331:305|Tampa:Hillsborough:336:813|Orlando:Orange:328:407|Jacksonville:Duval:322:904|Fort Lauderdale:Broward:333:954|West Palm Beach:Palm Beach:334:561|Tallahassee:Leon:323:850'],
  ['GA', 11.0, 320, 'Atlanta:Fulton:303:404|Alpharetta:Fulton:300:770|Savannah:Chatham:314:912|Augusta:Richmond:309:706'],
  ['HI', 1.4, 800, 'Honolulu:Honolulu:968:808|Hilo:Hawaii:967:808'],
  ['ID', 1.96, 440, "Boise:Ada:837:208|Idaho Falls:Bonneville:834:208|Coeur d'Alene:Kootenai:838:208"],
  ['IL', 12.5, 260, 'Chicago:Cook:606:312|Naperville:DuPage:605:630|Evanston:Cook:602:847|Springfield:Sangamon:627:217|Peoria:Peoria:616:309'],
  ['IN', 6.9, 230, 'Indianapolis:Marion:462:317|Fort Wayne:Allen:468:260|Bloomington:Monroe:474:812|South Bend:St. Joseph:466:574'],
  ['IA', 3.2, 210, 'Des Moines:Polk:503:515|Cedar Rapids:Linn:524:319|Iowa City:Johnson:522:319'],
  ['KS', 2.9, 220, 'Wichita:Sedgwick:672:316|Overland Park:Johnson:662:913|Topeka:Shawnee:666:785'],
  ['KY', 4.5, 200, 'Louisville:Jefferson:402:502|Lexington:Fayette:405:859|Bowling Green:Warren:421:270'],
  ['LA', 4.6, 200, 'New Orleans:Orleans:701:504|Baton Rouge:East Baton Rouge:708:225|Shreveport:Caddo:711:318|Lafayette:Lafayette:705:337'],
  ['ME', 1.4, 350, 'Portland:Cumberland:041:207|Bangor:Penobscot:044:207|Augusta:Kennebec:043:207'],
  ['MD', 6.2, 400, 'Baltimore:Baltimore City:212:410|Bethesda:Montgomery:208:301|Rockville:Montgomery:208:301|Annapolis:Anne Arundel:214:410'],
  ['MA', 7.0, 580, 'Boston:Suffolk:021:617|Cambridge:Middlesex:021:617|Worcester:Worcester:016:508|Springfield:Hampden:011:413'],
  ['MI', 10.0, 230, 'Detroit:Wayne:482:313|Grand Rapids:Kent:495:616|Ann Arbor:Washtenaw:481:734|Lansing:Ingham:489:517'],
  ['MN', 5.7, 320, 'Minneapolis:Hennepin:554:612|Saint Paul:Ramsey:551:651|Rochester:Olmsted:559:507|Duluth:St. Louis:558:218'],
  ['MS', 2.9, 170, 'Jackson:Hinds:392:601|Gulfport:Harrison:395:228|Hattiesburg:Forrest:394:601'],
  ['MO', 6.2, 230, 'Kansas City:Jackson:641:816|St. Louis:St. Louis City:631:314|Springfield:Greene:658:417|Columbia:Boone:652:573'],
  ['MT', 1.1, 430, 'Billings:Yellowstone:591:406|Missoula:Missoula:598:406|Bozeman:Gallatin:597:406'],
  ['NE', 2.0, 250, 'Omaha:Douglas:681:402|Lincoln:Lancaster:685:402'],
  ['NV', 3.2, 420, 'Las Vegas:Clark:891:702|Henderson:Clark:890:702|Reno:Washoe:895:775'],
  ['NH', 1.4, 430, 'Manchester:Hillsborough:031:603|Nashua:Hillsborough:030:603|Concord:Merrimack:033:603'],
  ['NJ', 9.3, 480, 'Newark:Essex:071:973|Jersey City:Hudson:073:201|Hoboken:Hudson:070:201|Princeton:Mercer:085:609|Trenton:Mercer:086:609'],
  ['NM', 2.1, 290, 'Albuquerque:Bernalillo:871:505|Santa Fe:Santa Fe:875:505|Las Cruces:Doña Ana:880:575'],
  ['NY', 19.6, 450, 'New York:New York:100:212|Brooklyn:Kings:112:718|Buffalo:Erie:142:716|Rochester:Monroe:146:585|Albany:Albany:122:518|White Plains:Westchester:106:914'],
  ['NC', 10.8, 320, 'Charlotte:Mecklenburg:282:704|Raleigh:Wake:276:919|Durham:Durham:277:919|Greensboro:Guilford:274:336|Asheville:Buncombe:288:828'],
  ['ND', 0.78, 250, 'Fargo:Cass:581:701|Bismarck:Burleigh:585:701'],
  ['OH', 11.8, 210, 'Columbus:Franklin:432:614|Cleveland:Cuyahoga:441:216|Cincinnati:Hamilton:452:513|Toledo:Lucas:436:419|Akron:Summit:443:330'],
  ['OK', 4.1, 190, 'Oklahoma City:Oklahoma:731:405|Tulsa:Tulsa:741:918|Norman:Cleveland:730:405'],
  ['OR', 4.2, 480, 'Portland:Multnomah:972:503|Eugene:Lane:974:541|Salem:Marion:973:503|Bend:Deschutes:977:541'],
  ['PA', 13.0, 250, 'Philadelphia:Philadelphia:191:215|Pittsburgh:Allegheny:152:412|Harrisburg:Dauphin:171:717|Allentown:Lehigh:181:610'],
  ['RI', 1.1, 420, 'Providence:Providence:029:401|Warwick:Kent:028:401|Newport:Newport:028:401'],
  ['SC', 5.4, 290, 'Charleston:Charleston:294:843|Columbia:Richland:292:803|Greenville:Greenville:296:864'],
  ['SD', 0.92, 290, 'Sioux Falls:Minnehaha:571:605|Rapid City:Pennington:577:605'],
  ['TN', 7.1, 310, 'Nashville:Davidson:372:615|Memphis:Shelby:381:901|Knoxville:Knox:379:865|Chattanooga:Hamilton:374:423'],
  ['TX', 30.5, 300, 'Houston:Harris:770:713|Dallas:Dallas:752:214|Austin:Travis:787:512|San Antonio:Bexar:782:210|Fort Worth:Tarrant:761:817|Plano:Collin:750:972|El Paso:El Paso:799:915'],
  ['UT', 3.4, 510, 'Salt Lake City:Salt Lake:841:801|Provo:Utah:846:801|Ogden:Weber:844:801'],
  ['VT', 0.65, 340, 'Burlington:Chittenden:054:802|Montpelier:Washington:056:802'],
  ['VA', 8.7, 370, 'Arlington:Arlington:222:703|Richmond:Richmond City:232:804|Virginia Beach:Virginia Beach:234:757|Alexandria:Alexandria:223:703|Reston:Fairfax:201:703'],
  ['WA', 7.8, 560, 'Seattle:King:981:206|Bellevue:King:980:425|Spokane:Spokane:992:509|Tacoma:Pierce:984:253|Redmond:King:980:425'],
  ['WV', 1.8, 150, 'Charleston:Kanawha:253:304|Morgantown:Monongalia:265:304|Huntington:Cabell:257:304'],
  ['WI', 5.9, 280, 'Milwaukee:Milwaukee:532:414|Madison:Dane:537:608|Green Bay:Brown:543:920'],
  ['WY', 0.58, 330, 'Cheyenne:Laramie:820:307|Casper:Natrona:826:307|Jackson:Teton:830:307'],
];

export interface City {
  name: string;
  county: string;
  zip3: string;
  areaCode: string;
}

export interface StateInfo {
  code: string;
  population: number;
  medianHomeValue: number;
  cities: readonly City[];
  /** Larger cities first: weights 1, 1/2, 1/3 … (roughly Zipf, as city sizes are). */
  cityPicker: Weighted<City>;
}

export const STATES: readonly StateInfo[] = RAW.map(([code, population, medianHomeK, spec]) => {
  const cities = spec.split('|').map((entry) => {
    const [name = '', county = '', zip3 = '', areaCode = ''] = entry.split(':');
    return { name, county, zip3, areaCode };
  });
  return {
    code,
    population,
    medianHomeValue: medianHomeK * 1000,
    cities,
    cityPicker: new Weighted(cities.map((city, i) => [city, 1 / (i + 1)] as const)),
  };
});

export const STATE_BY_CODE: ReadonlyMap<string, StateInfo> = new Map(STATES.map((state) => [state.code, state]));

/** A state with the probability of its population share: CA, TX, FL and NY draw the most. */
export const statePicker = new Weighted(STATES.map((state) => [state, state.population] as const));

/** The 50 states (no DC): two senators each. */
export const FIFTY_STATES: readonly StateInfo[] = STATES.filter((state) => state.code !== 'DC');

export function stateInfo(code: string): StateInfo {
  const state = STATE_BY_CODE.get(code);
  if (!state) throw new Error(`unknown state ${code}`);
  return state;
}

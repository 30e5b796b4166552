import type { Row } from '../copy.ts';
import type { SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';
import { slug } from '../pools.ts';
import type { CompanyCore } from './company.ts';
import { emailPattern, personName, phone, workEmail, type PersonName } from './people.ts';

/**
 * Contacts of a company: 2-5 people, most senior first, drawn from a generator of that company alone. The
 * company generator replays the first draw to copy its decision maker; this generator replays it again to
 * write every contact, so the two tables agree without either reading the other.
 */
export const CONTACT_COLUMNS = [
  'id',
  'company_id',
  'first_name',
  'last_name',
  'title',
  'seniority',
  'department',
  'email',
  'email_verified',
  'phone',
  'linkedin_url',
] as const;

export interface Contact {
  name: PersonName;
  title: string;
  seniority: string;
  department: string;
  email: string;
  emailVerified: boolean;
  phone: string;
  linkedinUrl: string;
}

/** department token → display name, used in titles ("VP of Customer Success"). */
const DEPARTMENTS: ReadonlyArray<readonly [string, string, string]> = [
  ['sales', 'Sales', 'Account Executive'],
  ['marketing', 'Marketing', 'Marketing Specialist'],
  ['engineering', 'Engineering', 'Software Engineer'],
  ['finance', 'Finance', 'Financial Analyst'],
  ['operations', 'Operations', 'Operations Analyst'],
  ['human_resources', 'Human Resources', 'HR Generalist'],
  ['it', 'IT', 'Systems Administrator'],
  ['legal', 'Legal', 'Paralegal'],
  ['product', 'Product', 'Product Designer'],
  ['customer_success', 'Customer Success', 'Customer Success Specialist'],
];
const departmentPicker = new Weighted(DEPARTMENTS.map((entry, i) => [entry, i < 3 ? 3 : 1] as const));

/** The chief officers and the department each one leads; the chief executive leads most companies' lists. */
const CHIEFS = new Weighted<readonly [string, string]>([
  [['Chief Executive Officer', 'executive'], 12],
  [['Chief Financial Officer', 'finance'], 2],
  [['Chief Technology Officer', 'engineering'], 2],
  [['Chief Operating Officer', 'operations'], 2],
  [['Chief Marketing Officer', 'marketing'], 1],
  [['Chief Revenue Officer', 'sales'], 1],
]);

/** Seniorities below the top, most senior first, with how often each is drawn. */
const RANKS = ['vp', 'director', 'manager', 'staff'] as const;
const rankPicker = new Weighted(RANKS.map((rank, i) => [i, [3, 4, 4, 3][i] ?? 1] as const));

export interface ContactPlan {
  count: number;
  contacts: Generator<Contact>;
}

export function contactPlan(ctx: SeedContext, company: CompanyCore): ContactPlan {
  const rng = Rng.for(ctx.seed, 'contacts', company.id);
  const count =
    company.employees < 10 ? rng.between(2, 3) : company.employees < 200 ? rng.between(2, 4) : rng.between(3, 5);
  return { count, contacts: drawContacts(rng, ctx, company, count) };
}

function* drawContacts(rng: Rng, ctx: SeedContext, company: CompanyCore, count: number): Generator<Contact> {
  const pattern = emailPattern(rng);
  let rank = 0;
  for (let i = 0; i < count; i++) {
    const name = personName(rng, ctx.pools);
    let title: string;
    let seniority: string;
    let department: string;
    if (i === 0) {
      [title, department] = CHIEFS.pick(rng);
      if (title === 'Chief Executive Officer' && company.employees < 50 && rng.chance(0.4)) title = 'Founder & CEO';
      seniority = 'c_level';
    } else {
      // Never more senior than the contact before: the list reads top-down.
      rank = Math.max(rank, rankPicker.pick(rng));
      seniority = RANKS[rank] ?? 'staff';
      const [token, display, staffTitle] = departmentPicker.pick(rng);
      department = token;
      title =
        seniority === 'vp'
          ? `VP of ${display}`
          : seniority === 'director'
            ? `Director of ${display}`
            : seniority === 'manager'
              ? `${display} Manager`
              : staffTitle;
    }
    yield {
      name,
      title,
      seniority,
      department,
      email: workEmail(name, pattern, company.domain),
      emailVerified: rng.chance(0.72),
      phone: phone(rng, company.areaCode),
      linkedinUrl: `https://www.linkedin.com/in/${slug(name.first)}-${slug(name.last)}-${rng.next32().toString(16)}`,
    };
  }
}

/** The first contact of a company: the decision maker shown on the company record. */
export function decisionMaker(ctx: SeedContext, company: CompanyCore): { count: number; contact: Contact } {
  const plan = contactPlan(ctx, company);
  const first = plan.contacts.next();
  if (first.done) throw new Error(`company ${company.id} has no contacts`);
  return { count: plan.count, contact: first.value };
}

/** Every contact, ids counted up from 1 in company order (the same order the company generator counts in). */
export function* contactRows(ctx: SeedContext, companies: Iterable<CompanyCore>): Generator<Row> {
  let id = 1;
  for (const company of companies) {
    for (const contact of contactPlan(ctx, company).contacts) {
      yield [
        id++,
        company.id,
        contact.name.first,
        contact.name.last,
        contact.title,
        contact.seniority,
        contact.department,
        contact.email,
        contact.emailVerified,
        contact.phone,
        contact.linkedinUrl,
      ];
    }
  }
}

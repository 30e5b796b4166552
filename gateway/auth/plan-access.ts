import type { Plan } from '../../subgraphs/platform/plans.ts';
import { planReaches as includesPlan } from '../../subgraphs/platform/plans.ts';
import { ForbiddenError } from '../../subgraphs/platform/errors.ts';

/**
 * THE table of which plan reaches what (docs/api.md "Plans and limits" prints it). Entries name GraphQL
 * schema coordinates: `Type.field`, or `Type.*` for every field of a type wherever it is reached. REST
 * routes run GraphQL operations, so one check of the operation's fields covers REST and GraphQL alike;
 * anything not listed is open to every plan.
 */
export interface PlanRule {
  feature: string;
  plan: Plan;
  coordinates: readonly string[];
}

// Root fields are listed as well as types: a query that selects only a list's totals reaches no record type.
const RECORD_ROOTS = ['companies', 'contacts', 'properties', 'owners', 'attorneys', 'firms', 'leads'].flatMap((list) => [
  `Query.${list}`,
  `Query.${list}Connection`,
]);

export const PLAN_RULES: readonly PlanRule[] = [
  {
    feature: 'Business, real-estate and legal records, universal search, leads (/api/v1)',
    plan: 'professional',
    coordinates: [
      ...RECORD_ROOTS,
      'Query.company', 'Query.contact', 'Query.property', 'Query.owner', 'Query.attorney', 'Query.firm', 'Query.lead',
      'Query.search', 'Company.contacts', 'Contact.*', 'Property.*', 'Owner.*', 'Attorney.*', 'Firm.*', 'Lead.*',
      'Mutation.saveLead', 'Mutation.updateLead', 'Mutation.updateLeadStatus', 'Mutation.deleteLead',
    ],
  },
  {
    feature: 'Report generation and bulk export',
    plan: 'professional',
    coordinates: ['Mutation.generateReport', 'Query.report', 'Query.reports', 'ReportJob.*'],
  },
  { feature: 'Convergence leads', plan: 'professional', coordinates: ['Query.convergenceLeads', 'ConvergenceLead.*'] },
  // A profile's identity (ticker, name, sector, industry) is part of the public ticker search; the rest is enrichment.
  {
    feature: 'Company profiles (enrich)',
    plan: 'professional',
    coordinates: [
      'Query.companyProfile', 'CompanyProfile.marketCap', 'CompanyProfile.ceo', 'CompanyProfile.description',
      'CompanyProfile.website', 'CompanyProfile.employees', 'CompanyProfile.headquarters', 'CompanyProfile.cik',
      'CompanyProfile.updatedAt',
    ],
  },
];

const RULE_BY_COORDINATE = new Map(PLAN_RULES.flatMap((rule) => rule.coordinates.map((coordinate) => [coordinate, rule])));

/** The rule that governs a field, if any (`Type.field` first, then `Type.*`). */
export function ruleFor(typeName: string, fieldName: string): PlanRule | undefined {
  return RULE_BY_COORDINATE.get(`${typeName}.${fieldName}`) ?? RULE_BY_COORDINATE.get(`${typeName}.*`);
}

export function planReaches(plan: Plan, rule: PlanRule | undefined): boolean {
  return !rule || includesPlan(plan, rule.plan);
}

/** Refuses (403 plan_required, redirect /billing) when any field the operation selects is above the plan. */
export function assertPlanReaches(plan: Plan, fields: Iterable<{ typeName: string; fieldName: string }>): void {
  for (const { typeName, fieldName } of fields) {
    const rule = ruleFor(typeName, fieldName);
    if (!planReaches(plan, rule)) {
      throw new ForbiddenError(
        'plan_required',
        `${rule!.feature} require the ${rule!.plan} plan or higher; your plan is ${plan}.`,
      );
    }
  }
}

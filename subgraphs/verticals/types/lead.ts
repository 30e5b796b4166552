import { z } from 'zod';
import type { Lead as LeadRow, Prisma } from '../../../prisma/generated/client/client.ts';
import { accountOf } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { validateTogether } from '../../platform/validation.ts';
import { idCodec } from '../../platform/ids.ts';
import { definePageObject } from '../../platform/page-object.ts';
import { defineSort, pageArgument, pageSizeArgument } from '../../platform/paging.ts';
import { PageInfo, builder } from '../builder.ts';
import { RECORD_TYPES, parseRecordId } from '../record-type/catalog.ts';
import { connectionMaxSize, recordPage } from '../record-type/page.ts';
import { VERTICAL_NAMES, VerticalEnum } from '../verticals.ts';
import { VerticalRecord, loadRecord } from './vertical-record.ts';
import { countTotal } from '../../platform/totals.ts';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'disqualified'] as const;
export type LeadStatusValue = (typeof LEAD_STATUSES)[number];
export const LeadStatus = builder.enumType('LeadStatus', {
  description: 'Where a lead is in new → contacted → qualified → converted | disqualified.',
  values: {
    new: { description: 'Saved, not yet contacted (every lead starts here).' },
    contacted: { description: 'Contacted; may become qualified or disqualified.' },
    qualified: { description: 'Qualified; may become converted or disqualified.' },
    converted: { description: 'Won: final.' },
    disqualified: { description: 'Dropped at any open step: final.' },
  } satisfies Record<(typeof LEAD_STATUSES)[number], object>,
});
const leadIds = idCodec('lead');

/** new → contacted → qualified → converted | disqualified; an open lead may be disqualified at any step. */
const NEXT_STATUSES: Record<LeadStatusValue, readonly LeadStatusValue[]> = {
  new: ['contacted', 'disqualified'],
  contacted: ['qualified', 'disqualified'],
  qualified: ['converted', 'disqualified'],
  converted: [],
  disqualified: [],
};

export const Lead = builder.prismaObject('Lead', {
  description: 'A record the caller saved, moving through new → contacted → qualified → converted | disqualified.',
  fields: (t) => ({
    id: t.string({ description: 'The lead’s API id, `lead_<n>`.', resolve: (lead) => leadIds.format(lead.id) }),
    recordId: t.exposeString('recordId', { description: 'API id of the saved record, e.g. `b2b_12` or `prop_7`.' }),
    recordType: t.string({
      description: 'Kind of the saved record: company, contact, property, owner, attorney or firm.',
      resolve: (lead) => parseRecordId(lead.recordId)?.type.kind ?? 'unknown',
    }),
    vertical: t.field({
      type: VerticalEnum,
      description: 'The vertical of the saved record.',
      resolve: (lead) => lead.vertical as (typeof VERTICAL_NAMES)[number],
    }),
    status: t.field({
      type: LeadStatus,
      description: 'Where the lead is in its lifecycle.',
      resolve: (lead) => lead.status as LeadStatusValue,
    }),
    notes: t.exposeString('notes', { nullable: true, description: 'The caller’s notes, up to 2,000 characters.' }),
    tags: t.exposeStringList('tags', { description: 'The caller’s tags, up to 20 of 1-40 characters each.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the lead was saved.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the lead last changed.' }),
    record: t.field({
      type: VerticalRecord,
      nullable: true,
      description: 'The saved record (null if it has since been deleted).',
      resolve: (lead, _args, context) => loadRecord(context, lead.recordId) as never,
    }),
  }),
});

const tag = z.string().trim().min(1, 'must not be empty').max(40, 'must be at most 40 characters');
const leadContent = {
  notes: argument('String', z.string().max(2000, 'must be at most 2000 characters'), {
    description: 'Free-text notes, up to 2,000 characters.',
  }),
  tags: argument(['String'], z.array(tag).max(20, 'must have at most 20 tags'), {
    description: 'Up to 20 tags of 1-40 characters each (trimmed); replaces the lead’s tags.',
  }),
};

const LeadSort = defineSort(
  builder,
  'LeadSort',
  { created_at: 'createdAt', updated_at: 'updatedAt', status: 'status', id: 'id' },
  { field: 'createdAt', direction: 'desc' },
);

const leadFilter = defineArguments({
  status: argument(LeadStatus, z.enum(LEAD_STATUSES), { description: 'Leads in this status.' }),
  vertical: argument(VerticalEnum, z.enum(VERTICAL_NAMES), { description: 'Leads of records of this vertical.' }),
  tag: argument('String', tag, { description: 'Leads carrying this tag.' }),
});

const leadArgs = builder.args((t) => leadFilter.graphql(t));

/** The caller's leads matching the filter; the account condition is always part of it. */
export function leadWhere(args: object, context: RequestContext): Prisma.LeadWhereInput {
  const filter = leadFilter.parse(args);
  return {
    accountId: accountOf(context),
    status: filter.status,
    vertical: filter.vertical,
    tags: filter.tag ? { has: filter.tag } : undefined,
  };
}

/** One of the caller's leads; someone else's is as unknown as a missing one (404, never 403). */
async function ownedLead(context: RequestContext, id: string): Promise<LeadRow> {
  const lead = await context.db.prisma.lead.findFirst({
    where: { id: leadIds.parse(id), accountId: accountOf(context) },
  });
  if (!lead) throw new NotFoundError(`Lead ${id}`);
  return lead;
}

const LeadPage = definePageObject(builder, PageInfo, 'LeadPage', Lead, 'Lead');

builder.queryFields((t) => ({
  leads: t.field({
    type: LeadPage,
    description: 'The caller’s saved leads, newest first.',
    args: {
      ...leadArgs,
      sort: t.arg({ type: LeadSort.ref, required: false, description: 'The order of the list.' }),
      page: pageArgument(t.arg),
      perPage: pageSizeArgument(t.arg),
    },
    resolve: (_root, args, context) =>
      recordPage(leadWhere(args, context), LeadSort.toOrder(args.sort), args, (where) =>
        countTotal(context.db, 'Lead', where),
      ),
  }),
  leadsConnection: t.prismaConnection({
    type: Lead,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same leads as `leads`, paged by cursor (ordered by id).',
    args: leadArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.lead.findMany({ ...query, where: leadWhere(args, context), orderBy: { id: 'asc' } }),
  }),
  lead: t.prismaField({
    type: Lead,
    nullable: true,
    description: 'One of the caller’s leads by its id; null when the caller has no such lead.',
    args: { id: t.arg.string({ required: true, description: 'The lead’s API id, `lead_<n>`.' }) },
    resolve: async (query, _root, args, context) =>
      context.db.prisma.lead.findFirst({
        ...query,
        where: { id: leadIds.parse(args.id), accountId: accountOf(context) },
      }),
  }),
}));

const saveLeadInput = defineArguments({
  recordId: argument('String', z.string().max(40, 'must be a record id such as b2b_123'), {
    required: true,
    description: `Any record id: ${RECORD_TYPES.map((type) => type.ids.format(12)).join(', ')}.`,
  }),
  ...leadContent,
});

const SaveLeadInput = builder.inputType('SaveLeadInput', {
  description: 'A record to save as a lead, with optional notes and tags.',
  fields: (t) => saveLeadInput.graphql(t),
});

const SaveLeadPayload = builder.objectRef<{ lead: LeadRow; created: boolean }>('SaveLeadPayload').implement({
  description: 'The saved lead, and whether this call created it.',
  fields: (t) => ({
    lead: t.field({
      type: Lead,
      description: 'The lead: new, or the one already saved for the record.',
      resolve: (payload) => payload.lead,
    }),
    created: t.exposeBoolean('created', { description: 'False when the record was already saved.' }),
  }),
});

// What may change on a lead; the lead's id sits beside it in UpdateLeadInput.
const leadChange = defineArguments({
  status: argument(LeadStatus, z.enum(LEAD_STATUSES), {
    description: 'The next status along the lifecycle; an illegal step is a 409.',
  }),
  ...leadContent,
});

const leadIdField = { required: true, description: 'The lead’s API id, `lead_<n>`.' } as const;

const UpdateLeadInput = builder.inputType('UpdateLeadInput', {
  description: 'A change to one of the caller’s leads; fields left out stay as they are.',
  fields: (t) => ({ id: t.string(leadIdField), ...leadChange.graphql(t) }),
});

const UpdateLeadStatusInput = builder.inputType('UpdateLeadStatusInput', {
  description: 'A lead and the status to move it to.',
  fields: (t) => ({
    id: t.string(leadIdField),
    status: t.field({ type: LeadStatus, required: true, description: 'The next status; a skipped step is a 409.' }),
  }),
});

const DeleteLeadInput = builder.inputType('DeleteLeadInput', {
  description: 'The lead to delete.',
  fields: (t) => ({ id: t.string(leadIdField) }),
});

/**
 * Saves a record as the caller's lead. Saving a record twice returns the existing lead (created: false); the
 * unique (account, record) index settles a race between two saves.
 */
async function saveLead(context: RequestContext, input: Record<string, unknown>) {
  const accountId = accountOf(context);
  // The record id's form is checked with the other fields, so one answer names every problem.
  const [{ recordId, notes, tags }, parsed] = validateTogether(
    () => saveLeadInput.parse(input),
    () => {
      const record = parseRecordId(String(input.recordId));
      if (!record) throw new BadRequestError({ recordId: 'must be a record id such as b2b_123, prop_7 or atty_5' });
      return record;
    },
  );
  const existing = await context.db.prisma.lead.findUnique({ where: { accountId_recordId: { accountId, recordId } } });
  if (existing) return { lead: existing, created: false };
  if (!(await parsed.type.findUnique(context.db, parsed.id))) throw new NotFoundError(`Record ${recordId}`);
  const data = { accountId, recordId, vertical: parsed.type.vertical, notes, tags: tags ?? [] };
  const rows = await context.db.prisma.lead.createManyAndReturn({ data: [data], skipDuplicates: true });
  if (rows[0]) return { lead: rows[0], created: true };
  const lead = await context.db.prisma.lead.findUniqueOrThrow({
    where: { accountId_recordId: { accountId, recordId } },
  });
  return { lead, created: false };
}

/** Applies a change to one of the caller's leads; a status change must follow the lifecycle (else 409). */
async function updateLead(context: RequestContext, id: string, input: Record<string, unknown>): Promise<LeadRow> {
  // A bad id and a bad change are reported together.
  const [change] = validateTogether(
    () => leadChange.parse(input),
    () => leadIds.parse(id),
  );
  const lead = await ownedLead(context, id);
  const status = change.status && change.status !== lead.status ? change.status : undefined;
  if (status && !NEXT_STATUSES[lead.status as LeadStatusValue].includes(status)) {
    throw new ConflictError(`A ${lead.status} lead cannot become ${status}.`);
  }
  // The status read above must still hold when writing, or a concurrent change won the race.
  const { count } = await context.db.prisma.lead.updateMany({
    where: { id: lead.id, accountId: lead.accountId, status: lead.status },
    data: { status, notes: change.notes, tags: change.tags },
  });
  if (count === 0) throw new ConflictError(`Lead ${id} was changed by another request; read it and try again.`);
  return context.db.prisma.lead.findUniqueOrThrow({ where: { id: lead.id } });
}

builder.mutationFields((t) => ({
  saveLead: t.field({
    type: SaveLeadPayload,
    description: 'Saves a record as the caller’s lead; saving it again returns the existing lead.',
    args: { input: t.arg({ type: SaveLeadInput, required: true, description: 'The record and its notes and tags.' }) },
    resolve: (_root, { input }, context) => saveLead(context, input),
  }),
  updateLead: t.field({
    type: Lead,
    description: 'Changes a lead’s notes, tags and status (along the lifecycle).',
    args: { input: t.arg({ type: UpdateLeadInput, required: true, description: 'The lead and what changes.' }) },
    resolve: (_root, { input: { id, ...change } }, context) => updateLead(context, id, change),
  }),
  updateLeadStatus: t.field({
    type: Lead,
    description: 'Moves a lead one step along new → contacted → qualified → converted | disqualified.',
    args: {
      input: t.arg({ type: UpdateLeadStatusInput, required: true, description: 'The lead and its next status.' }),
    },
    resolve: (_root, { input: { id, status } }, context) => updateLead(context, id, { status }),
  }),
  deleteLead: t.field({
    type: Lead,
    description: 'Deletes one of the caller’s leads and returns it as it was.',
    args: { input: t.arg({ type: DeleteLeadInput, required: true, description: 'The lead to delete.' }) },
    resolve: async (_root, { input }, context) => {
      const lead = await ownedLead(context, input.id);
      await context.db.prisma.lead.deleteMany({ where: { id: lead.id, accountId: lead.accountId } });
      return lead;
    },
  }),
}));

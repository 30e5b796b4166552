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
export const LeadStatus = builder.enumType('LeadStatus', { values: LEAD_STATUSES });
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
    id: t.string({ resolve: (lead) => leadIds.format(lead.id) }),
    recordId: t.exposeString('recordId'),
    recordType: t.string({ resolve: (lead) => parseRecordId(lead.recordId)?.type.kind ?? 'unknown' }),
    vertical: t.field({ type: VerticalEnum, resolve: (lead) => lead.vertical as (typeof VERTICAL_NAMES)[number] }),
    status: t.field({ type: LeadStatus, resolve: (lead) => lead.status as LeadStatusValue }),
    notes: t.exposeString('notes', { nullable: true }),
    tags: t.exposeStringList('tags'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
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
  notes: argument('String', z.string().max(2000, 'must be at most 2000 characters')),
  tags: argument(['String'], z.array(tag).max(20, 'must have at most 20 tags')),
};

const LeadSort = defineSort(
  builder,
  'LeadSort',
  { created_at: 'createdAt', updated_at: 'updatedAt', status: 'status', id: 'id' },
  { field: 'createdAt', direction: 'desc' },
);

const leadFilter = defineArguments({
  status: argument(LeadStatus, z.enum(LEAD_STATUSES)),
  vertical: argument(VerticalEnum, z.enum(VERTICAL_NAMES)),
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
      sort: t.arg({ type: LeadSort.ref, required: false }),
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
    args: leadArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.lead.findMany({ ...query, where: leadWhere(args, context), orderBy: { id: 'asc' } }),
  }),
  lead: t.prismaField({
    type: Lead,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
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

const SaveLeadInput = builder.inputType('SaveLeadInput', { fields: (t) => saveLeadInput.graphql(t) });

const SaveLeadPayload = builder.objectRef<{ lead: LeadRow; created: boolean }>('SaveLeadPayload').implement({
  fields: (t) => ({
    lead: t.field({ type: Lead, resolve: (payload) => payload.lead }),
    created: t.exposeBoolean('created', { description: 'False when the record was already saved.' }),
  }),
});

// What may change on a lead; the lead's id sits beside it in UpdateLeadInput.
const leadChange = defineArguments({ status: argument(LeadStatus, z.enum(LEAD_STATUSES)), ...leadContent });

const UpdateLeadInput = builder.inputType('UpdateLeadInput', {
  fields: (t) => ({ id: t.string({ required: true }), ...leadChange.graphql(t) }),
});

const UpdateLeadStatusInput = builder.inputType('UpdateLeadStatusInput', {
  fields: (t) => ({
    id: t.string({ required: true }),
    status: t.field({ type: LeadStatus, required: true }),
  }),
});

const DeleteLeadInput = builder.inputType('DeleteLeadInput', { fields: (t) => ({ id: t.string({ required: true }) }) });

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
    args: { input: t.arg({ type: SaveLeadInput, required: true }) },
    resolve: (_root, { input }, context) => saveLead(context, input),
  }),
  updateLead: t.field({
    type: Lead,
    description: 'Changes a lead’s notes, tags and status (along the lifecycle).',
    args: { input: t.arg({ type: UpdateLeadInput, required: true }) },
    resolve: (_root, { input: { id, ...change } }, context) => updateLead(context, id, change),
  }),
  updateLeadStatus: t.field({
    type: Lead,
    description: 'Moves a lead one step along new → contacted → qualified → converted | disqualified.',
    args: { input: t.arg({ type: UpdateLeadStatusInput, required: true }) },
    resolve: (_root, { input: { id, status } }, context) => updateLead(context, id, { status }),
  }),
  deleteLead: t.field({
    type: Lead,
    description: 'Deletes one of the caller’s leads and returns it as it was.',
    args: { input: t.arg({ type: DeleteLeadInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const lead = await ownedLead(context, input.id);
      await context.db.prisma.lead.deleteMany({ where: { id: lead.id, accountId: lead.accountId } });
      return lead;
    },
  }),
}));

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { foldName } from '../../../subgraphs/data-loading.ts';
import { attributeStoredTrades } from '../attribution.ts';
import { BatchWriter } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { convertOrReject } from '../rejects.ts';

/**
 * unitedstates/congress-legislators: legislators-current.yaml (identity, party, chamber, state, district) and,
 * when given, committees-current.yaml + committee-membership-current.yaml (committee names per member). The
 * YAML files are parsed whole: they hold the 537 sitting members, a bounded size, and YAML has no streaming
 * parser worth the name. Files are told apart by content, so their order on the command line does not matter.
 */
const legislator = z.object({
  id: z.object({ bioguide: z.string().regex(/^[A-Z]\d{6}$/) }),
  name: z.object({
    first: z.string(),
    middle: z.string().optional(),
    last: z.string(),
    nickname: z.string().optional(),
    official_full: z.string().optional(),
  }),
  terms: z
    .array(
      z.object({
        type: z.enum(['rep', 'sen']),
        state: z.string().length(2),
        district: z.number().int().optional(),
        party: z.string(),
      }),
    )
    .min(1),
});

const PARTIES: Record<string, string> = { Democrat: 'D', Republican: 'R', Independent: 'I' };

export const MEMBERS_TABLE = {
  table: 'members',
  columns: {
    bioguide_id: 'text',
    first_name: 'text',
    last_name: 'text',
    full_name: 'text',
    party: 'text',
    chamber: 'text',
    state: 'char(2)',
    district: 'text',
    committees: 'text[]',
    name_folded: 'text',
    in_office: 'boolean',
  },
  key: ['bioguide_id'],
};

export const membersImporter: Importer = {
  source: 'members',
  describe: 'legislators-current.yaml [committees-current.yaml committee-membership-current.yaml]',
  async run(files, context) {
    const counts = emptyCounts();
    const documents = await Promise.all(files.map(async (file) => parse(await readFile(file, 'utf8')) as unknown));
    const legislators = documents.find(isLegislatorList);
    if (!legislators)
      throw new Error('members: no legislators-current.yaml among the files (a list of entries with id.bioguide)');
    const committeeNames = committeeNamesById(documents.find(isCommitteeList) ?? []);
    const membership = documents.find(isMembership);
    const committeesByMember = membershipByMember(membership ?? {}, committeeNames);
    // Without the committee files, the committees already stored are kept rather than emptied.
    const spec = membership ? MEMBERS_TABLE : { ...MEMBERS_TABLE, keep: ['committees'] };
    const writer = new BatchWriter(context.db.sql, spec, counts);
    const ids: string[] = [];
    for (const entry of legislators) {
      counts.read += 1;
      const row = await convertOrReject(
        'members',
        entry,
        () => memberRow(entry, committeesByMember),
        context.rejects,
        counts,
      );
      if (!row) continue;
      ids.push(row.bioguide_id);
      await writer.add(row);
    }
    await writer.flush();
    // A member in office before and absent from this file has left: legislators-historical may update them now.
    const left = await context.db.sql.query(
      'UPDATE members SET in_office = false WHERE in_office AND NOT (bioguide_id = ANY($1::text[])) RETURNING 1',
      [ids],
    );
    context.progress(
      `members: ${counts.read} legislators, ${committeeNames.size} committees named, ${left.length} no longer in office`,
    );
    const { unmatched } = await attributeStoredTrades(context, 'members');
    if (unmatched.length) counts.unmatched = unmatched;
    return counts;
  },
};

function memberRow(entry: unknown, committeesByMember: Map<string, string[]>) {
  const parsed = legislator.safeParse(entry);
  if (!parsed.success)
    return reject(
      'invalid_legislator',
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  const { id, name, terms } = parsed.data;
  const term = terms[terms.length - 1]!;
  const party = PARTIES[term.party] ?? reject('unknown_party', `party "${term.party}"`);
  // The name people use: the nickname ("Jack Reed"), or the middle name when the first is an initial ("C. Scott Franklin").
  const first = name.nickname ?? (/^[A-Z]\.$/.test(name.first) && name.middle ? name.middle : name.first);
  return {
    bioguide_id: id.bioguide,
    first_name: first,
    last_name: name.last,
    full_name: `${first} ${name.last}`,
    party,
    chamber: term.type === 'sen' ? 'senate' : 'house',
    state: term.state,
    // The disclosures' form: state and two-digit district, 00 for an at-large seat ("MO04", "AK00").
    district: term.type === 'rep' ? `${term.state}${String(term.district ?? 0).padStart(2, '0')}` : null,
    committees: committeesByMember.get(id.bioguide) ?? [],
    name_folded: foldName(
      [name.first, name.middle, name.nickname, name.last, name.official_full].filter(Boolean).join(' '),
    ),
    in_office: true,
  };
}

function isLegislatorList(document: unknown): document is unknown[] {
  return (
    Array.isArray(document) &&
    document.some((entry) => typeof entry === 'object' && entry !== null && 'id' in entry && 'terms' in entry)
  );
}

function isCommitteeList(document: unknown): document is { thomas_id?: string; name?: string }[] {
  return (
    Array.isArray(document) &&
    document.some((entry) => typeof entry === 'object' && entry !== null && 'thomas_id' in entry)
  );
}

function isMembership(document: unknown): document is Record<string, { bioguide?: string }[]> {
  return typeof document === 'object' && document !== null && !Array.isArray(document);
}

/** Full committees only, named as people say them ("House Committee on Agriculture" → "Agriculture"). */
function committeeNamesById(committees: { thomas_id?: string; name?: string }[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const committee of committees) {
    if (!committee.thomas_id || !committee.name) continue;
    names.set(
      committee.thomas_id,
      committee.name.replace(/^(House|Senate|Joint)\s+(Committee on (the )?)?/, '').trim(),
    );
  }
  return names;
}

function membershipByMember(
  membership: Record<string, { bioguide?: string }[]>,
  names: Map<string, string>,
): Map<string, string[]> {
  const byMember = new Map<string, string[]>();
  for (const [committeeId, seats] of Object.entries(membership)) {
    const name = names.get(committeeId);
    // Subcommittee ids extend their committee's ("SSAF13"); only full committees are listed on the member.
    if (!name || !Array.isArray(seats)) continue;
    for (const seat of seats) {
      if (!seat.bioguide) continue;
      const list = byMember.get(seat.bioguide) ?? [];
      if (!list.includes(name)) list.push(name);
      byMember.set(seat.bioguide, list);
    }
  }
  for (const list of byMember.values()) list.sort();
  return byMember;
}

import { HONORIFICS, foldName } from '../../../subgraphs/data-loading.ts';
import { givenNameForms } from './nicknames.ts';

/** A member as the matcher needs it (the `members` table's identity columns). */
export interface MemberIdentity {
  bioguideId: string;
  fullName: string;
  lastName: string;
  chamber: string;
  state: string;
  party: string;
  /** Every given form of the name, folded: first, middle, nickname, official name. */
  nameFolded: string;
  /** false for a former member: a name that fits a member in office and former members is the one in office's. */
  inOffice: boolean;
}

// The titles and suffixes member search ignores, and the degrees disclosures add to names ("Richard Dean Dr McCormick",
// "Neal Patrick MD, Facs Dunn", "David A Perdue , Jr").
const NOT_A_NAME = new Set([...HONORIFICS, 'facs', 'dds', 'cpa']);

/** The words of a disclosed name, folded, without titles or suffixes (order kept). */
export function nameWords(name: string): string[] {
  return foldName(name)
    .split(' ')
    .filter((word) => word && !NOT_A_NAME.has(word));
}

/**
 * `<first> <last>` for a name no member record has (a senator who left before the legislators snapshot):
 * the first given name and the surname, without initials, titles or suffixes, capitalised as disclosed.
 * `David A Perdue , Jr` → `David Perdue`; `Boozman, John` → `John Boozman`.
 */
export function displayName(raw: string): string {
  const words = orderedNameWords(raw);
  if (words.length === 0) return raw.trim();
  const chosen = words.length === 1 ? words : [words[0]!, words[words.length - 1]!];
  return chosen.map(capitalise).join(' ');
}

/**
 * The words of a disclosed name in `<given…> <surname>` order, as written (not folded), without initials,
 * titles, suffixes or a nickname in parentheses: "Boozman, John" → [John, Boozman].
 */
export function orderedNameWords(raw: string): string[] {
  // A comma part made only of titles or suffixes (", Jr.", ", Iii") is dropped; "Last, First" is turned round.
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => nameWords(part).length > 0);
  const ordered = parts.length === 2 ? `${parts[1]} ${parts[0]}` : parts.join(' ');
  return ordered
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s+/)
    .filter((word) => {
      const folded = foldName(word);
      return folded.length > 1 && !NOT_A_NAME.has(folded);
    });
}

function capitalise(word: string): string {
  return word === word.toUpperCase() || word === word.toLowerCase()
    ? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()
    : word;
}

export interface MemberMatch {
  member: MemberIdentity;
  /** false when only the surname matched (the one member of that name in the chamber and state). */
  confident: boolean;
}

/**
 * Matches the names disclosures print to members: "Ron L Wyden", "Wyden, Ron", "Rafael Edward (Ted) Cruz",
 * "Neal Patrick MD, Facs Dunn". A member matches when every word of the surname is in the name and, for a
 * confident match, one of the given names (or a usual form of it: William/Bill) is there too. Without a given
 * name, the one member of that surname in the chamber (and state, when known) is taken. Answers are cached:
 * a file repeats each name thousands of times.
 */
export class MemberMatcher {
  private readonly byChamber = new Map<string, { member: MemberIdentity; surname: string[]; given: Set<string> }[]>();
  private readonly cache = new Map<string, MemberMatch | { reason: string }>();
  private readonly byId = new Map<string, MemberIdentity>();

  constructor(members: readonly MemberIdentity[]) {
    for (const member of members) {
      const surname = foldName(member.lastName).split(' ').filter(Boolean);
      const given = new Set(
        member.nameFolded
          .split(' ')
          .filter((word) => word.length > 1 && !surname.includes(word) && !NOT_A_NAME.has(word))
          .flatMap(givenNameForms),
      );
      this.byId.set(member.bioguideId, member);
      const list = this.byChamber.get(member.chamber) ?? [];
      list.push({ member, surname, given });
      this.byChamber.set(member.chamber, list);
    }
  }

  get size(): number {
    return [...this.byChamber.values()].reduce((total, list) => total + list.length, 0);
  }

  /** The member of a Bioguide id, for sources that carry one. */
  byBioguideId(bioguideId: string): MemberIdentity | undefined {
    return this.byId.get(bioguideId);
  }

  match(rawName: string, chamber: string, state?: string | null): MemberMatch | null {
    const result = this.resolve(rawName, chamber, state);
    return 'member' in result ? result : null;
  }

  /** Why a name matches no member, in a sentence for the import summary (null when it does match). */
  unmatchedReason(rawName: string, chamber: string, state?: string | null): string | null {
    const result = this.resolve(rawName, chamber, state);
    return 'reason' in result ? result.reason : null;
  }

  private resolve(rawName: string, chamber: string, state?: string | null): MemberMatch | { reason: string } {
    const cacheKey = `${chamber}|${state ?? ''}|${rawName}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const result = this.find(rawName, chamber, state);
    this.cache.set(cacheKey, result);
    return result;
  }

  private find(rawName: string, chamber: string, state?: string | null): MemberMatch | { reason: string } {
    const words = new Set(nameWords(rawName));
    let candidates = (this.byChamber.get(chamber) ?? []).filter((entry) =>
      entry.surname.every((word) => words.has(word)),
    );
    if (state) candidates = candidates.filter((entry) => entry.member.state === state);
    const where = `the ${chamber}${state ? ` for ${state}` : ''}`;
    if (candidates.length === 0) return { reason: `no member of ${where} has a surname in this name` };
    const confident = candidates.filter((entry) =>
      [...words].some((word) => !entry.surname.includes(word) && entry.given.has(word)),
    );
    if (confident.length > 0) {
      // "April McClain Delaney" also contains Lisa McClain's surname: the longer surname is the better match.
      const longest = Math.max(...confident.map((entry) => entry.surname.length));
      const best = preferInOffice(confident.filter((entry) => entry.surname.length === longest));
      return best.length === 1
        ? { member: best[0]!.member, confident: true }
        : { reason: `matches several members of ${where}: ${named(best)}` };
    }
    // Without a given name, the surname must end the name: "Kelly Loeffler" is not Senator Mark Kelly, and
    // "Thomas R Tillis" is Thom Tillis, not Craig Thomas.
    const lastWord = foldName(orderedNameWords(rawName).at(-1) ?? '');
    const surnameLast = preferInOffice(candidates.filter((entry) => entry.surname.at(-1) === lastWord));
    if (surnameLast.length === 1) return { member: surnameLast[0]!.member, confident: false };
    return {
      reason:
        surnameLast.length === 0
          ? `has the surname of ${named(candidates)} of ${where} but none of their given names, and the surname does not end the name`
          : `no given name of ${named(candidates)}, members of ${where} with a surname in this name: the surname alone is not enough`,
    };
  }
}

/**
 * Of several members a name fits equally, the one in office, if only one is: "Michael Collins" of Georgia is
 * Mike Collins (in office since 2023), not Mac Collins (Michael Allen Collins, who left in 2005). The former
 * members' file has no term dates to tell them apart by the trade's date.
 */
function preferInOffice<Entry extends { member: MemberIdentity }>(entries: Entry[]): Entry[] {
  const inOffice = entries.filter((entry) => entry.member.inOffice);
  return entries.length > 1 && inOffice.length === 1 ? inOffice : entries;
}

function named(entries: { member: MemberIdentity }[]): string {
  return entries.map((entry) => `${entry.member.fullName} (${entry.member.bioguideId})`).join(', ');
}

import type { LoadSettings } from './measure.ts';

/** What a part of the bench needs from the run: the database of the scale, its keys, and the settings. */
export interface BenchContext {
  scale: number;
  /** The bench database of this scale on the PostgreSQL server. */
  url: string;
  /** `Bearer <key>` of one account: lines where identical requests may share. */
  auth: { authorization: string };
  /** `Bearer <key>` of 1,500 accounts in turn: lines where nothing is shared (load.ts). */
  authorizations: readonly string[];
  settings: LoadSettings;
  /** Node flags for a server (`--cpu-prof` with --profile). */
  profileFlags(name: string): string[];
}

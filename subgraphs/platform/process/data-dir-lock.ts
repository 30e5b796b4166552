import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite lets one process open a data folder: two would each keep their own copy of the database in memory
 * and can corrupt the files. The process that opens DATA_DIR's databases (the server, or `admin`/`import`
 * when no server runs) holds DATA_DIR/process.lock, created exclusively; the file names its pid, what it
 * is, and the admin socket a server answers on. A lock whose process is gone (crash, kill -9, reboot) is
 * stale and taken over.
 */
export type LockRole = 'server' | 'subgraph' | 'admin' | 'import' | 'ingest';

export interface LockHolder {
  pid: number;
  role: LockRole;
  /** Boot id and start time of the process (Linux), so a reused pid is not taken for the holder. */
  identity?: string;
  /** The admin socket a running server answers on (absent while it starts and for commands). */
  socket?: string;
}

export interface DataDirLock {
  holder: LockHolder;
  /** Names the admin socket once it listens, so commands know where to send their work. */
  setSocket(socket: string): void;
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`${dataDir} is in use by ${describeHolder(holder)}: PGlite allows one process per data folder`);
  }
}

export const lockFilePath = (dataDir: string) => join(dataDir, 'process.lock');

export function describeHolder(holder: LockHolder): string {
  return holder.role === 'server' || holder.role === 'subgraph'
    ? `a running ${holder.role} (pid ${holder.pid})`
    : `another \`${holder.role}\` command (pid ${holder.pid})`;
}

/** `<boot id>:<start time in clock ticks>` of a process, or undefined where /proc does not say. */
function processIdentity(pid: number): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after its closing parenthesis; starttime is field 22.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime ? `${boot}:${startTime}` : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockHolder): boolean {
  // A container restarted with the same pid as before must not take its own old lock for a live one.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const identity = holder.identity && processIdentity(holder.pid);
  return !identity || identity === holder.identity;
}

function readHolder(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.role === 'string') return parsed as LockHolder;
  } catch {
    // A lock file cut short by a crash while it was written: nobody holds it.
  }
  return { pid: 0, role: 'server' };
}

/** The live process holding DATA_DIR, or undefined when the folder is free (no lock, or a stale one). */
export function readLockHolder(dataDir: string): LockHolder | undefined {
  const holder = readHolder(lockFilePath(dataDir));
  return holder && isAlive(holder) ? holder : undefined;
}

/**
 * Moves a stale lock aside and removes it. What was moved is checked again: when two processes found the same
 * stale lock, the slower one may have moved the faster one's fresh lock, and puts it back.
 */
function removeStale(file: string, dataDir: string): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = readHolder(aside);
    if (moved && isAlive(moved)) {
      try {
        linkSync(aside, file);
      } catch {
        // Someone else holds it by now: the next attempt reads who.
      }
      throw new DataDirLockedError(dataDir, moved);
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Takes DATA_DIR's lock for this process, or throws DataDirLockedError naming the live holder. */
export function acquireDataDirLock(dataDir: string, role: LockRole): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFilePath(dataDir);
  const holder: LockHolder = { pid: process.pid, role, identity: processIdentity(process.pid) };
  // Written whole to a file of our own, then linked (exclusive) or renamed into place: no reader sees half a lock.
  const staged = `${file}.${process.pid}`;
  const stage = () => writeFileSync(staged, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  stage();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        linkSync(staged, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
        const current = readHolder(file);
        if (current && isAlive(current)) throw new DataDirLockedError(dataDir, current);
        removeStale(file, dataDir);
      }
    }
  } finally {
    rmSync(staged, { force: true });
  }
  let released = false;
  return {
    holder,
    setSocket(socket) {
      holder.socket = socket;
      stage();
      renameSync(staged, file);
    },
    release() {
      if (released) return;
      released = true;
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

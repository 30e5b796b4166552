import { SingleBar } from 'cli-progress';

/** Progress of reading a load's files: bytes read of the total, rows read. */
export interface LoadProgress {
  read(bytes: number, rows: number): void;
  /** A step after reading (merging, deleting): a line of its own. */
  note(message: string): void;
  stop(): void;
}

const LINE_EVERY_MS = 5000;

/**
 * On a terminal a bar with rows/s and the ETA (from bytes read, since a file's rows are unknown until read);
 * elsewhere (a pipe, a log, the server's admin socket) a plain line every five seconds.
 */
export function loadProgress(
  label: string,
  totalBytes: number,
  terminal: NodeJS.WriteStream | undefined,
  line: (message: string) => void,
): LoadProgress {
  const started = Date.now();
  const rate = (rows: number) => Math.round(rows / Math.max((Date.now() - started) / 1000, 0.001));
  if (terminal) {
    const bar = new SingleBar({
      stream: terminal,
      format: `${label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}`,
      etaBuffer: 50,
      hideCursor: true,
    });
    bar.start(Math.max(totalBytes, 1), 0, { rows: 0, rate: 0 });
    let running = true;
    return {
      read: (bytes, rows) => bar.update(bytes, { rows, rate: rate(rows) }),
      note(message) {
        if (running) bar.stop();
        running = false;
        line(message);
      },
      stop() {
        if (running) bar.stop();
        running = false;
      },
    };
  }
  let last = started;
  return {
    read(bytes, rows) {
      if (Date.now() - last < LINE_EVERY_MS) return;
      last = Date.now();
      const share = bytes / Math.max(totalBytes, 1);
      const eta = share > 0 ? ((Date.now() - started) / 1000) * ((1 - share) / share) : 0;
      line(`${label}: ${rows} rows read (${Math.round(share * 100)}%), ${rate(rows)} rows/s, ETA ${Math.ceil(eta)} s`);
    },
    note: line,
    stop: () => undefined,
  };
}

import { join } from 'node:path';

/**
 * The admin socket: a Unix domain socket in DATA_DIR/run (folder 0700, socket 0600, so only the server's OS
 * user can connect) over which `admin` and `import` hand their work to the server that holds PGlite's folder.
 * Newline-delimited JSON: the command sends one request; the server answers `accepted` at once, then the
 * command's output as it is printed, then its exit code.
 */
export interface CommandRequest {
  tool: string;
  argv: string[];
}

export type ServerMessage = { accepted: true } | { out: string } | { err: string } | { exit: number };

export const adminSocketDirectory = (dataDir: string) => join(dataDir, 'run');
export const adminSocketPath = (dataDir: string) => join(adminSocketDirectory(dataDir), 'admin.sock');

/** Linux keeps a socket's path in 108 bytes, the terminating zero included. */
export const MAX_SOCKET_PATH_BYTES = 107;

/** A request is at most this long: a few thousand file paths. */
export const MAX_REQUEST_BYTES = 1_000_000;

import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { adminSocketDirectory, adminSocketPath, MAX_REQUEST_BYTES, MAX_SOCKET_PATH_BYTES } from './admin-protocol.ts';
import type { CommandRequest, ServerMessage } from './admin-protocol.ts';
import type { CommandOutput, CommandTools, PreparedCommand } from './command-tool.ts';
import type { Database, Mode } from '../database.ts';
import { logger } from '../logger.ts';

export interface AdminSocket {
  path: string;
  /** Stops taking commands and waits for the ones running. */
  close(): Promise<void>;
  /** Cuts the connections of commands still running (the grace period is over). */
  abort(): void;
}

/**
 * Runs the commands (`admin`, `import`, `ingest`: the `tools` the process's entry gives) handed over by
 * scripts/commands/run.ts on this process's databases: with PGlite no other process may open them. See
 * admin-protocol.ts for the exchange.
 */
export async function startAdminSocket(
  dataDir: string,
  databases: Record<Mode, Database>,
  tools: CommandTools,
): Promise<AdminSocket | undefined> {
  const path = adminSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    logger.warn(
      { path },
      'DATA_DIR is too long a path for a Unix socket: admin and import will refuse while the server runs',
    );
    return undefined;
  }
  // 0700 on the folder closes the moment between bind and chmod in which another user could connect.
  mkdirSync(adminSocketDirectory(dataDir), { recursive: true, mode: 0o700 });
  chmodSync(adminSocketDirectory(dataDir), 0o700);
  // A socket file left by a server that crashed: this process holds DATA_DIR's lock, so nobody listens on it.
  rmSync(path, { force: true });

  const connections = new Set<Socket>();
  const running = new Set<Promise<void>>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0) {
        if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const work = serve(socket, buffered.slice(0, end), databases, tools).finally(() => running.delete(work));
      running.add(work);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  logger.info({ path }, 'admin socket listening');

  return {
    path,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...running]);
    },
    abort() {
      for (const socket of connections) socket.destroy();
    },
  };
}

function parseRequest(line: string, tools: CommandTools): CommandRequest | undefined {
  try {
    const request = JSON.parse(line) as Partial<CommandRequest>;
    const validTool = typeof request.tool === 'string' && tools.names.includes(request.tool);
    if (validTool && Array.isArray(request.argv) && request.argv.every((arg) => typeof arg === 'string'))
      return request as CommandRequest;
  } catch {
    // Not JSON: answered below like any other malformed request.
  }
  return undefined;
}

async function serve(
  socket: Socket,
  line: string,
  databases: Record<Mode, Database>,
  tools: CommandTools,
): Promise<void> {
  const send = (message: ServerMessage) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  const request = parseRequest(line, tools);
  if (!request) {
    const names = tools.names.map((name) => `"${name}"`).join('|');
    send({ accepted: true });
    send({ err: `admin socket: the request is not {"tool": ${names}, "argv": [strings]}\n` });
    send({ exit: 2 });
    socket.end();
    return;
  }
  send({ accepted: true });
  const output: CommandOutput = { out: (text) => send({ out: text }), err: (text) => send({ err: text }) };
  // Arguments are not logged: `create-account` carries a password.
  const log = logger.child({ tool: request.tool, command: request.argv[0] });
  log.info('admin command received');
  const tool = await tools.load(request.tool);
  let exit: number;
  try {
    const prepared: PreparedCommand | number = tool.prepare(request.argv, output);
    exit = typeof prepared === 'number' ? prepared : await prepared.run(databases[prepared.mode], output, databases);
  } catch (error) {
    exit = tool.fail(error, output);
  }
  log.info({ exit }, 'admin command finished');
  send({ exit });
  socket.end();
}

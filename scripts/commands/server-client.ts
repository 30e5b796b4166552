import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import type { CommandRequest, ServerMessage } from '../../subgraphs/platform/process/admin-protocol.ts';
import type { CommandOutput } from '../../subgraphs/platform/process/command-tool.ts';

/** The server holds the data folder but did not take the command: nothing was done. */
export class ServerUnreachableError extends Error {}

/**
 * Sends a command to the server on its admin socket and prints what the server prints, as it comes.
 * Resolves to the command's exit code; throws ServerUnreachableError when the server does not accept it
 * within `acceptMs` (no socket, refused, or a server too busy or stopped to answer).
 */
export function handOver(
  socketPath: string,
  request: CommandRequest,
  output: CommandOutput,
  acceptMs = 5_000,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let accepted = false;
    let exit: number | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ServerUnreachableError(`no answer within ${acceptMs / 1000} s`));
    }, acceptMs);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!accepted) reject(new ServerUnreachableError(error.code ?? error.message));
    });
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    const lines = createInterface({ input: socket, crlfDelay: Infinity });
    // readline repeats the socket's errors, which the socket's own handler above already answers.
    lines.on('error', () => undefined);
    lines.on('line', (line) => {
      const message = JSON.parse(line) as ServerMessage;
      if ('accepted' in message) {
        accepted = true;
        clearTimeout(timer);
      } else if ('out' in message) output.out(message.out);
      else if ('err' in message) output.err(message.err);
      else exit = message.exit;
    });
    lines.on('close', () => {
      clearTimeout(timer);
      if (!accepted)
        return reject(new ServerUnreachableError('the connection closed before the server accepted the command'));
      if (exit !== undefined) return resolve(exit);
      output.err(
        `${request.tool}: the server closed the connection before the command finished (it may be shutting down); see its log\n`,
      );
      resolve(1);
    });
  });
}

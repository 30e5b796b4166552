import cluster from 'node:cluster';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The one line a user reads when the port cannot be had; undefined for failures that are not about the port. */
function portProblem(error: unknown, port: number, host: string): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use; set PORT to another port.`;
  if (code === 'EACCES') return `Port ${port} needs privileges this process does not have; set PORT to another port.`;
  if (code === 'EADDRNOTAVAIL') return `Address ${host} is not available on this machine; set HOST to another address.`;
  return undefined;
}

function exitWith(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/**
 * Binds the port for a moment and lets it go, so a port in use stops the process at once instead of after the
 * database preparation (migrations, a first seed). Port 0 always succeeds, and so does a cluster worker's port:
 * the primary holds it for every worker (scripts/start-cluster.ts), having checked it before forking.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0 || cluster.isWorker) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    const line = portProblem(error, port, host);
    if (line) exitWith(line);
    throw error;
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
}

/** `app.listen`, with the same one-line exit when the port was taken after the probe. */
export async function listenOrExit(app: FastifyInstance, port: number, host: string): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (error) {
    const line = portProblem(error, port, host);
    if (line) exitWith(line);
    throw error;
  }
}

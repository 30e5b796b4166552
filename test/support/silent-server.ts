import { createServer } from 'node:net';
import type { Socket } from 'node:net';

/** A TCP server that accepts connections and never answers: a dependency that hangs rather than refuses. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const held = new Set<Socket>();
  const server = createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    async close() {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { Socket, createServer } from 'node:net';

export interface PausableProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Stops forwarding in both directions and holds new connections, as a frozen server would (SIGSTOP). */
  pause(): void;
  /** Forwards again, including what was held. */
  resume(): void;
  close(): Promise<void>;
}

/** A TCP proxy to `target` whose forwarding can be paused: a database server that stops answering. */
export async function startPausableProxy(target: { host: string; port: number }): Promise<PausableProxy> {
  let paused = false;
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = new Socket();
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    upstream.connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
    // Neither side reads while paused (after pipe(), which resumes its source), so nothing is answered.
    if (paused) for (const socket of pair) socket.pause();
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    pause() {
      paused = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    resume() {
      paused = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    async close() {
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

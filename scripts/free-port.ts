import { createServer } from 'node:net';

/**
 * A port free on the loopback interface at the time of asking (the kernel picks it; closed again before the
 * caller's server takes it), for processes that must know each other's address before they start. The bench
 * and the tests' Redis and service processes use it.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

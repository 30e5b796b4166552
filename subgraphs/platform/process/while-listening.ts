import type { FastifyInstance } from 'fastify';

/** A background loop that hands its work back when stopped (the report and webhook workers). */
export interface BackgroundWorker {
  stop(): Promise<void>;
}

/** Runs a worker while the app listens: started by `listen`, stopped by `close` before the connections go. */
export function runWhileListening(app: FastifyInstance, start: () => BackgroundWorker): void {
  let worker: BackgroundWorker | undefined;
  app.addHook('onListen', async () => {
    worker ??= start();
  });
  app.addHook('preClose', async () => {
    await worker?.stop();
    worker = undefined;
  });
}

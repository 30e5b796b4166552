import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** JSON, HTML and GraphiQL's scripts and styles; report files are streamed as they are, with their length. */
const COMPRESSIBLE =
  /^(application\/([\w.+-]*\+)?json|text\/html|text\/css|text\/javascript|application\/javascript)\b/;

/**
 * gzip or brotli, as the request's Accept-Encoding prefers (brotli first on a tie), for bodies of 1 kB or more:
 * below that the encoding costs more than it saves. Compressed request bodies are not accepted (no inflating of
 * a small upload into a large one).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
  });
}

import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The service's configuration, parsed once from the environment. Nothing else reads `process.env`:
 * a bad value stops the process at start with a message naming the variable.
 */
const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// connection URL')
  .optional();

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: postgresUrl,
  SANDBOX_DATABASE_URL: postgresUrl,
  SANDBOX_SEED_SCALE: z.coerce.number().int().min(10).max(1_000_000).default(5000),
  VERTICALS_URL: z.url().optional(),
  MARKETS_URL: z.url().optional(),
  GATEWAY_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  // Session tokens: the first secret signs, every listed secret verifies (rotation: prepend a new one).
  JWT_SECRETS: z
    .string()
    .transform((value) => value.split(',').map((secret) => secret.trim()).filter(Boolean))
    .pipe(z.array(z.string().min(32, 'each secret must be at least 32 characters')).min(1))
    .optional(),
  JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 86_400).default(3600),
  // B: per-minute limits by plan (default); A: a rolling 24-hour quota per credential.
  RATE_LIMIT_SCHEME: z.enum(['A', 'B']).default('B'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  SANDBOX_CREDITS: z.coerce.number().int().min(1).default(500),
  // Lists count their `total` exactly up to this many matches, then report the planner's estimate (docs/api.md).
  EXACT_TOTAL_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  // Milliseconds the search's typo (trigram) tier may take before the search answers without typo matches.
  SEARCH_TYPO_BUDGET_MS: z.coerce.number().int().min(1).max(60_000).default(1_000),
  // On SIGTERM/SIGINT, milliseconds in-flight requests and admin commands get before their connections are cut.
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  // Rows a report job reads and writes per page (each page also beats the job's heartbeat).
  REPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(2_000),
});

export type Environment = z.infer<typeof environmentSchema> & { dataDir: string };

export class ConfigurationError extends Error {}

export function parseEnvironment(source: NodeJS.ProcessEnv): Environment {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigurationError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const viaUrl = [parsed.data.VERTICALS_URL, parsed.data.MARKETS_URL].filter(Boolean).length;
  if (viaUrl === 1) {
    throw new ConfigurationError('Invalid configuration:\n  VERTICALS_URL and MARKETS_URL go together');
  }
  if (viaUrl === 2 && !parsed.data.GATEWAY_SECRET) {
    throw new ConfigurationError(
      'Invalid configuration:\n  GATEWAY_SECRET is required when subgraphs are reached by URL',
    );
  }
  return { ...parsed.data, dataDir: resolve(parsed.data.DATA_DIR) };
}

function loadEnvironment(): Environment {
  try {
    return parseEnvironment(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

// Apollo Gateway phones home unless told not to, and this machine has no network.
process.env.APOLLO_TELEMETRY_DISABLED = '1';

export const env = loadEnvironment();

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
    .transform((value) =>
      value
        .split(',')
        .map((secret) => secret.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(32, 'each secret must be at least 32 characters')).min(1))
    .optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(3600),
  // B: per-minute limits by plan (default); A: a rolling 24-hour quota per credential.
  RATE_LIMIT_SCHEME: z.enum(['A', 'B']).default('B'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  SANDBOX_CREDITS: z.coerce.number().int().min(1).default(500),
  // Lists count their `total` exactly up to this many matches, then report the planner's estimate (docs/api.md).
  EXACT_TOTAL_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  // A list past EXACT_TOTAL_LIMIT that the planner estimates at no more than this is counted exactly up to it.
  EXACT_TOTAL_RECOUNT_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  // How long a flagged estimate of a list's total is reused for the same filter (totals.ts); 0 turns it off.
  TOTAL_ESTIMATE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  // Behind a load balancer: `true`, a hop count, or the proxies' addresses/CIDRs (comma-separated). Off by default:
  // trusting X-Forwarded-For from anyone lets a client pick the address its per-IP limit counts.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | number | string[] => {
      if (value === 'true' || value === 'false') return value === 'true';
      if (/^\d+$/.test(value)) return Number(value);
      return value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
    }),
  // Milliseconds the search's typo (trigram) tier may take before the search answers without typo matches.
  SEARCH_TYPO_BUDGET_MS: z.coerce.number().int().min(1).max(60_000).default(1_000),
  // Password hashes (scrypt) one process computes at once, and logins that may wait for one; more are refused.
  LOGIN_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  LOGIN_HASH_QUEUE: z.coerce.number().int().min(0).max(1_000).default(8),
  // Timeouts of every dependency (docs/security.md "Timeouts and readiness"): a dependency that hangs becomes a 503.
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  REDIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  SUBGRAPH_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(12_000),
  // `off`: identical subgraph queries in flight each run on their own (gateway/execution/in-flight-fetches.ts); for measuring.
  DEDUPLICATE_IN_FLIGHT: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  READINESS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  // Browser origins allowed to call the API cross-origin (exact scheme://host[:port], comma-separated); none by default.
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().refine(isOrigin, 'each origin must be scheme://host[:port], without path or trailing slash')),
    ),
  // Host names /mcp answers under, without port (DNS-rebinding protection, gateway/mcp/host-check.ts): add the
  // public name when deployed behind one.
  MCP_ALLOWED_HOSTS: z
    .string()
    .default('localhost,127.0.0.1,[::1]')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  // Bearer token of GET /metrics; without it the route does not exist.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // On SIGTERM/SIGINT, milliseconds in-flight requests and admin commands get before their connections are cut.
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  // Rows a report job reads and writes per page (each page also beats the job's heartbeat).
  REPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(2_000),
  // Webhooks to plain http and private addresses: local development and tests only (docs/webhooks.md).
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // Days the event log (webhook replays, GET /api/events) keeps each event; a cursor older is a 410.
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // Event streams (docs/events.md "Subscriptions"): how often each process reads the log besides its notices (ms),
  // streams open at once per API key and per process (429 past either), the events a stream may hold for a slow
  // client before it is ended (it resumes by cursor), and the heartbeat interval (ms).
  EVENT_TAIL_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  STREAMS_PER_KEY: z.coerce.number().int().min(1).max(1_000).default(10),
  STREAMS_PER_PROCESS: z.coerce.number().int().min(1).max(100_000).default(2_000),
  STREAM_BUFFER_EVENTS: z.coerce.number().int().min(10).max(100_000).default(1_000),
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  // How often each process's webhook worker looks for due deliveries, in milliseconds.
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  // One deadline for a whole delivery attempt (look-up, connection, headers, body); over it fails and is retried.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // `open`: anyone may create an account at /account (docs/account.md); closed, accounts come from the admin command.
  SIGNUP: z.enum(['open', 'closed']).default('closed'),
  // Live ingestion (docs/data-sources.md "Live ingestion"): `on` runs each source on its schedule in every gateway
  // (each run happens once across them); off, `npm run ingest -- run <source>` runs one by hand.
  INGEST_SCHEDULE: z.enum(['on', 'off']).default('off'),
  // The sources the schedule runs, comma-separated (default every one; the daily briefing runs with any).
  INGEST_SOURCES: z.string().optional(),
  // How often each gateway looks for a due source, in milliseconds.
  INGEST_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // Sent on every request; SEC's fair-access rule asks for the operator's contact in it.
  INGEST_USER_AGENT: z.string().min(3).default('data-graph (no contact configured: set INGEST_USER_AGENT)'),
  // Per request, whole body included; a larger body is refused as it streams.
  INGEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  INGEST_MAX_BYTES: z.coerce.number().int().min(1_024).max(2_000_000_000).default(200_000_000),
  // Requests a second to one host (SEC allows at most 10).
  INGEST_RATE: z.coerce.number().min(0.1).max(10).default(10),
  // Form 4 documents an EDGAR index run fetches at most (the rest wait for the next run).
  INGEST_FORM4_PER_RUN: z.coerce.number().int().min(0).max(10_000).default(200),
});

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value && !value.includes('*');
  } catch {
    return false;
  }
}

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

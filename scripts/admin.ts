import { applyMigrations } from '../prisma/migrate.ts';
import { createAccount, createApiKey, MODES, PLANS } from '../gateway/auth/api-keys.ts';
import { hashPassword } from '../gateway/auth/passwords.ts';
import type { Plan } from '../subgraphs/shared/context.ts';
import { openDatabase } from '../subgraphs/shared/database.ts';
import type { Database, Mode } from '../subgraphs/shared/database.ts';
import { env } from '../subgraphs/shared/config.ts';
import { parseCommandLine } from './command-line.ts';

/**
 * Server-side account administration on the control database (the live one: DATABASE_URL or DATA_DIR).
 *   npm run --silent admin -- create-account --email a@b.c --password secret --plan professional [--json]
 *   npm run --silent admin -- create-key --plan analyst --mode sandbox [--email a@b.c] [--name ci] [--json]
 * With PGlite only one process may open DATA_DIR: stop the server first (PostgreSQL has no such limit).
 */
const USAGE = `usage:
  admin create-account --email <address> --password <password> --plan <${PLANS.join('|')}> [--json]
  admin create-key --plan <${PLANS.join('|')}> --mode <${MODES.join('|')}> [--email <address>] [--name <name>] [--json]`;

class UsageError extends Error {}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T {
  if (!value || !allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

type Run = (control: Database) => Promise<Record<string, string>>;

/** Each command checks its arguments before any database is opened, so a typo fails at once. */
function createAccountCommand(values: Record<string, string | undefined>): Run {
  const email = required('email', values.email).trim().toLowerCase();
  const password = required('password', values.password);
  if (password.length < 8) throw new UsageError('--password must be at least 8 characters');
  const plan = oneOf<Plan>('plan', values.plan, PLANS);
  return async (control) => {
    if (await control.prisma.account.findUnique({ where: { email } })) throw new UsageError(`an account ${email} exists already`);
    const account = await createAccount(control, plan, email);
    await control.prisma.account.update({ where: { id: account.id }, data: { passwordHash: await hashPassword(password) } });
    return { account_id: account.id, email, plan };
  };
}

function createKeyCommand(values: Record<string, string | undefined>): Run {
  const plan = oneOf<Plan>('plan', values.plan, PLANS);
  const mode = oneOf<Mode>('mode', values.mode, MODES);
  const email = values.email?.trim().toLowerCase();
  return async (control) => {
    const existing = email ? await control.prisma.account.findUnique({ where: { email } }) : null;
    if (existing && existing.plan !== plan) {
      throw new UsageError(`the account ${email} is on the ${existing.plan} plan, not ${plan}`);
    }
    const account = existing ?? (await createAccount(control, plan, email));
    const { key } = await createApiKey(control, account.id, mode, values.name ?? 'admin');
    return { key, account_id: account.id, plan, mode };
  };
}

const COMMANDS = { 'create-account': createAccountCommand, 'create-key': createKeyCommand } as const;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseCommandLine(USAGE, {
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' }, password: { type: 'string' }, plan: { type: 'string' },
      mode: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' },
    },
  });
  const command = COMMANDS[positionals[0] as keyof typeof COMMANDS];
  if (!command || positionals.length !== 1) throw new UsageError(positionals[0] ? `unknown command ${positionals[0]}` : 'a command is required');
  const run = command(values as Record<string, string | undefined>);
  const control = await openDatabase({ mode: 'live', url: env.DATABASE_URL, dataDir: env.dataDir });
  try {
    await applyMigrations(control);
    const result = await run(control);
    process.stdout.write(
      values.json ? `${JSON.stringify(result)}\n` : `${Object.entries(result).map(([name, value]) => `${name}: ${value}`).join('\n')}\n`,
    );
    return 0;
  } finally {
    await control.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const usage = error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`admin: ${(error as Error).message}\n${usage ? `${USAGE}\n` : ''}`);
  process.exitCode = usage ? 2 : 1;
}

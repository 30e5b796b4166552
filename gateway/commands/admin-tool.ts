import { parseArgs } from 'node:util';
import type { applyAccountState as ApplyAccountState } from '../auth/account-state.ts';
import { createAccount, createApiKey, MODES } from '../auth/api-keys.ts';
import { hashPassword, PASSWORD_LENGTH } from '../auth/passwords.ts';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { asksForHelp, bothDatabases, isUsageError, UsageError } from '../../subgraphs/platform/process/command-tool.ts';
import type {
  CommandOutput,
  CommandTool,
  OpenDatabases,
  PreparedCommand,
} from '../../subgraphs/platform/process/command-tool.ts';

/**
 * Account administration on the control database (the live one): `create-account`, `create-key`, `set-plan`,
 * `disable-account` and `enable-account`.
 * scripts/admin.ts runs it; with PGlite and a running server, the server runs it (scripts/commands/run.ts).
 */
export const ADMIN_USAGE = `usage:
  admin create-account --email <address> --password <password> --plan <${PLANS.join('|')}> [--json]
  admin create-key --plan <${PLANS.join('|')}> --mode <${MODES.join('|')}> [--email <address>] [--name <name>] [--json]
  admin set-plan (--email <address> | --account <id>) --plan <${PLANS.join('|')}> [--json]
  admin disable-account (--email <address> | --account <id>) [--json]
  admin enable-account (--email <address> | --account <id>) [--json]`;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T {
  if (!value || !allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/**
 * Loaded by the commands that change a plan or standing only: it builds the plan table from the whole schema
 * (about a second of a command's start), which a usage error or a new key does not need.
 */
const applyAccountState: typeof ApplyAccountState = async (...args) =>
  (await import('../auth/account-state.ts')).applyAccountState(...args);

/** `databases`: both, for the work a plan change reaches in the sandbox too (endpoints, report jobs). */
type Work = (control: Database, databases: OpenDatabases) => Promise<Record<string, string>>;

/** Each command checks its arguments before any database is opened, so a typo fails at once. */
function createAccountCommand(values: Record<string, string | undefined>): Work {
  const email = required('email', values.email).trim().toLowerCase();
  const password = required('password', values.password);
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max)
    throw new UsageError(`--password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
  const plan = oneOf<Plan>('plan', values.plan, PLANS);
  return async (control) => {
    if (await control.prisma.account.findUnique({ where: { email } }))
      throw new UsageError(`an account ${email} exists already`);
    const account = await createAccount(control, plan, email);
    await control.prisma.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword(password) },
    });
    return { account_id: account.id, email, plan };
  };
}

function createKeyCommand(values: Record<string, string | undefined>): Work {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account named by exactly one of `--email` and `--account`, checked before any database is opened. */
function accountArgument(values: Record<string, string | undefined>) {
  const email = values.email?.trim().toLowerCase();
  const accountId = values.account?.trim();
  if (Boolean(email) === Boolean(accountId)) throw new UsageError('give exactly one of --email and --account');
  if (accountId && !UUID.test(accountId)) throw new UsageError('--account must be an account id (a UUID)');
  return async (control: Database) => {
    const account = await control.prisma.account.findUnique({ where: email ? { email } : { id: accountId! } });
    if (!account) throw new UsageError(`no account ${email ?? accountId}`);
    return account;
  };
}

/**
 * Upgrades or downgrades an account: there is no payment provider, so this is how a plan changes (/billing says
 * so). The work queued under the old plan follows the new one at once (applyAccountState).
 */
function setPlanCommand(values: Record<string, string | undefined>): Work {
  const find = accountArgument(values);
  const plan = oneOf<Plan>('plan', values.plan, PLANS);
  return async (control, databases) => {
    const account = await find(control);
    await control.prisma.account.update({ where: { id: account.id }, data: { plan } });
    await applyAccountState(bothDatabases(databases), account.id, { plan, disabled: Boolean(account.disabledAt) });
    return { account_id: account.id, email: account.email, plan, previous_plan: account.plan };
  };
}

/**
 * Disables or re-enables an account (docs/account.md "Disabling an account"). Disabled, its keys are refused with
 * `403 account_disabled` and its sessions end, on every gateway: the sessions migration's triggers end the
 * sessions and tell every gateway to forget the keys it keeps. Enabling revives no session.
 */
function setDisabledCommand(disabled: boolean) {
  return (values: Record<string, string | undefined>): Work => {
    const find = accountArgument(values);
    return async (control, databases) => {
      const account = await find(control);
      // Only a change writes: disabling twice keeps the first time, so disabled_at says since when.
      if (Boolean(account.disabledAt) !== disabled) {
        await control.prisma.account.update({
          where: { id: account.id },
          data: { disabledAt: disabled ? new Date() : null },
        });
      }
      // Its webhook endpoints and report jobs follow at once (suspended or lifted, queued jobs cancelled).
      await applyAccountState(bothDatabases(databases), account.id, { plan: account.plan as Plan, disabled });
      return { account_id: account.id, email: account.email, disabled: String(disabled) };
    };
  };
}

const COMMANDS = {
  'create-account': createAccountCommand,
  'create-key': createKeyCommand,
  'set-plan': setPlanCommand,
  'disable-account': setDisabledCommand(true),
  'enable-account': setDisabledCommand(false),
} as const;

function prepare(argv: string[], output: CommandOutput): PreparedCommand | number {
  // Not parseCommandLine: a server handed this command must print, not exit.
  if (asksForHelp(argv)) {
    output.out(`${ADMIN_USAGE}\n`);
    return 0;
  }
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      plan: { type: 'string' },
      mode: { type: 'string' },
      name: { type: 'string' },
      account: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const [name = ''] = positionals;
  // Own names only: `admin -- constructor` is an unknown command, not Object.prototype's member.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name as keyof typeof COMMANDS] : undefined;
  if (!command || positionals.length !== 1)
    throw new UsageError(positionals[0] ? `unknown command ${positionals[0]}` : 'a command is required');
  const work = command(values as Record<string, string | undefined>);
  return {
    mode: 'live',
    bothDatabases: true,
    argv,
    async run(control, output, databases) {
      const result = await work(control, databases);
      output.out(
        values.json
          ? `${JSON.stringify(result)}\n`
          : `${Object.entries(result)
              .map(([name, value]) => `${name}: ${value}`)
              .join('\n')}\n`,
      );
      return 0;
    },
  };
}

function fail(error: unknown, output: CommandOutput): number {
  const usage = isUsageError(error);
  output.err(`admin: ${error instanceof Error ? error.message : String(error)}\n${usage ? `${ADMIN_USAGE}\n` : ''}`);
  return usage ? 2 : 1;
}

export const adminTool: CommandTool = { name: 'admin', prepare, fail };

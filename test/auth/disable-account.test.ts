import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionTokens } from '../../gateway/auth/sessions.ts';
import { createServer } from '../../gateway/server.ts';
import { adminTool } from '../../gateway/commands/admin-tool.ts';
import type { PreparedCommand } from '../../subgraphs/platform/process/command-tool.ts';
import { DashboardClient, accountWithPassword } from '../account/dashboard-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/**
 * `admin disable-account` and `enable-account` (docs/account.md "Disabling an account"). The command runs on the
 * test's own connection, as a command in another process (or handed to the server over its socket) would: the
 * gateway learns of it only through the database.
 */
const password = 'a long enough password';
const DISABLED = {
  error: 'account_disabled',
  message: 'This account is disabled; its keys and sign-in are refused. Ask the operator of this service.',
};

/** Every gateway of a deployment holds the same JWT_SECRETS; here two gateways share one database. */
const tokens = createSessionTokens({ secrets: ['t'.repeat(32)], ttlSeconds: 600 });

let service: TestService;
let other: FastifyInstance;
let otherUrl: string;
beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0, server: { sessions: tokens } });
  other = await createServer({ databases: service.databases, sessions: tokens });
  await other.listen({ port: 0, host: '127.0.0.1' });
  const address = other.server.address();
  otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await other?.close();
  await service?.stop();
});

/** A call to the second gateway, which learns of every change only through the shared database. */
const onOther = async (path: string, credential: string) =>
  (await fetch(`${otherUrl}${path}`, { headers: { authorization: `Bearer ${credential}` } })).status;

/** Runs an admin command as scripts/admin.ts or the server's admin socket does; returns its JSON line. */
async function admin(...argv: string[]): Promise<Record<string, string>> {
  const printed: string[] = [];
  const output = { out: (text: string) => printed.push(text), err: (text: string) => printed.push(text) };
  const prepared = adminTool.prepare([...argv, '--json'], output) as PreparedCommand;
  expect(await prepared.run(service.databases.live, output, service.databases)).toBe(0);
  return JSON.parse(printed.join(''));
}

/** A kept key learns of another process's change by the database's notice: a moment after it commits. */
const eventually = (check: () => Promise<unknown>, expected: unknown) =>
  expect.poll(check, { timeout: 10_000, interval: 50 }).toEqual(expected);

describe('disabling an account', () => {
  it('refuses its kept keys with 403 account_disabled, ends its sessions and refuses sign-in; enabling restores keys only', async () => {
    const email = 'disabled@example.com';
    const account = await accountWithPassword(service, email, password, 'professional');
    const browser = new DashboardClient(service);
    await browser.signIn(email, password);
    const key = (await browser.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true })).body.key;
    const token = (await service.request('POST', '/api/auth/login', { body: { email, password } })).body.token;
    expect((await service.request('GET', '/api/signals', { key })).status).toBe(200);

    expect(await admin('disable-account', '--email', email)).toEqual({
      account_id: account.id,
      email,
      disabled: 'true',
    });
    await eventually(async () => (await service.request('GET', '/api/signals', { key })).status, 403);
    const refused = await service.request('GET', '/api/signals', { key });
    expect(refused.body).toEqual(DISABLED);
    const graphql = await service.request('POST', '/graphql', {
      key,
      body: { query: '{ signals(limit: 1) { nodes { id } } }' },
    });
    expect(graphql.status).toBe(403);
    expect(graphql.body.errors[0].extensions.code).toBe('account_disabled');
    // Its sessions ended with it: a 401, as for any ended session.
    expect((await browser.call('GET', '/account/api/keys')).status).toBe(401);
    expect((await service.request('GET', '/api/keys', { key: token })).status).toBe(401);
    const login = await service.request('POST', '/api/auth/login', { body: { email, password } });
    expect(login.status).toBe(403);
    expect(login.body).toEqual(DISABLED);
    const dashboard = new DashboardClient(service);
    await dashboard.open();
    const dashboardLogin = await dashboard.call('POST', '/account/api/login', {
      body: { email, password },
      csrf: true,
    });
    expect(dashboardLogin.status).toBe(403);
    expect(dashboard.cookies.has('__Host-session')).toBe(false);
    // A wrong password still says only that (the account's state is for whoever knows the password).
    const wrong = await service.request('POST', '/api/auth/login', { body: { email, password: 'not the password' } });
    expect(wrong.status).toBe(401);

    expect(await admin('enable-account', '--account', account.id)).toMatchObject({ disabled: 'false' });
    await eventually(async () => (await service.request('GET', '/api/signals', { key })).status, 200);
    expect((await browser.call('GET', '/account/api/keys')).status).toBe(401);
    expect((await service.request('GET', '/api/keys', { key: token })).status).toBe(401);
    await browser.signIn(email, password);
    expect((await browser.call('GET', '/account/api/keys')).status).toBe(200);
  });

  it('is refused by every gateway of the database, keys kept in memory and session tokens alike', async () => {
    const email = 'elsewhere@example.com';
    const account = await accountWithPassword(service, email, password, 'professional');
    const token = (await service.request('POST', '/api/auth/login', { body: { email, password } })).body.token;
    const key = (await service.request('POST', '/api/keys', { key: token, body: { mode: 'live' } })).body.key;
    expect(await onOther('/api/keys', token)).toBe(200);
    expect(await onOther('/api/signals', key)).toBe(200);

    await admin('disable-account', '--account', account.id);
    expect(await onOther('/api/keys', token)).toBe(401);
    await eventually(() => onOther('/api/signals', key), 403);
    await admin('enable-account', '--account', account.id);
    await eventually(() => onOther('/api/signals', key), 200);
    expect(await onOther('/api/keys', token)).toBe(401);
  });

  it('suspends its webhook endpoints while disabled and lifts them when enabled (applyAccountState)', async () => {
    const account = await accountWithPassword(service, 'hooks-off@example.com', password, 'institutional');
    const endpoints = service.databases.live.prisma.webhookEndpoint;
    const endpoint = await endpoints.create({
      data: { accountId: account.id, url: 'https://hooks.example.com/in', events: ['signal.created'], secret: 'x' },
    });
    const reason = async () => (await endpoints.findUniqueOrThrow({ where: { id: endpoint.id } })).suspendedReason;
    await admin('disable-account', '--account', account.id);
    expect(await reason()).toBe('account_disabled');
    await admin('enable-account', '--account', account.id);
    expect(await reason()).toBeNull();
  });

  it('keeps the first disabling time when disabled twice', async () => {
    const account = await accountWithPassword(service, 'twice@example.com', password, 'analyst');
    await admin('disable-account', '--account', account.id);
    const first = (await service.databases.live.prisma.account.findUniqueOrThrow({ where: { id: account.id } }))
      .disabledAt;
    await admin('disable-account', '--email', 'twice@example.com');
    const second = await service.databases.live.prisma.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(first).toBeInstanceOf(Date);
    expect(second.disabledAt).toEqual(first);
  });

  it('refuses bad arguments before touching the database', () => {
    const output = { out: () => undefined, err: () => undefined };
    for (const argv of [
      ['disable-account'],
      ['disable-account', '--email', 'a@example.com', '--account', '00000000-0000-0000-0000-000000000000'],
      ['enable-account', '--account', 'not-a-uuid'],
    ]) {
      expect(() => adminTool.prepare(argv, output), argv.join(' ')).toThrow(/--email|--account/);
    }
  });
});

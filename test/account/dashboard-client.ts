import { expect } from 'vitest';
import { createAccount } from '../../gateway/auth/api-keys.ts';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { HttpResult, TestService } from '../support/service.ts';

/**
 * The account dashboard as a browser uses it, over real HTTP: a cookie jar fed by `Set-Cookie`, and the CSRF
 * token of GET /account/api/session sent in `x-csrf-token` when asked. Tests choose what to leave out.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(private readonly service: TestService) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async call<Body = any>(
    method: string,
    path: string,
    options: { body?: unknown; csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<HttpResult<Body>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (options.csrf) headers['x-csrf-token'] = this.csrfToken;
    const result = await this.service.request<Body>(method, path, { body: options.body, headers });
    for (const line of result.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const name = pair!.slice(0, pair!.indexOf('='));
      const value = pair!.slice(pair!.indexOf('=') + 1);
      // An emptied cookie (Max-Age=0 or Expires in the past) is dropped, as a browser does.
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return result;
  }

  /** Opens the dashboard: the CSRF secret cookie and its token. */
  async open() {
    const session = await this.call('GET', '/account/api/session');
    expect(session.status, session.text).toBe(200);
    this.csrfToken = session.body.csrf_token;
    return session;
  }

  async signIn(email: string, password: string) {
    await this.open();
    const response = await this.call('POST', '/account/api/login', { body: { email, password }, csrf: true });
    expect(response.status, response.text).toBe(200);
    // The token is bound to the session (gateway/account/csrf.ts): the new session takes a new one, as the page does.
    await this.open();
    return response;
  }
}

/** An account with a password, as `admin create-account` makes it. */
export async function accountWithPassword(service: TestService, email: string, password: string, plan: Plan) {
  const account = await createAccount(service.databases.live, plan, email);
  await service.databases.live.prisma.account.update({
    where: { id: account.id },
    data: { passwordHash: await hashPassword(password) },
  });
  return account;
}

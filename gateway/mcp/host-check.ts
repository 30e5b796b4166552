import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../subgraphs/platform/errors.ts';

/** A host name or bracketed IPv6 address, and an optional port: nothing else (no `user@`, no path). */
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** The host name of a `Host` header or an origin's authority, without its port; undefined when it is malformed. */
function hostName(authority: string): string | undefined {
  return AUTHORITY.exec(authority)?.[1]!.toLowerCase();
}

export interface HostRules {
  /** Host names the service answers /mcp under (MCP_ALLOWED_HOSTS). */
  hosts: readonly string[];
  /** Browser origins allowed cross-origin (CORS_ORIGINS). */
  origins: readonly string[];
}

/**
 * DNS-rebinding protection, as the MCP specification asks of Streamable HTTP servers: a page whose name was made
 * to resolve to this service sends its own name as Host and Origin. Host must be one of ours; an Origin, which
 * only browsers send, must be an allowed origin or one of our hosts. A refusal is a 403 before anything is read.
 */
export function assertAllowedHost(request: FastifyRequest, rules: HostRules): void {
  const host = request.headers.host;
  const name = host === undefined ? undefined : hostName(host);
  if (!name || !rules.hosts.includes(name)) {
    throw new ApiError('host_not_allowed', 'This host name is not allowed for /mcp (MCP_ALLOWED_HOSTS).');
  }
  const origin = request.headers.origin;
  if (origin === undefined || rules.origins.includes(origin)) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ApiError('host_not_allowed', 'The Origin header is not a valid origin.');
  }
  const originName = hostName(originHost);
  if (!originName || !rules.hosts.includes(originName)) {
    throw new ApiError('host_not_allowed', 'Requests from this origin are not allowed for /mcp (CORS_ORIGINS).');
  }
}

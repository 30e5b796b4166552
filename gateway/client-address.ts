import ipaddr from 'ipaddr.js';

export type TrustProxy = boolean | number | string[];

/**
 * TRUST_PROXY as Fastify's `trustProxy`: whose X-Forwarded-For names the client. A hop count becomes the
 * function Fastify builds for one (its types do not list numbers).
 */
export function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/**
 * The client a per-address limit counts: an IPv4 address (IPv4-mapped IPv6 included), or an IPv6 client's /64,
 * the block one subscriber is given, so it cannot step through addresses for a fresh budget each time.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`).toNormalizedString()}/64`;
}

import ipaddr from 'ipaddr.js';
import type { IPv4, IPv6 } from 'ipaddr.js';

/**
 * Which addresses a webhook may go to, judged by what an address means rather than how it is spelled
 * (docs/webhooks.md "Safe by default"): an IPv6 address that carries an IPv4 one is judged as that IPv4
 * address, since the packets end up there (through the host's own stack, a NAT64 gateway or a 6to4 relay).
 */

const zeros = (parts: number[]) => parts.every((part) => part === 0);

/** The IPv6 forms that embed an IPv4 address, and which of its bytes hold it. */
const EMBEDDINGS: { form: string; matches: (address: IPv6) => boolean; bytes: [number, number] }[] = [
  { form: 'an IPv4-mapped IPv6 address', matches: (address) => address.range() === 'ipv4Mapped', bytes: [12, 16] },
  { form: 'an IPv4-translated IPv6 address', matches: (address) => address.range() === 'rfc6145', bytes: [12, 16] },
  // ::a.b.c.d, RFC 4291's deprecated form (:: and ::1 have ranges of their own, so they are not `unicast`).
  {
    form: 'an IPv4-compatible IPv6 address',
    matches: (address) => address.range() === 'unicast' && zeros(address.parts.slice(0, 6)),
    bytes: [12, 16],
  },
  // 64:ff9b::/96 and 64:ff9b:1::/48; the local-use /48 may embed at other prefix lengths, which cannot be told
  // apart from outside, so only its /96 layout (zeros up to the last 32 bits) is read and the rest is refused.
  {
    form: 'a NAT64 address',
    matches: (address) => address.range() === 'rfc6052' && zeros(address.parts.slice(3, 6)),
    bytes: [12, 16],
  },
  { form: 'a 6to4 address', matches: (address) => address.range() === '6to4', bytes: [2, 6] },
];

/** What each range that is not public is called in a refusal; the address itself is never said. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  uniqueLocal: 'a unique-local (private) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  rfc6052: 'a local-use NAT64 address whose IPv4 address cannot be read',
  teredo: 'a Teredo tunnel address',
};

function embeddedIPv4(address: IPv6): { address: IPv4; form: string } | undefined {
  const embedding = EMBEDDINGS.find((candidate) => candidate.matches(address));
  if (!embedding) return undefined;
  const bytes = address.toByteArray().slice(...embedding.bytes);
  return { address: ipaddr.fromByteArray(bytes) as IPv4, form: embedding.form };
}

/**
 * Why a webhook may not go to `text` (an IPv4 or IPv6 address), or undefined when it may: public means
 * ipaddr.js `unicast`, judged on the embedded IPv4 address when there is one.
 */
export function addressRefusal(text: string): string | undefined {
  const parsed = ipaddr.parse(text);
  const embedded = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as IPv6) : undefined;
  const range = (embedded?.address ?? parsed).range();
  if (range === 'unicast') return undefined;
  const name = RANGE_NAMES[range] ?? 'a reserved or special-purpose address';
  return embedded ? `${name}, embedded in ${embedded.form}` : name;
}

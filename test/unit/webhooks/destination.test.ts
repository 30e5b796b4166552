import { describe, expect, it } from 'vitest';
import { DestinationRefused, resolveDestination } from '../../../subgraphs/platform/webhooks/destination.ts';

/** A resolver that answers from a table, as a DNS server pointed at an internal address would. */
const dns = (answers: Record<string, string[]>) => async (host: string) => {
  const found = answers[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found;
};

const refusal = async (url: string, resolve?: (host: string) => Promise<string[]>) => {
  const error = await resolveDestination(url, false, resolve).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(DestinationRefused);
  return (error as Error).message;
};

describe('webhook destinations', () => {
  it.each([
    'https://127.0.0.1/hooks',
    'https://[::1]/hooks',
    'https://10.1.2.3/',
    'https://172.16.0.9/',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://224.0.0.1/',
  ])('refuses %s, an address that is not public', async (url) => {
    expect(await refusal(url)).toMatch(/^the host resolves to an? [a-z-]+/);
  });

  // The same address spelled another way is the same address: IPv4 inside IPv6 is judged as the IPv4.
  it.each([
    ['https://[::127.0.0.1]/', 'a loopback address, embedded in an IPv4-compatible IPv6 address'],
    ['https://[::169.254.169.254]/', 'a link-local address, embedded in an IPv4-compatible IPv6 address'],
    ['https://[::10.0.0.1]/', 'a private-network address, embedded in an IPv4-compatible IPv6 address'],
    ['https://[::ffff:127.0.0.1]/', 'a loopback address, embedded in an IPv4-mapped IPv6 address'],
    ['https://[::ffff:0:10.0.0.1]/', 'a private-network address, embedded in an IPv4-translated IPv6 address'],
    ['https://[64:ff9b::169.254.169.254]/', 'a link-local address, embedded in a NAT64 address'],
    ['https://[64:ff9b:1::192.168.0.1]/', 'a private-network address, embedded in a NAT64 address'],
    ['https://[64:ff9b:1:7f00:1::]/', 'a local-use NAT64 address whose IPv4 address cannot be read'],
    ['https://[2002:7f00:1::]/', 'a loopback address, embedded in a 6to4 address'],
    ['https://[2002:a9fe:a9fe::1]/', 'a link-local address, embedded in a 6to4 address'],
    ['https://[::1]/', 'a loopback address'],
    ['https://[::]/', 'an unspecified address'],
  ])('refuses %s by the address it means', async (url, rule) => {
    expect(await refusal(url)).toBe(`the host resolves to ${rule}`);
  });

  it('accepts an embedded IPv4 address that is public', async () => {
    for (const url of [
      'https://[::ffff:93.184.216.34]/',
      'https://[64:ff9b::93.184.216.34]/',
      'https://[2002:5db8:d822::1]/',
    ]) {
      expect((await resolveDestination(url, false)).addresses).toHaveLength(1);
    }
  });

  it('refuses a public name that resolves to an internal address, in whatever form, without saying it', async () => {
    for (const internal of ['10.0.0.7', '::10.0.0.7', '64:ff9b::a00:7', '2002:a00:7::']) {
      const resolve = dns({ 'hooks.example.com': ['93.184.216.34', internal] });
      const message = await refusal('https://hooks.example.com/in', resolve);
      expect(message).toMatch(/^the host resolves to a private-network address/);
      expect(message).not.toContain('a00');
      expect(message).not.toContain('10.0.0.7');
    }
  });

  it('refuses localhost through the system resolver', async () => {
    expect(await refusal('https://localhost:8443/hooks')).toBe('the host resolves to a loopback address');
  });

  it('refuses plain http, credentials, a name that does not resolve and what is not a URL', async () => {
    expect(await refusal('http://93.184.216.34/')).toBe('must be an https URL');
    expect(await refusal('https://user:pw@93.184.216.34/')).toBe('must not carry a user name or password');
    expect(await refusal('https://nowhere.example/', dns({}))).toBe('host nowhere.example does not resolve');
    expect(await refusal('hooks.example.com/in')).toMatch(/must be an absolute URL/);
    expect(await refusal(`https://example.com/${'a'.repeat(2100)}`)).toBe('must be at most 2048 characters');
  });

  it('accepts a public https destination and returns the addresses to connect to', async () => {
    const resolve = dns({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    const destination = await resolveDestination('https://hooks.example.com/in?x=1', false, resolve);
    expect(destination.url.href).toBe('https://hooks.example.com/in?x=1');
    expect(destination.addresses).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
  });

  it('allows http and private addresses when WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const destination = await resolveDestination('http://127.0.0.1:4000/hooks', true);
    expect(destination.addresses).toEqual(['127.0.0.1']);
  });
});

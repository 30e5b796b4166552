import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { addressRefusal } from './address-rules.ts';

/**
 * Where a webhook may be delivered (docs/webhooks.md "Safe by default"): an `https` URL whose host resolves only
 * to public addresses (address-rules.ts). The check runs when an endpoint is registered and again before every
 * attempt, on the addresses the attempt then connects to, so a name re-pointed at an internal address (DNS
 * rebinding) is refused too. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, for local development and tests) allows `http` and any address.
 */
export interface Destination {
  url: URL;
  /** The addresses the request must connect to: those checked, not a second lookup's. */
  addresses: string[];
}

export class DestinationRefused extends Error {}

const MAX_URL_LENGTH = 2048;

/** The URL as given, checked for shape only (registration refuses these with a 400 naming `url`). */
export function parseDestinationUrl(text: string, allowPrivate: boolean): URL {
  if (text.length > MAX_URL_LENGTH) throw new DestinationRefused(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DestinationRefused('must be an absolute URL such as https://example.com/hooks');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new DestinationRefused('must be an https URL');
  if (url.username || url.password) throw new DestinationRefused('must not carry a user name or password');
  return url;
}

/** Resolves the URL's host and refuses it unless every address is public (or private ones are allowed). */
export async function resolveDestination(
  text: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = lookupAll,
): Promise<Destination> {
  const url = parseDestinationUrl(text, allowPrivate);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new DestinationRefused(`host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new DestinationRefused(`host ${host} does not resolve`);
  if (!allowPrivate) {
    const refusal = addresses.map((address) => addressRefusal(address)).find((reason) => reason !== undefined);
    if (refusal) throw new DestinationRefused(`the host resolves to ${refusal}`);
  }
  return { url, addresses };
}

async function lookupAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/**
 * Pool metadata (CIP-6 style JSON registered by URL + blake2b-256 hash in the pool certificate). The JSON is only
 * trusted when its exact bytes hash to the registered hash: anyone can serve anything at a URL, the hash is what
 * the operator signed on chain. The fetcher is injected so tests never touch the network.
 */
import { lookup } from 'node:dns';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { hash256 } from '../../cardano/address.js';

/** Returns the body bytes at `url`; throws on network errors or non-2xx answers. */
export type MetadataFetcher = (url: string) => Promise<Uint8Array>;

export interface PoolMetadata {
  ticker: string | null;
  name: string | null;
  description: string | null;
  homepage: string | null;
}

export type MetadataResult =
  { verified: true; metadata: PoolMetadata } | { verified: false; reason: string } | { verified: null; reason: string };

/** CIP-6 limits the metadata file to 512 bytes; a little slack covers extended-metadata pointers. */
export const MAX_METADATA_BYTES = 4096;

const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.length > 0 && v.length <= max ? v : null;

/** The fields of a metadata document, or null when it is not a JSON object. Ticker: 3–5 characters (CIP-6). */
export function parsePoolMetadata(bytes: Uint8Array): PoolMetadata | null {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const ticker = text(o.ticker, 5);
  return {
    ticker: ticker && ticker.length >= 3 ? ticker : null,
    name: text(o.name, 200),
    description: text(o.description, 1000),
    homepage: text(o.homepage, 500),
  };
}

/** Fetches `url`, checks its blake2b-256 against the registered `hash` (hex), parses it. Never throws. */
export async function fetchPoolMetadata(url: string, hash: string, fetcher: MetadataFetcher): Promise<MetadataResult> {
  let bytes: Uint8Array;
  try {
    bytes = await fetcher(url);
  } catch (e) {
    return { verified: null, reason: `fetch failed: ${(e as Error).message}` };
  }
  if (bytes.length > MAX_METADATA_BYTES) return { verified: false, reason: `larger than ${MAX_METADATA_BYTES} bytes` };
  if (hash256(bytes) !== hash.toLowerCase()) return { verified: false, reason: 'hash does not match the certificate' };
  const metadata = parsePoolMetadata(bytes);
  if (!metadata) return { verified: false, reason: 'not a JSON object' };
  return { verified: true, metadata };
}

export interface HttpFetcherOptions {
  /** Abort a fetch after this long (default 5 s): a slow operator host must not stall the recompute. */
  timeoutMs?: number;
  /**
   * Maps a registered URL to the address actually fetched; null refuses the URL. The devnet's certificates name
   * `https://….devnet/…` hosts that the devnet serves itself (Devnet.hostedUrl); absent = fetch the URL as is.
   * An address the resolver chose is the operator's and is fetched wherever it points.
   */
  resolve?: (url: string) => string | null;
  /**
   * Addresses a URL as registered on chain (and every redirect it leads to) may not connect to; default
   * NON_PUBLIC_ADDRESSES. Tests narrow it to reach their loopback servers.
   */
  blocked?: BlockList;
}

/**
 * Where a metadata URL from a pool certificate must never make the worker connect: anyone can register a pool
 * with any URL, so without this the worker would send GETs into its own network (loopback, private and
 * link-local ranges, the cloud metadata service at 169.254.169.254) every hour per pool, and the pool's public
 * `metadata.reason` would tell their status (a port and path scan by chain certificate). IPv4-mapped IPv6
 * addresses are checked against the IPv4 ranges (BlockList does that).
 */
export const NON_PUBLIC_ADDRESSES = (() => {
  const b = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8], // "this network"
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8],
    ['169.254.0.0', 16], // link-local, cloud metadata services
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ];
  const v6: [string, number][] = [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96], // NAT64: an IPv4 address behind it
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001:db8::', 32],
    ['2002::', 16], // 6to4: an IPv4 address inside
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
    ['ff00::', 8], // multicast
  ];
  for (const [a, n] of v4) b.addSubnet(a, n, 'ipv4');
  for (const [a, n] of v6) b.addSubnet(a, n, 'ipv6');
  return b;
})();

/** Redirects followed (short-link services, moved hosts), each hop checked like the first. */
const MAX_REDIRECTS = 5;

const blockedAddress = (blocked: BlockList, address: string) =>
  blocked.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** dns.lookup for the request, refusing a name any of whose addresses is blocked (checked when connecting). */
function checkedLookup(blocked: BlockList): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => blockedAddress(blocked, a.address));
      if (bad) return callback(new Error(`${hostname} is not a public address (${bad.address})`), '', 0);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      // Node asks for every address (`all`) when it races IPv4 and IPv6 (autoSelectFamily).
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

/** One GET: the response, or an error for a blocked address literal (a name is checked by checkedLookup). */
function get(url: URL, blocked: BlockList, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && blockedAddress(blocked, host)) throw new Error(`${host} is not a public address`);
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsGet : httpGet)(
      url,
      { lookup: checkedLookup(blocked), signal, headers: { accept: 'application/json' } },
      resolve,
    );
    req.on('error', reject);
  });
}

/** Reads at most `max` + 1 bytes of a body, then stops (the caller rejects anything above `max`). */
async function readBounded(res: IncomingMessage, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    res.destroy();
    return new Uint8Array(max + 1);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) {
      res.destroy();
      break;
    }
  }
  return new Uint8Array(Buffer.concat(chunks).subarray(0, max + 1));
}

/**
 * HTTP fetcher: only http(s) URLs, a timeout over the whole fetch and its redirects, bodies read up to the cap, and
 * no connection to a non-public address (NON_PUBLIC_ADDRESSES) for a URL as registered on chain.
 */
export function httpMetadataFetcher(opts: HttpFetcherOptions = {}): MetadataFetcher {
  const timeoutMs = opts.timeoutMs ?? 5000;
  return async (registered) => {
    const resolved = opts.resolve ? opts.resolve(registered) : registered;
    if (resolved === null) throw new Error('URL not served on this network');
    const blocked = resolved === registered ? (opts.blocked ?? NON_PUBLIC_ADDRESSES) : new BlockList();
    const signal = AbortSignal.timeout(timeoutMs);
    let url = resolved;
    for (let hop = 0; ; hop++) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new Error('not an http(s) URL');
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('not an http(s) URL');
      const res = await get(target, blocked, signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
        url = new URL(location, target).href;
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new Error(`HTTP ${status}`);
      }
      return readBounded(res, MAX_METADATA_BYTES);
    }
  };
}

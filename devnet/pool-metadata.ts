/**
 * The stake pool operators' web hosts. A pool registration certificate carries a metadata URL and the blake2b-256
 * hash of the JSON document found there (CIP-6: name, ticker, description, homepage); the document itself lives
 * off chain, on the operator's web server. On the devnet every operator's host is a name under the `.devnet`
 * top-level domain (`https://{ticker}.stakepool.devnet/v{version}/poolMetadata.json`) and the devnet's own HTTP
 * server stands in for those hosts: it serves `GET /hosted/{host}/{path}` (devnet/server.ts). The URL on chain
 * never names the devnet's port, so certificates stay byte-identical across restarts on any port; a consumer maps a
 * `.devnet` URL to the running devnet with `hostedUrl` (the devnet is the DNS of that domain).
 *
 * Each registration (version) gets its own path, as operators who keep every published file do; the document is a
 * pure function of the pool and the version. One operator in ten (pool index ≡ 3 mod 10) edited the file after
 * registering it without re-registering: what the host serves no longer hashes to the certificate's hash, as
 * happens on mainnet.
 */
import { hash256 } from '../cardano/address.js';
import type { PoolKeys, World } from './world.js';

export const HOSTED_PREFIX = '/hosted/';
const DOMAIN = 'stakepool.devnet';
const FILE = 'poolMetadata.json';
const enc = new TextEncoder();

export const poolHost = (pool: PoolKeys): string => `${pool.ticker.toLowerCase()}.${DOMAIN}`;

export function poolMetadataUrl(pool: PoolKeys, version: number): string {
  return `https://${poolHost(pool)}/v${version}/${FILE}`;
}

const titleCase = (s: string) => s.charAt(0) + s.slice(1).toLowerCase();

/** The JSON document the operator registered with registration `version` (1 = the first), UTF-8 bytes. */
export function registeredPoolMetadata(pool: PoolKeys, version: number): Uint8Array {
  const doc = {
    name: `${titleCase(pool.ticker)} Stake Pool`,
    ticker: pool.ticker,
    description: `Devnet stake pool #${pool.index}, parameters of registration ${version}.`,
    homepage: `https://${poolHost(pool)}`,
  };
  return enc.encode(JSON.stringify(doc));
}

/** Whether this operator's host serves an edited file that no longer matches the registered hash. */
export const editedAfterRegistration = (pool: PoolKeys): boolean => pool.index % 10 === 3;

/** The certificate's metadata anchor for registration `version`: the URL and the hash of the registered bytes. */
export function poolMetadataAnchor(pool: PoolKeys, version: number): { url: string; hash: string } {
  return { url: poolMetadataUrl(pool, version), hash: hash256(registeredPoolMetadata(pool, version)) };
}

/** The bytes the operator's host serves at `url`, or null (404) when no such file exists. */
export function servedPoolMetadata(world: World, url: string): Uint8Array | null {
  const m = /^https:\/\/([a-z0-9]+)\.stakepool\.devnet\/v([1-9][0-9]{0,3})\/poolMetadata\.json$/.exec(url);
  if (!m) return null;
  const pool = world.pools.find((p) => p.ticker.toLowerCase() === m[1]);
  if (!pool) return null;
  const bytes = registeredPoolMetadata(pool, Number(m[2]));
  if (!editedAfterRegistration(pool)) return bytes;
  const edited = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, string>;
  edited.description = `${edited.description} Now with lower fees!`;
  return enc.encode(JSON.stringify(edited));
}

/** `GET {HOSTED_PREFIX}{host}/{path}` of the devnet server → the hosted `https://{host}/{path}` URL, or null. */
export function hostedRequestUrl(requestPath: string): string | null {
  if (!requestPath.startsWith(HOSTED_PREFIX)) return null;
  const rest = requestPath.slice(HOSTED_PREFIX.length).split('?')[0] as string;
  return /^[a-z0-9.-]+\.devnet\//.test(rest) ? `https://${rest}` : null;
}

/**
 * A `.devnet` URL → where the devnet whose Ogmios endpoint is `chainUrl` (ws:// or http://host:port) serves it;
 * null for any other URL.
 */
export function hostedUrl(chainUrl: string, url: string): string | null {
  const m = /^https?:\/\/([a-z0-9.-]+\.devnet)(\/[^?#]*)?$/i.exec(url);
  const base = /^(?:ws|http)s?:\/\/([^/]+)/i.exec(chainUrl);
  if (!m || !base) return null;
  return `http://${base[1] as string}${HOSTED_PREFIX}${(m[1] as string).toLowerCase()}${m[2] ?? '/'}`;
}

/**
 * The metadata fetcher's resolver next to a chain source: `.devnet` URLs go to the devnet's HTTP server (its hosts
 * exist nowhere else; `.devnet` is no public top-level domain, so no real pool's URL is affected), every other URL
 * is fetched as registered.
 */
export const devnetHostResolver =
  (chainUrl: string) =>
  (url: string): string =>
    hostedUrl(chainUrl, url) ?? url;

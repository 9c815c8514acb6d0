/**
 * Pool metadata (CIP-6 style JSON registered by URL + blake2b-256 hash in the pool certificate). The JSON is only
 * trusted when its exact bytes hash to the registered hash: anyone can serve anything at a URL, the hash is what
 * the operator signed on chain. The fetcher is injected so tests never touch the network.
 */
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
   */
  resolve?: (url: string) => string | null;
}

/** Reads at most `max` + 1 bytes of a body, then stops (the caller rejects anything above `max`). */
async function readBounded(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    return new Uint8Array(max + 1);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (!reader) return new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > max) {
      await reader.cancel();
      break;
    }
  }
  const out = new Uint8Array(Math.min(size, max + 1));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
    if (at >= out.length) break;
  }
  return out;
}

/** HTTP fetcher: global fetch with a timeout and a size cap (only http(s) URLs; bodies read up to the cap). */
export function httpMetadataFetcher(opts: HttpFetcherOptions = {}): MetadataFetcher {
  const timeoutMs = opts.timeoutMs ?? 5000;
  return async (registered) => {
    const url = opts.resolve ? opts.resolve(registered) : registered;
    if (url === null) throw new Error('URL not served on this network');
    if (!/^https?:\/\//i.test(url)) throw new Error('not an http(s) URL');
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    return readBounded(res, MAX_METADATA_BYTES);
  };
}

/**
 * Fetching one feed: Node's fetch with a timeout (AbortSignal), an RSS/Atom Accept header, a size cap and the
 * HTTP status checked, so a slow, broken or huge feed fails alone with a reason the run records.
 */
export const FEED_TIMEOUT_MS = 10_000;
/** Larger documents are refused (a news feed is tens to hundreds of KB). */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What the feed's server said identifies the document it sent (ETag, Last-Modified), for the next conditional GET. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

/** A fetched feed document, or `notModified` when the server answered 304 to the validators sent. */
export type FeedFetch = { notModified: false; text: string; validators: FeedValidators } | { notModified: true };

/**
 * GETs the feed; with `validators` of the document last ingested, conditionally (If-None-Match, If-Modified-Since),
 * so an unchanged feed costs its server a 304 instead of the document every 15 minutes.
 */
export async function fetchFeed(
  url: string,
  opts: { fetch?: FetchLike; timeoutMs?: number; validators?: FeedValidators | null } = {},
): Promise<FeedFetch> {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? FEED_TIMEOUT_MS;
  const conditional: Record<string, string> = {};
  if (opts.validators?.etag) conditional['if-none-match'] = opts.validators.etag;
  if (opts.validators?.lastModified) conditional['if-modified-since'] = opts.validators.lastModified;
  let res: Response;
  try {
    res = await doFetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
      headers: {
        accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
        'user-agent': 'cardano-data-service news ingest',
        ...conditional,
      },
    });
  } catch (e) {
    const err = e as Error;
    if (err.name === 'TimeoutError' || err.name === 'AbortError')
      throw new Error(`timed out after ${timeoutMs} ms`, { cause: e });
    throw new Error(`fetch failed: ${(err.cause as Error | undefined)?.message ?? err.message}`, { cause: e });
  }
  if (res.status === 304 && Object.keys(conditional).length > 0) {
    await res.body?.cancel();
    return { notModified: true };
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > FEED_MAX_BYTES) {
    await res.body?.cancel();
    throw new Error(`document too large (${declared} bytes)`);
  }
  const text = decodeDocument(await readUpTo(res, FEED_MAX_BYTES), res.headers.get('content-type'));
  return {
    notModified: false,
    text,
    validators: { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') },
  };
}

/** The feed's document, fetched unconditionally. */
export async function fetchFeedText(
  url: string,
  opts: { fetch?: FetchLike; timeoutMs?: number } = {},
): Promise<string> {
  const r = await fetchFeed(url, opts);
  if (r.notModified) throw new Error('HTTP 304 to an unconditional GET');
  return r.text;
}

/**
 * The body, refused once it passes `max` bytes: read whole first (arrayBuffer), a feed sent without a length
 * (chunked) was held in memory however large it grew before the size was checked, so one feed streaming without
 * end could run the worker out of memory.
 */
async function readUpTo(res: Response, max: number): Promise<Uint8Array> {
  const reader = res.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new Error(`document too large (over ${max} bytes)`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Bytes → text in the charset the Content-Type header names, else the XML declaration's encoding, else UTF-8. */
export function decodeDocument(bytes: Uint8Array, contentType: string | null): string {
  const fromHeader = /charset=["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const fromXml = /^\s*<\?xml[^>]*encoding=["']([\w.:-]+)["']/i.exec(head)?.[1];
  for (const label of [fromHeader, fromXml]) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // An unknown label: try the next source.
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Listening: builds the app and binds it to a port. The process (scripts/start.ts) owns signals and decides when
 * to call `close()`.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { createApp, securityOptions } from './app.js';
import type { ApiDeps } from './deps.js';
import { dataSecurityHeaders } from './security-headers.js';

export interface RunningApi {
  /** Base URL of the listener (localhost when bound to every interface). */
  url: string;
  server: http.Server;
  /** Stops accepting connections, ends idle keep-alive sockets, and resolves when in-flight requests finish. */
  close(): Promise<void>;
}

/** Open connections still busy this long after close() are cut (a streaming client must not block shutdown). */
const CLOSE_GRACE_MS = 5_000;
/**
 * A client has this long to send a request's headers, and its whole request (a tool-server body is at most
 * 4 MiB), before it gets 408 and its connection is closed: Node's defaults (60 s, 300 s) let a slow client hold a
 * connection for minutes (slowloris). Answers are not bounded by these.
 */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * A connection that neither sends nor takes a byte for this long is closed: a client that asked for a large answer
 * and stopped reading it would otherwise hold the answer's unsent part in the API's memory (and its socket) until it
 * went away, however long. A slow reader is not cut: each chunk it takes is activity. Past the header and request
 * timeouts, so a request still arriving gets its 408 first; nothing this service answers stays silent this long
 * while it works (keep-alive sockets idle between requests are closed after 5 s anyway).
 */
const SEND_IDLE_TIMEOUT_MS = 60_000;
/**
 * How often Node looks for connections past those timeouts. Its default (30 s) is when they are enforced, not what
 * they say: a client trickling header lines got its 408 after 30 s, not 15 s (up to 45 s), a slow body up to 60 s.
 */
const TIMEOUT_CHECK_MS = 1_000;

/**
 * The longest request target served (path and query, bytes). The longest a route takes is a Byron address with its
 * query, well under 1 KB; longer is a client's mistake or a probe, answered 414 as nginx does past its 8 KB buffers.
 * Past Node's header limit (16 KB for the request line and headers together) the parser refuses it first: that
 * refusal is a 414 too when the request line alone is what overflowed (`clientErrorAnswer`).
 */
const MAX_URL_BYTES = 8_192;
const URL_TOO_LONG = `URL too long: at most ${MAX_URL_BYTES} bytes of path and query`;

const INVALID_HOST = 'invalid Host header: it must be a host name or IP address, optionally with :port';
const DUPLICATE_HOST = 'more than one Host header: send exactly one';

/**
 * How many Host field lines a request carries. Node keeps the first of several in `req.headers.host` and drops the
 * others, so `Host: a` then `Host: b` was served as a request for `a`, while a proxy or cache in front may take `b`
 * (the disagreement request smuggling and cache poisoning rely on). RFC 9112 3.2: a request with more than one Host
 * field line is answered 400.
 */
export function hostLines(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') n++;
  return n;
}

/**
 * Whether a Host value is a URL authority without user info (RFC 9112 3.2: a request whose Host has an invalid value
 * is answered 400). The tool server builds the request's URL from it (`http://{host}{path}`, as the SDK's
 * toWebRequest does): a Host such as `a b`, `x:99999`, `[::1` or `%zz` made that URL throw, and the tool server
 * answered 500 "Internal server error", logged at error level, to any client that sent one. A value that parses
 * but adds a path, query or fragment (`x/y`, `x?y`) is no authority either.
 */
export function validHost(host: string): boolean {
  try {
    const url = new URL(`http://${host}`);
    return url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/** The last request each connection carried: a timeout after its answer went out ends the connection silently. */
const lastRequest = new WeakMap<Socket, http.IncomingMessage>();

export async function startApi(
  deps: ApiDeps,
  opts: { port: number; host: string; headersTimeoutMs?: number; requestTimeoutMs?: number; idleTimeoutMs?: number },
): Promise<RunningApi> {
  const app = createApp(deps);
  const handle = app.callback();
  const refuse = refusalWriter(dataSecurityHeaders(securityOptions(deps.config.SITE_URL)));
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = http.createServer(
    {
      headersTimeout,
      requestTimeout: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, headersTimeout / 4),
      // Node refuses an HTTP/1.1 request without Host itself, with an empty 400; it is refused below, with `{ error }`.
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
        refuse.json(res, 400, 'the Host header is required (HTTP/1.1)');
      else if (hostLines(req.rawHeaders) > 1) refuse.json(res, 400, DUPLICATE_HOST);
      else if (req.headers.host && !validHost(req.headers.host)) refuse.json(res, 400, INVALID_HOST);
      else if ((req.url?.length ?? 0) > MAX_URL_BYTES) refuse.json(res, 414, URL_TOO_LONG);
      // A pipelined request (sent on a connection before the answer to the one before it went out) is answered once
      // that answer has gone to the socket: Node hands the response its socket then ('socket'). Answered at once,
      // every request of a pipeline had its answer made and held in memory behind the first: one connection sending
      // 150 pipelined GETs of distinct 2 MB lists (15 KB) and reading nothing took the API from 215 to 484 MB, kept
      // until it closed, and a few thousand connections to 8 GB. Now a connection holds at most one unsent answer.
      else if (!res.socket) res.once('socket', () => void handle(req, res));
      else void handle(req, res);
    },
  );
  // With no 'timeout' listener, Node destroys the idle socket (its unsent answer is freed with it).
  server.setTimeout(opts.idleTimeoutMs ?? SEND_IDLE_TIMEOUT_MS);
  server.on('request', (req: http.IncomingMessage) => lastRequest.set(req.socket, req));
  server.on('clientError', clientErrorAnswer(deps.log, refuse));
  // An Expect other than 100-continue (which Node answers and then serves the request): 417, as Node would, with
  // `{ error }` instead of an empty body.
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) =>
    refuse.json(res, 417, 'unsupported Expect header (only 100-continue is supported)'),
  );
  // CONNECT (a proxy tunnel) is no method of this service: 405 like any other, instead of a dropped connection.
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) =>
    socket.end(refuse.plain(405, 'method CONNECT is not allowed', 'Allow: GET, HEAD, OPTIONS, POST\r\n')),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  const anyInterface = address === '0.0.0.0' || address === '::';
  const host = anyInterface ? 'localhost' : family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        cut.unref();
        server.close((err) => {
          clearTimeout(cut);
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** Status and `{ error }` text of a request the HTTP parser refused before any route saw it. */
function parserRefusal(err: Error & { code?: string; rawPacket?: unknown }): [number, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineOverflowed(err.rawPacket) ? [414, URL_TOO_LONG] : [431, 'request headers too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return [408, 'request timed out'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'request too large'];
    default:
      return [400, 'malformed HTTP request'];
  }
}

/**
 * Whether the bytes the parser refused for size begin a request whose request line alone is over MAX_URL_BYTES (no
 * line end within them, or a late one). A request line split across packets shows only its tail: that stays 431.
 */
function requestLineOverflowed(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw) || !/^[A-Z]+ [^ \r\n]/.test(raw.toString('latin1', 0, 32))) return false;
  const eol = raw.indexOf(0x0a);
  return eol === -1 || eol > MAX_URL_BYTES;
}

/**
 * Answers what Node's HTTP parser refuses (a bad request line, oversized headers, trailing bytes after a request)
 * with the API's JSON `{ error }` instead of an empty body. The socket is ended without the error: destroying it
 * with the error would hand the parser error, whose `rawPacket` holds the raw request bytes (API keys, session
 * cookies), to every socket error listener. Logged as code only.
 */
export function clientErrorAnswer(log: Logger, refuse: Refusals) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => {
    const [status, error] = parserRefusal(err);
    log.info({ code: err.code ?? null, status }, 'refused a malformed request');
    // A response already under way on this connection cannot be followed by another status line; nor can one
    // already sent for a request whose body never arrived (its request timeout fires after the answer; the finished
    // response has left the socket). A request still waiting for its body has an unstarted response on the socket:
    // it gets the 408 (it was dropped without an answer).
    const inFlight = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
    const unanswered = inFlight != null && !inFlight.headersSent;
    const answered = lastRequest.get(socket);
    if (
      err.code === 'ECONNRESET' ||
      !socket.writable ||
      inFlight?.headersSent ||
      (answered !== undefined && !answered.complete && !unanswered)
    ) {
      socket.destroy();
      return;
    }
    socket.end(refuse.plain(status, error));
  };
}

/**
 * Refusals written before the app sees a request (or where it never will), carrying the security headers of every
 * data answer (`security`: nosniff, the CSP of 'none', no referrer, never framed, HSTS over https).
 */
function refusalWriter(security: readonly [string, string][]) {
  const lines = security.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const headed = Object.fromEntries(security);
  return {
    /** JSON `{ error }` on a request's response, never cached, then the connection closes. */
    json(res: http.ServerResponse, status: number, error: string): void {
      const body = JSON.stringify({ error });
      res.writeHead(status, {
        ...headed,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': 'no-store',
        Connection: 'close',
      });
      res.end(body);
    },
    /** A whole HTTP/1.1 answer written on the socket itself: JSON `{ error }`, then the connection closes. */
    plain(status: number, error: string, extraHeaders = ''): string {
      const body = JSON.stringify({ error });
      return (
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        lines +
        'Cache-Control: no-store\r\n' +
        extraHeaders +
        'Connection: close\r\n\r\n' +
        body
      );
    },
  };
}
type Refusals = ReturnType<typeof refusalWriter>;

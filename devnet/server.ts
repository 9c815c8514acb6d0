/**
 * The devnet's Ogmios v6 JSON-RPC endpoint: WebSocket (chain-sync and queries) and HTTP POST (queries), on
 * 127.0.0.1; HTTP GET serves the documents of the `.devnet` web hosts (pool metadata). Chain-sync requests of a connection are answered strictly in order; a `nextBlock` at the tip is
 * held until the chain publishes its next event (a `findIntersection` meanwhile gets error 1001, as from Ogmios). Queries are answered at once, beside chain-sync, as Ogmios
 * runs them on a separate mini-protocol.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DevChain } from './chain.js';
import { answerQuery, type QueryEnv } from './queries.js';
import { hostedRequestUrl } from './pool-metadata.js';
import type { SubmitResult } from './mempool.js';

interface Request {
  method: string;
  params: Record<string, unknown>;
  /** JSON of the request id, or null when the request had none (then the response has none either). */
  id: string | null;
}

const frame = (method: string, body: string, id: string | null) =>
  `{"jsonrpc":"2.0","method":"${method}",${body}${id === null ? '' : `,"id":${id}`}}`;
const errorBody = (code: number, message: string, data?: string) =>
  `"error":{"code":${code},"message":${JSON.stringify(message)}${data === undefined ? '' : `,"data":${data}`}}`;
/** A request that could not be read has no method to echo. */
const parseErrorFrame = (message: string, id: string | null) =>
  `{"jsonrpc":"2.0",${errorBody(-32700, message)}${id === null ? '' : `,"id":${id}`}}`;

function parseRequest(text: string): Request | { error: string; id: string | null } {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return { error: 'Invalid JSON.', id: null };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return { error: 'Invalid request.', id: null };
  const m = msg as Record<string, unknown>;
  const id = 'id' in m ? JSON.stringify(m.id ?? null) : null;
  if (typeof m.method !== 'string') return { error: 'Missing method.', id };
  const params = typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : {};
  return { method: m.method, params, id };
}

const INTERLEAVED =
  "Cannot interleave 'findIntersection' requests with 'nextBlock'. Note that you should never face this error. If you do, please open an issue.";

/** The slot of a requested point (`{ slot, id }`), null for origin or anything else. */
const slotOf = (p: unknown): number | null => {
  const slot = typeof p === 'object' && p !== null ? (p as { slot?: unknown }).slot : undefined;
  return typeof slot === 'number' ? slot : null;
};

/** One chain-sync client: its read position in the event log and its queue of pending requests. */
class Session {
  /** Next event index to deliver; null before any intersection (then the first nextBlock starts at origin). */
  private cursor: number | null = null;
  /** A RollBackward owed to the client (the intersection point), sent before any further event. */
  private owedBackward: string | null = null;
  private readonly queue: Request[] = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly chain: DevChain,
  ) {}

  push(r: Request): void {
    // Requests only stay queued while a nextBlock waits at the tip; Ogmios refuses to move the cursor then.
    if (r.method === 'findIntersection' && this.queue.length) {
      this.send(frame('findIntersection', errorBody(1001, INTERLEAVED), r.id));
      return;
    }
    this.queue.push(r);
    this.drain();
  }

  /** Answers queued chain-sync requests until one must wait for the chain to move. */
  drain(): void {
    while (this.queue.length) {
      const r = this.queue[0] as Request;
      if (r.method === 'findIntersection') {
        if (!this.findIntersection(r)) return;
      } else if (!this.nextBlock(r)) return;
      this.queue.shift();
    }
  }

  /**
   * Answers a findIntersection; false (the request waits) while a streamed backfill has not yet reached a point
   * the client holds: a follower restarted on its own store asks with its tip, which the devnet, regenerating the
   * same history from its seed, publishes again shortly. Answering then with an older point (origin) would send
   * the follower a rollback of its whole chain.
   */
  private findIntersection(r: Request): boolean {
    const points = Array.isArray(r.params.points) ? r.params.points : [];
    const tipSlot = this.chain.tip === 'origin' ? -1 : this.chain.tip.slot;
    if (this.chain.backfilling && points.some((p) => (slotOf(p) ?? -1) > tipSlot)) return false;
    for (const p of points) {
      const point =
        p === 'origin' ? 'origin' : typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : null;
      if (point === null) continue;
      const at =
        point === 'origin'
          ? 0
          : typeof point.slot === 'number' && typeof point.id === 'string'
            ? this.chain.positionAfter({ slot: point.slot, id: point.id })
            : null;
      if (at === null) continue;
      const pointJson =
        point === 'origin' ? '"origin"' : `{"slot":${point.slot as number},"id":"${point.id as string}"}`;
      this.cursor = at;
      this.owedBackward = pointJson;
      this.send(frame('findIntersection', `"result":{"intersection":${pointJson},"tip":${this.chain.tipJson}}`, r.id));
      return true;
    }
    this.send(
      frame('findIntersection', errorBody(1000, 'No intersection found.', `{"tip":${this.chain.tipJson}}`), r.id),
    );
    return true;
  }

  /** Sends the next event for a nextBlock request; false when the client is at the tip (the request waits). */
  private nextBlock(r: Request): boolean {
    if (this.cursor === null) {
      this.cursor = 0;
      this.owedBackward = '"origin"';
    }
    if (this.owedBackward !== null) {
      const point = this.owedBackward;
      this.owedBackward = null;
      this.send(
        frame('nextBlock', `"result":{"direction":"backward","point":${point},"tip":${this.chain.tipJson}}`, r.id),
      );
      return true;
    }
    const e = this.chain.events[this.cursor];
    if (!e) return false;
    this.cursor++;
    if (e.kind === 'backward') {
      const p = e.point;
      const point = `{"slot":${p.slot},"id":"${p.id}"}`;
      this.send(
        frame('nextBlock', `"result":{"direction":"backward","point":${point},"tip":${this.chain.tipJson}}`, r.id),
      );
    } else {
      const block = this.chain.blockJson(e);
      this.send(
        frame('nextBlock', `"result":{"direction":"forward","block":${block},"tip":${this.chain.tipJson}}`, r.id),
      );
    }
    return true;
  }

  private send(text: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }
}

export interface DevnetServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `hosted` stands in for the web hosts of the `.devnet` domain (stake pool metadata, devnet/pool-metadata.ts): a GET
 * of `/hosted/{host}/{path}` answers the bytes of `https://{host}/{path}`, or 404.
 */
export async function startServer(
  chain: DevChain,
  env: QueryEnv,
  port: number,
  hosted?: (url: string) => Uint8Array | null,
  /** Ogmios `submitTransaction`: the devnet's mempool (devnet/mempool.ts). */
  submit?: (params: Record<string, unknown>) => SubmitResult,
): Promise<DevnetServer> {
  const answer = (r: Request): string => {
    if (r.method === 'submitTransaction' && submit) {
      const s = submit(r.params);
      return 'error' in s
        ? frame(r.method, errorBody(s.error.code, s.error.message), r.id)
        : frame(r.method, `"result":${s.result}`, r.id);
    }
    const q = answerQuery(env, r.method, r.params);
    if (q === null) return frame(r.method, errorBody(-32601, `Unknown method: ${r.method}.`), r.id);
    if ('error' in q) return frame(r.method, errorBody(q.error.code, q.error.message), r.id);
    return frame(r.method, `"result":${q.result}`, r.id);
  };

  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && hosted) {
      const url = hostedRequestUrl(req.url ?? '');
      const body = url ? hosted(url) : null;
      if (body) res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = parseRequest(Buffer.concat(chunks).toString('utf8'));
      const body =
        'error' in r
          ? parseErrorFrame(r.error, r.id)
          : r.method === 'findIntersection' || r.method === 'nextBlock'
            ? frame(r.method, errorBody(-32600, 'Chain synchronization needs a WebSocket.'), r.id)
            : answer(r);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });

  const wss = new WebSocketServer({ server: http, maxPayload: 1 << 20 });
  const sessions = new Set<Session>();
  const unsubscribe = chain.onPublish(() => {
    for (const s of sessions) s.drain();
  });
  wss.on('connection', (ws) => {
    const session = new Session(ws, chain);
    sessions.add(session);
    ws.on('close', () => sessions.delete(session));
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      const r = parseRequest(isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data));
      if ('error' in r) {
        ws.send(parseErrorFrame(r.error, r.id));
        return;
      }
      if (r.method === 'findIntersection' || r.method === 'nextBlock') session.push(r);
      else ws.send(answer(r));
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (http.address() as AddressInfo).port,
    close: async () => {
      unsubscribe();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * A tiny Ogmios v6 stand-in for tests: a `ws` WebSocketServer on an ephemeral port that replays chain-sync frames
 * and answers queries, following Ogmios semantics where the client depends on them:
 * - each connection has its own cursor, starting at origin; `nextBlock` answers come in request order;
 * - requests past the last frame park "at the tip" until `push()` adds frames;
 * - `findIntersection` while `nextBlock` requests are pending answers error 1001; otherwise it moves the cursor to
 *   the best listed point on the frames' final chain, and the next `nextBlock` answers a RollBackward to it;
 *   none found: error 1000 with the tip.
 * Answers are sent on the next turn of the event loop, so requests arriving together are in flight together and
 * `maxInFlight` shows the client's pipelining.
 */
import { safeJSON } from '@cardano-ogmios/client';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * One chain-sync answer: a recorded `nextBlock` response envelope as JSON text (its id is replaced), or a `result`
 * value (`{direction, block, tip}` / `{direction, point, tip}`, bigints allowed).
 */
export type FakeFrame = string | object;

/** An answer to a request: a result, a JSON-RPC error, or a recorded response envelope as text (id replaced). */
export type FakeAnswer =
  { result: unknown } | { error: { code: number; message: string; data?: unknown } } | { text: string };

export interface FakeOgmiosOptions {
  /** Replaces the default intersection over the frames. */
  findIntersection?: (points: unknown[]) => FakeAnswer;
  /** `queryLedgerState/*` and `queryNetwork/*` answers by method. */
  queries?: Record<string, (params: unknown) => FakeAnswer>;
}

export interface FakeOgmios {
  url: string;
  /** Most `nextBlock` requests received and not yet answered on one connection at one moment. */
  readonly maxInFlight: number;
  /** Requests received, by method. */
  readonly requests: Readonly<Record<string, number>>;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Appends frames (new blocks, rollbacks) and answers requests parked at the tip. */
  push(...frames: FakeFrame[]): void;
  /** Cuts every open connection, as an Ogmios restart would. */
  dropConnections(): void;
  close(): Promise<void>;
}

interface Meta {
  direction: 'forward' | 'backward';
  blockId?: string;
  point?: unknown;
  tip: unknown;
}

interface Conn {
  ws: WebSocket;
  /** Index of the next frame to answer. */
  pos: number;
  /** The RollBackward owed after an intersection. */
  echo: unknown;
  /** Ids of nextBlock requests not answered yet. */
  parked: unknown[];
  scheduled: boolean;
}

const ENVELOPE_ID = /"id"\s*:\s*(?:null|"[^"]*"|-?\d+)\s*}\s*$/;

function withId(envelope: string, id: unknown): string {
  const m = ENVELOPE_ID.exec(envelope);
  if (!m) throw new Error('fake-ogmios: recorded frame does not end with its "id" field');
  return `${envelope.slice(0, m.index)}"id":${JSON.stringify(id)}}`;
}

function answerText(method: string, id: unknown, a: FakeAnswer): string {
  if ('text' in a) return withId(a.text, id);
  const body = 'result' in a ? `"result":${safeJSON.stringify(a.result)}` : `"error":${safeJSON.stringify(a.error)}`;
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},${body},"id":${JSON.stringify(id)}}`;
}

function metaOf(frame: FakeFrame): Meta {
  const r = (typeof frame === 'string' ? (JSON.parse(frame) as { result: unknown }).result : frame) as {
    direction: 'forward' | 'backward';
    block?: { id: string };
    point?: unknown;
    tip: unknown;
  };
  const m: Meta = { direction: r.direction, point: r.point, tip: r.tip };
  if (r.block) m.blockId = r.block.id;
  return m;
}

export async function startFakeOgmios(
  initial: readonly FakeFrame[],
  opts: FakeOgmiosOptions = {},
): Promise<FakeOgmios> {
  const frames: FakeFrame[] = [...initial];
  const metas: Meta[] = frames.map(metaOf);
  const texts: (string | undefined)[] = [];
  const conns = new Set<Conn>();
  const requests: Record<string, number> = {};
  let maxInFlight = 0;
  let connections = 0;

  const frameText = (i: number, id: unknown): string => {
    const f = frames[i] as FakeFrame;
    if (typeof f === 'string') return withId(f, id);
    texts[i] ??= `{"jsonrpc":"2.0","method":"nextBlock","result":${safeJSON.stringify(f)},"id":`;
    return `${texts[i]}${JSON.stringify(id)}}`;
  };

  const tip = (): unknown => metas[metas.length - 1]?.tip ?? 'origin';

  /** Ids of the blocks on the final chain (forward blocks minus those rolled back). */
  const finalChain = (): Set<string> => {
    const chain: string[] = [];
    for (const m of metas) {
      if (m.direction === 'forward') chain.push(m.blockId as string);
      else {
        const p = m.point as { id: string } | 'origin';
        chain.length = p === 'origin' ? 0 : chain.lastIndexOf(p.id) + 1;
      }
    }
    return new Set(chain);
  };

  const intersect = (c: Conn, points: unknown[]): FakeAnswer => {
    const onChain = finalChain();
    for (const p of points) {
      if (p === 'origin') {
        c.pos = 0;
        c.echo = { direction: 'backward', point: 'origin', tip: tip() };
        return { result: { intersection: 'origin', tip: tip() } };
      }
      const id = (p as { id: string }).id;
      if (!onChain.has(id)) continue;
      const i = metas.findLastIndex((m) => m.direction === 'forward' && m.blockId === id);
      c.pos = i + 1;
      c.echo = { direction: 'backward', point: p, tip: tip() };
      return { result: { intersection: p, tip: tip() } };
    }
    return { error: { code: 1000, message: 'No intersection found.', data: { tip: tip() } } };
  };

  const flush = (c: Conn) => {
    c.scheduled = false;
    maxInFlight = Math.max(maxInFlight, c.parked.length);
    while (c.parked.length > 0 && (c.echo !== null || c.pos < frames.length)) {
      const id = c.parked.shift();
      if (c.echo !== null) {
        c.ws.send(answerText('nextBlock', id, { result: c.echo }));
        c.echo = null;
      } else c.ws.send(frameText(c.pos++, id));
    }
  };
  const schedule = (c: Conn) => {
    if (c.scheduled) return;
    c.scheduled = true;
    setImmediate(() => flush(c));
  };

  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => {
    connections++;
    const c: Conn = { ws, pos: 0, echo: null, parked: [], scheduled: false };
    conns.add(c);
    ws.on('close', () => conns.delete(c));
    ws.on('message', (data: Buffer) => {
      const req = JSON.parse(data.toString()) as { method: string; params?: Record<string, unknown>; id?: unknown };
      const { method, id } = req;
      requests[method] = (requests[method] ?? 0) + 1;
      if (method === 'nextBlock') {
        c.parked.push(id);
        schedule(c);
        return;
      }
      let answer: FakeAnswer;
      if (method === 'findIntersection') {
        const points = (req.params?.points ?? []) as unknown[];
        if (c.parked.length > 0) {
          answer = {
            error: { code: 1001, message: "Cannot interleave 'findIntersection' requests with 'nextBlock'." },
          };
        } else answer = opts.findIntersection ? opts.findIntersection(points) : intersect(c, points);
      } else {
        const handler = opts.queries?.[method];
        answer = handler ? handler(req.params) : { error: { code: -32601, message: `Unknown method: ${method}` } };
      }
      setImmediate(() => ws.send(answerText(method, id, answer)));
    });
  });

  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    get maxInFlight() {
      return maxInFlight;
    },
    requests,
    get connections() {
      return connections;
    },
    push(...more: FakeFrame[]) {
      for (const f of more) {
        frames.push(f);
        metas.push(metaOf(f));
      }
      for (const c of conns) schedule(c);
    },
    dropConnections() {
      for (const c of conns) c.ws.terminate();
    },
    close() {
      for (const c of conns) c.ws.terminate();
      return new Promise<void>((resolve, reject) => wss.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

/** A raw Ogmios v6 chain-sync client over `ws` for the devnet tests (no library between the test and the wire). */
import { safeJSON } from '@cardano-ogmios/client';
import WebSocket from 'ws';
import type { Block, ChainEvent, Point, Tip } from '../../cardano/chain/types.js';

/** A fixed clock: 2026-03-01T12:00:00Z. */
export const FIXED_NOW = () => Date.UTC(2026, 2, 1, 12, 0, 0);

export interface RpcFrame {
  jsonrpc: string;
  method: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  id?: unknown;
}

export class RawClient {
  private readonly ws: WebSocket;
  private readonly waiting: ((f: RpcFrame) => void)[] = [];
  private readonly queued: RpcFrame[] = [];
  readonly raw: string[] = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const text = String(data);
      this.raw.push(text);
      const f = safeJSON.parse(text) as RpcFrame;
      const w = this.waiting.shift();
      if (w) w(f);
      else this.queued.push(f);
    });
  }

  static open(url: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new RawClient(ws)));
      ws.once('error', reject);
    });
  }

  send(method: string, params?: unknown, id: unknown = method): void {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id }));
  }

  next(timeoutMs = 10_000): Promise<RpcFrame> {
    const f = this.queued.shift();
    if (f) return Promise.resolve(f);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no frame within timeout')), timeoutMs);
      this.waiting.push((frame) => {
        clearTimeout(t);
        resolve(frame);
      });
    });
  }

  async call(method: string, params?: unknown): Promise<RpcFrame> {
    this.send(method, params);
    return this.next();
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Syncs from origin with `window` pipelined nextBlock requests until the tip block arrives; returns every
 * chain-sync event in order (the first is the RollBackward to origin).
 */
export async function syncFromOrigin(url: string, window = 100): Promise<{ events: ChainEvent[]; frames: RpcFrame[] }> {
  const c = await RawClient.open(url);
  const found = await c.call('findIntersection', { points: ['origin'] });
  if (found.error) throw new Error(`findIntersection failed: ${found.error.message}`);
  const events: ChainEvent[] = [];
  const frames: RpcFrame[] = [];
  let inFlight = 0;
  try {
    for (;;) {
      while (inFlight < window) {
        c.send('nextBlock', undefined, events.length + inFlight);
        inFlight++;
      }
      const f = await c.next();
      inFlight--;
      frames.push(f);
      const r = f.result as ChainEvent;
      events.push(r);
      const tip = r.tip as Tip;
      if (r.direction === 'forward' && tip !== 'origin' && r.block.id === tip.id) break;
    }
  } finally {
    c.close();
  }
  return { events, frames };
}

export const forwardBlocks = (events: ChainEvent[]): Block[] =>
  events
    .filter((e): e is Extract<ChainEvent, { direction: 'forward' }> => e.direction === 'forward')
    .map((e) => e.block);

export const pointOf = (b: Block): Point => ({ slot: b.slot as number, id: b.id });

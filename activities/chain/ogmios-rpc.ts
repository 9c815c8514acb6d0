/**
 * One WebSocket to Ogmios speaking JSON-RPC 2.0: requests carry numeric ids, Ogmios echoes them, answers are
 * matched by id. Every frame is parsed big-number-safe (`json.ts`). When the socket drops, every unanswered request
 * fails with an `OgmiosConnectionError`; the socket is then dead for good (the owner opens a new one).
 */
import { safeJSON } from '@cardano-ogmios/client';
import WebSocket from 'ws';
import { parseOgmiosJson } from './json.js';

export type Log = (msg: string, extra?: object) => void;

/** A JSON-RPC error answered by Ogmios (`error: {code, message, data}`). */
export class OgmiosError extends Error {
  override name = 'OgmiosError';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The connection to Ogmios could not be opened, dropped, or was closed while a request waited. */
export class OgmiosConnectionError extends Error {
  override name = 'OgmiosConnectionError';
}

/** Ogmios did not answer a request in time. */
export class OgmiosTimeoutError extends Error {
  override name = 'OgmiosTimeoutError';
}

export interface Frame {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Gets the answer frame, or the error that ended the socket before the answer came. */
export type AnswerHandler = (answer: Frame | Error) => void;

export interface RpcSocketOptions {
  /** Bounds the opening handshake. */
  connectTimeoutMs: number;
  log?: Log;
  /** Ping interval; the socket is dropped when nothing (frame or pong) arrived for two intervals. 0: off. */
  keepAliveMs?: number;
}

/** Ogmios answers (e.g. `queryLedgerState/utxo` on a busy address) can be large. */
const MAX_PAYLOAD_BYTES = 1 << 30;

export class RpcSocket {
  private readonly pending = new Map<number, AnswerHandler>();
  private nextId = 1;
  private failure: Error | null = null;
  private lastSeen = Date.now();
  private keepAlive: NodeJS.Timeout | undefined;
  private readonly closed: Promise<void>;

  /** When the server last sent anything (a frame, a ping or pong): ms since the epoch; the open counts. */
  get heardAt(): number {
    return this.lastSeen;
  }

  static open(url: string, opts: RpcSocketOptions): Promise<RpcSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, {
        // Compression would cost more CPU than it saves next to a local Ogmios, and JSON frames are parsed anyway.
        perMessageDeflate: false,
        skipUTF8Validation: true,
        maxPayload: MAX_PAYLOAD_BYTES,
        handshakeTimeout: opts.connectTimeoutMs,
      });
      const onError = (e: Error) => {
        ws.off('open', onOpen);
        ws.terminate();
        reject(new OgmiosConnectionError(`cannot connect to Ogmios at ${url}: ${e.message}`, { cause: e }));
      };
      const onOpen = () => {
        ws.off('error', onError);
        resolve(new RpcSocket(ws, url, opts));
      };
      ws.once('error', onError);
      ws.once('open', onOpen);
    });
  }

  private constructor(
    private readonly ws: WebSocket,
    readonly url: string,
    private readonly opts: RpcSocketOptions,
  ) {
    ws.on('message', (data: Buffer) => this.onMessage(data));
    // A large answer (a ledger query's megabytes) arrives over seconds and is one message only at its end: its bytes
    // as they come are contact too, so the keepalive never drops a socket that is busy receiving.
    (ws as unknown as { _socket?: NodeJS.EventEmitter })._socket?.on('data', () => (this.lastSeen = Date.now()));
    ws.on('pong', () => (this.lastSeen = Date.now()));
    ws.on('ping', () => (this.lastSeen = Date.now()));
    ws.on('error', (e) => this.fail(new OgmiosConnectionError(`Ogmios connection ${url} failed: ${e.message}`)));
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        const why = reason.length > 0 ? `${code} ${reason.toString()}` : String(code);
        this.fail(new OgmiosConnectionError(`Ogmios connection ${url} closed (${why})`));
        resolve();
      });
    });
    const every = opts.keepAliveMs ?? 0;
    if (every > 0) {
      this.keepAlive = setInterval(() => {
        if (Date.now() - this.lastSeen > 2 * every) {
          this.fail(new OgmiosConnectionError(`Ogmios connection ${url} silent for ${2 * every} ms (no pong)`));
          ws.terminate();
        } else ws.ping();
      }, every);
      this.keepAlive.unref();
    }
  }

  /** The error that ended this socket, or null while it is usable. */
  get error(): Error | null {
    return this.failure;
  }

  get unanswered(): number {
    return this.pending.size;
  }

  /** Sends a request; `onAnswer` gets its answer frame (or the socket's end). Returns the request id. */
  request(method: string, params: Record<string, unknown> | undefined, onAnswer: AnswerHandler): number {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const text =
      params === undefined
        ? `{"jsonrpc":"2.0","method":"${method}","id":${id}}`
        : `{"jsonrpc":"2.0","method":"${method}","params":${safeJSON.stringify(params)},"id":${id}}`;
    this.pending.set(id, onAnswer);
    this.ws.send(text);
    return id;
  }

  /**
   * Runs `fn` (which sends requests) with the TCP socket corked, so the frames it sends leave in one write instead
   * of one system call each (the follower tops up ~100 pipelined `nextBlock` requests at a time). `ws` keeps its
   * socket in `_socket`, which it has no public accessor for; without it the frames go out one by one as before.
   */
  batch(fn: () => void): void {
    const raw = (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    raw?.cork();
    try {
      fn();
    } finally {
      raw?.uncork();
    }
  }

  /** A request whose answer is awaited: the `result`, or `OgmiosError` for a JSON-RPC error. */
  call<T>(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let id = 0;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new OgmiosTimeoutError(`Ogmios gave no answer to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      try {
        id = this.request(method, params, (answer) => {
          clearTimeout(timer);
          if (answer instanceof Error) reject(answer);
          else if (answer.error) reject(toOgmiosError(method, answer.error));
          else resolve(answer.result as T);
        });
      } catch (e) {
        clearTimeout(timer);
        reject(e as Error);
      }
    });
  }

  /** Closes the socket; unanswered requests fail with `reason`. */
  async close(reason = 'closed by the client'): Promise<void> {
    this.fail(new OgmiosConnectionError(`Ogmios connection ${this.url} ${reason}`));
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close(1000);
    // A peer that never completes the closing handshake must not hold the caller.
    const force = setTimeout(() => this.ws.terminate(), 1_000);
    await this.closed;
    clearTimeout(force);
  }

  private onMessage(data: Buffer): void {
    this.lastSeen = Date.now();
    let frame: Frame;
    try {
      frame = parseOgmiosJson(data.toString('utf8')) as Frame;
    } catch (e) {
      // Unparseable: its id is unknown, so the request it answers would wait forever. End the socket.
      this.fail(new OgmiosConnectionError(`Ogmios sent an unparseable frame: ${(e as Error).message}`));
      this.ws.terminate();
      return;
    }
    const handler = typeof frame.id === 'number' ? this.pending.get(frame.id) : undefined;
    if (handler === undefined) {
      this.opts.log?.('ogmios: frame answers no pending request', {
        id: frame.id,
        method: frame.method,
        error: frame.error,
      });
      return;
    }
    this.pending.delete(frame.id as number);
    handler(frame);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    clearInterval(this.keepAlive);
    this.opts.log?.('ogmios: connection ended', { url: this.url, reason: err.message });
    const handlers = [...this.pending.values()];
    this.pending.clear();
    for (const h of handlers) h(err);
  }
}

export function toOgmiosError(method: string, e: { code: number; message: string; data?: unknown }): OgmiosError {
  return new OgmiosError(method, Number(e.code), String(e.message), e.data);
}

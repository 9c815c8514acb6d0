/**
 * The production ChainSource: an Ogmios v6 JSON-RPC client over WebSocket.
 *
 * Two sockets, both opened on demand and reopened after a drop:
 * - the chain-sync socket carries `findIntersection` and pipelined `nextBlock` requests. Ogmios keeps one
 *   chain-sync cursor per connection, so this socket is the follower's position on the chain;
 * - the query socket carries `queryLedgerState/*` and `queryNetwork/*`, so a multi-megabyte ledger answer never
 *   sits between two blocks, and resetting the follower never fails a query.
 *
 * Chain-sync state: up to `pipeline` `nextBlock` requests are in flight; their answers are buffered in order and
 * handed out by `nextEvents`. Requests in flight when `nextEvents` returns stay in flight; their answers wait in the
 * buffer for the next call. Ogmios refuses a `findIntersection` while `nextBlock` requests are pending (error 1001),
 * so `findIntersection` first lets them drain; at the tip they wait for blocks that may be minutes away, so the
 * connection is replaced instead (a fresh connection has a fresh cursor).
 *
 * After the chain-sync socket drops, `nextEvents` throws until `findIntersection` succeeds on a new connection: a
 * new connection's cursor is at origin, and silently following from there would make the consumer roll back to
 * genesis. The sync re-intersects from its checkpoint after any failure.
 */
import type { ChainSource } from './source.js';
import { toChainEvent, toPoint, toTip } from './json.js';
import type { ChainEvent, EraTime, NetworkTime, Point, Tip } from '../../cardano/chain/types.js';
import {
  OgmiosConnectionError,
  OgmiosError,
  RpcSocket,
  toOgmiosError,
  type Frame,
  type Log,
  type RpcSocketOptions,
} from './ogmios-rpc.js';

export { OgmiosConnectionError, OgmiosError, OgmiosTimeoutError } from './ogmios-rpc.js';

/** `findIntersection` found none of the points on the chain (Ogmios error 1000). */
export class IntersectionNotFoundError extends OgmiosError {
  override name = 'IntersectionNotFoundError';
  constructor(
    message: string,
    readonly tip: Tip,
    data?: unknown,
  ) {
    super('findIntersection', 1000, message, data);
  }
}

export interface OgmiosClientOptions {
  /** `nextBlock` requests kept in flight (the Ogmios docs suggest 50–100). */
  pipeline?: number;
  /** Bound for a query or `findIntersection` answer (default 120 s), and for the handshake (at most 15 s). */
  requestTimeoutMs?: number;
  /** Ping interval of the query socket; two silent intervals drop it and fail its queries (default 30 s). */
  queryKeepAliveMs?: number;
  log?: Log;
}

const DEFAULT_PIPELINE = 100;
/** Ledger queries such as `stakePools` with stake take tens of seconds on mainnet. */
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Longest wait for in-flight `nextBlock` answers before `findIntersection` replaces the connection instead. */
const DRAIN_LIMIT_MS = 5_000;
/** Longest wait for the next answer when the last one was behind the tip (it normally comes within ms). */
const BEHIND_WAIT_MS = 10_000;
/**
 * Liveness ping on the chain-sync socket, which stays silent between blocks at the tip: a source that stops
 * answering (a frozen process, a half-open connection) is dropped, and reported unreachable, after two intervals.
 */
const KEEPALIVE_MS = 10_000;
/**
 * Liveness ping on the query socket. A ledger query (`stakePools` with stake on mainnet) is computed for tens of
 * seconds before its answer's first byte; Ogmios answers pings meanwhile, and the bytes of a long answer count as
 * contact, but the window is wider than the chain-sync one so a node busy with the query is not dropped. Without it a
 * frozen source (a stopped process, a half-open connection) held every query for the whole request timeout.
 */
const QUERY_KEEPALIVE_MS = 30_000;
/** Bound for the WebSocket handshake: a local or remote Ogmios completes it in milliseconds when it is alive. */
const CONNECT_TIMEOUT_MS = 15_000;

const QUERY_METHOD = /^(queryLedgerState|queryNetwork)\/[A-Za-z]+$/;

export async function connectOgmios(url: string, opts: OgmiosClientOptions = {}): Promise<ChainSource> {
  const client = new OgmiosClient(url, opts);
  await client.open();
  return client;
}

/**
 * A client that connects on first use instead of at once: what a long-running process takes, so a node that is
 * still starting (or down) when the process starts is one more outage the sync retries (findIntersection fails with
 * OgmiosConnectionError), not a crash of the process.
 */
export function createOgmiosClient(url: string, opts: OgmiosClientOptions = {}): ChainSource {
  return new OgmiosClient(url, opts);
}

/** One chain-sync connection: its cursor, the requests in flight on it, and the answers not yet handed out. */
class SyncSession {
  inFlight = 0;
  buffer: ChainEvent[] = [];
  /** A nextBlock answer was an error or unreadable: the stream is unusable. */
  error: Error | null = null;
  /** The last answer was not at the tip: the requests in flight will be answered right away. */
  behind = true;
  /** The tip of the newest answer received (the buffer's last), whether or not the consumer took it yet. */
  latestTip: Tip | null = null;
  /** Whether the consumer's position and this cursor agree (false until findIntersection on a replacement). */
  positioned: boolean;
  private wake: (() => void) | null = null;

  constructor(
    readonly socket: RpcSocket,
    positioned: boolean,
  ) {
    this.positioned = positioned;
  }

  get usable(): boolean {
    return this.socket.error === null;
  }

  /** Answer handler shared by every nextBlock request of this session (answers come in request order). */
  readonly onAnswer = (answer: Frame | Error): void => {
    this.inFlight--;
    if (answer instanceof Error) this.error ??= answer;
    else if (answer.error) this.error ??= toOgmiosError('nextBlock', answer.error);
    else {
      try {
        const ev = toChainEvent(answer.result);
        this.buffer.push(ev);
        this.behind = !atTip(ev);
        this.latestTip = ev.tip;
      } catch (e) {
        this.error ??= e as Error;
      }
    }
    this.wake?.();
  };

  topUp(pipeline: number): void {
    this.socket.batch(() => {
      for (let room = pipeline - this.inFlight - this.buffer.length; room > 0 && this.usable; room--) {
        this.socket.request('nextBlock', undefined, this.onAnswer);
        this.inFlight++;
      }
    });
  }

  take(max: number): ChainEvent[] {
    if (this.buffer.length <= max) {
      const all = this.buffer;
      this.buffer = [];
      return all;
    }
    return this.buffer.splice(0, max);
  }

  /** Resolves at the next answer or socket end, or after `ms`. */
  waitForAnswer(ms: number): Promise<void> {
    return new Promise((resolve) => {
      // Every pending request hears of the socket's end, so an answer or the end both come through onAnswer.
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

function atTip(ev: ChainEvent): boolean {
  const here = ev.direction === 'forward' ? ev.block.id : ev.point === 'origin' ? 'origin' : ev.point.id;
  return here === (ev.tip === 'origin' ? 'origin' : ev.tip.id);
}

class OgmiosClient implements ChainSource {
  private readonly pipeline: number;
  private readonly timeoutMs: number;
  private readonly queryKeepAliveMs: number;
  private readonly log: Log | undefined;
  private sync: SyncSession | null = null;
  private sessions = 0;
  private rpc: RpcSocket | null = null;
  private rpcOpening: Promise<RpcSocket> | null = null;
  private time: Promise<NetworkTime> | null = null;
  /** Serialises findIntersection / nextEvents: both move the one chain-sync cursor. */
  private lock: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    readonly url: string,
    opts: OgmiosClientOptions,
  ) {
    this.pipeline = Math.max(1, Math.floor(opts.pipeline ?? DEFAULT_PIPELINE));
    this.timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.queryKeepAliveMs = opts.queryKeepAliveMs ?? QUERY_KEEPALIVE_MS;
    this.log = opts.log;
  }

  async open(): Promise<void> {
    await this.openSession();
  }

  lastHeard(): number | null {
    return this.sync?.socket.heardAt ?? null;
  }

  latestTip(): Tip | null {
    return this.sync?.latestTip ?? null;
  }

  findIntersection(points: readonly Point[]): Promise<{ intersection: Point; tip: Tip }> {
    return this.exclusive(async () => {
      this.assertOpen();
      let s = this.sync?.usable ? this.sync : await this.openSession();
      s = await this.quiesce(s);
      // Answers buffered while draining belong to the old position; the consumer never sees them.
      s.buffer = [];
      s.error = null;
      s.positioned = false;
      let result: { intersection: unknown; tip: unknown };
      try {
        result = await s.socket.call('findIntersection', { points: [...points] }, this.timeoutMs);
      } catch (e) {
        if (e instanceof OgmiosError && e.code === 1000) {
          const tip = toTip((e.data as { tip?: unknown } | undefined)?.tip ?? 'origin');
          throw new IntersectionNotFoundError(e.message, tip, e.data);
        }
        // Unknown cursor state (timeout, 1001, drop): this connection is not reused.
        if (!(e instanceof OgmiosConnectionError)) await this.dropSession(s, `findIntersection failed: ${String(e)}`);
        throw e;
      }
      s.positioned = true;
      s.behind = true; // Ogmios answers the next request at once, with a RollBackward to the intersection
      return { intersection: toPoint(result.intersection), tip: toTip(result.tip) };
    });
  }

  nextEvents(max: number, waitMs: number): Promise<ChainEvent[]> {
    return this.exclusive(async () => {
      this.assertOpen();
      let s = this.sync;
      if (s === null) s = await this.openSession();
      if (!s.usable || s.error || !s.positioned) {
        const why = s.error ?? s.socket.error;
        if (s.usable) await this.dropSession(s, 'chain-sync stream failed');
        throw new OgmiosConnectionError(
          why
            ? `chain-sync stream lost (${why.message}); findIntersection must re-position the follower`
            : 'chain-sync connection was replaced; findIntersection must position the follower first',
          { cause: why ?? undefined },
        );
      }
      if (max <= 0) return [];
      if (s.buffer.length === 0) {
        s.topUp(this.pipeline);
        // Behind the tip the next answer is on its way: wait for it (bounded) even when waitMs is 0, or the
        // consumer would mistake a round trip for the tip. At the tip, wait at most waitMs.
        const limit = s.behind ? Math.max(waitMs, Math.min(this.timeoutMs, BEHIND_WAIT_MS)) : waitMs;
        if (limit > 0) await s.waitForAnswer(limit);
        if (s.error || !s.usable) {
          const why = (s.error ?? s.socket.error) as Error;
          if (s.usable) await this.dropSession(s, 'chain-sync stream failed');
          throw why;
        }
      }
      const out = s.take(max);
      // Refill at once: these requests are answered while the consumer works on `out`.
      s.topUp(this.pipeline);
      return out;
    });
  }

  async query<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
    if (!QUERY_METHOD.test(method)) throw new TypeError(`not a ledger-state or network query: ${method}`);
    const rpc = await this.querySocket();
    return rpc.call<T>(method, params, this.timeoutMs);
  }

  networkTime(): Promise<NetworkTime> {
    this.time ??= this.fetchNetworkTime().catch((e: unknown) => {
      this.time = null;
      throw e;
    });
    return this.time;
  }

  async close(): Promise<void> {
    this.closed = true;
    const sockets = [this.sync?.socket, this.rpc].filter((s): s is RpcSocket => s !== null && s !== undefined);
    await Promise.all(sockets.map((s) => s.close()));
  }

  /**
   * Slot ↔ time from every era summary (its start slot, time relative to the system start, epoch, slot length and
   * epoch length) and the system start: Byron's 20 s slots differ from Shelley's 1 s ones. Cached: these change only
   * at a hard fork, and the last era's parameters extend linearly across it.
   */
  private async fetchNetworkTime(): Promise<NetworkTime> {
    type EraSummary = {
      start: { time: { seconds: number | bigint }; slot: number | bigint; epoch: number | bigint };
      parameters: { epochLength: number | bigint; slotLength: { milliseconds: number | bigint } };
    };
    const [eras, systemStart] = await Promise.all([
      this.query<EraSummary[]>('queryLedgerState/eraSummaries'),
      this.query<string>('queryNetwork/startTime'),
    ]);
    const last = eras[eras.length - 1];
    const startMs = Date.parse(systemStart);
    if (!last || !Number.isFinite(startMs)) {
      throw new Error(`unusable network time: ${eras.length} era summaries, system start ${String(systemStart)}`);
    }
    const era = (e: EraSummary): EraTime => ({
      startTimeMs: startMs + Number(e.start.time.seconds) * 1000,
      startSlot: Number(e.start.slot),
      slotLengthMs: Number(e.parameters.slotLength.milliseconds),
      epochLength: Number(e.parameters.epochLength),
      startEpoch: Number(e.start.epoch),
    });
    return { ...era(last), eras: eras.map(era) };
  }

  private async openSession(): Promise<SyncSession> {
    this.assertOpen();
    const socket = await RpcSocket.open(this.url, this.socketOptions(KEEPALIVE_MS));
    if (this.closed) {
      await socket.close();
      this.assertOpen();
    }
    // The first connection's cursor (origin) is where a consumer without a position expects to start.
    const s = new SyncSession(socket, this.sessions === 0);
    // A new connection may reach a restarted or another node (a hard fork, a replaced chain): ask again.
    if (this.sessions > 0) this.time = null;
    this.sessions++;
    this.sync = s;
    this.log?.('ogmios: chain-sync connected', { url: this.url, connection: this.sessions });
    return s;
  }

  private async dropSession(s: SyncSession, reason: string): Promise<void> {
    this.log?.('ogmios: replacing chain-sync connection', { reason, inFlight: s.inFlight });
    await s.socket.close(reason);
  }

  /** A session with no nextBlock in flight: the same one once drained, or a fresh connection. */
  private async quiesce(s: SyncSession): Promise<SyncSession> {
    const deadline = Date.now() + Math.min(DRAIN_LIMIT_MS, this.timeoutMs);
    // Requests parked at the tip answer only when blocks come; behind the tip they answer right away.
    while (s.inFlight > 0 && s.behind && s.usable && s.error === null && Date.now() < deadline) {
      await s.waitForAnswer(deadline - Date.now());
    }
    if (s.inFlight === 0 && s.usable && s.error === null) return s;
    if (s.usable) await this.dropSession(s, `${s.inFlight} nextBlock requests still pending before findIntersection`);
    return this.openSession();
  }

  private async querySocket(): Promise<RpcSocket> {
    this.assertOpen();
    if (this.rpc && this.rpc.error === null) return this.rpc;
    this.rpcOpening ??= RpcSocket.open(this.url, this.socketOptions(this.queryKeepAliveMs)).then(
      async (socket) => {
        this.rpcOpening = null;
        if (this.closed) await socket.close();
        this.rpc = socket;
        return socket;
      },
      (e: unknown) => {
        this.rpcOpening = null;
        throw e;
      },
    );
    return this.rpcOpening;
  }

  private socketOptions(keepAliveMs: number): RpcSocketOptions {
    const o: RpcSocketOptions = { connectTimeoutMs: Math.min(this.timeoutMs, CONNECT_TIMEOUT_MS), keepAliveMs };
    if (this.log) o.log = this.log;
    return o;
  }

  private assertOpen(): void {
    if (this.closed) throw new OgmiosConnectionError(`Ogmios client for ${this.url} is closed`);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }
}

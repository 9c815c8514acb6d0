/**
 * Whether the per-minute counters (and the sign-in nonce claims) are shared through Redis right now.
 *
 * Redis stops answering in two ways. It goes away (stopped, restarted, a refused connection): the client leaves
 * `ready` at once and reconnects by itself. Or it stops answering on a connection that stays open (a frozen
 * process, a network path that drops packets): the client stays `ready` and only each command gives up, after the
 * client's `commandTimeout` (1 s). Judged by the client's status alone, that second kind cost every request a
 * second (two for a PnL call), for as long as it lasted, and was logged nowhere: the replicas counted apart without
 * an operator seeing it. Here a command that fails or goes unanswered marks the counters down as a lost connection
 * does: requests count in this process at once, the outage is logged once at warn level, and one PING at a time
 * asks whether Redis answers again; the first answer shares the counters again (and says so).
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { redactUri } from '../../config/index.js';

/** Wait between two PINGs while Redis does not answer (each PING itself gives up after the client's timeout). */
const PROBE_MS = 1000;

/** The client the access layer opens for REDIS_URL: a command unanswered for 1 s counts as Redis not answering. */
export function redisClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, commandTimeout: 1000 });
}

export class SharedCounters {
  private down = false;
  private closing = false;
  private probe: NodeJS.Timeout | null = null;

  constructor(
    readonly redis: Redis,
    private readonly log: Logger,
    url: string,
  ) {
    const where = { redis: redactUri(url) };
    this.lost = (e?: Error) => {
      // Once per outage (the client reports an error at every reconnection attempt), with the client's reason when
      // it has one (a refused connection, an unanswered command; a lost connection only closes).
      if (!this.down && !this.closing)
        this.log.warn(
          { ...(e ? { err: e } : {}), ...where },
          'redis does not answer: per-minute limits count in this process until it does (replicas no longer share them)',
        );
      this.down = true;
    };
    redis.on('error', (e: Error) => this.lost(e));
    redis.on('close', () => this.lost());
    // A reconnection answers again; a connection that stayed open answers again when a PING does (probe()).
    redis.on('ready', () => this.found());
  }

  private readonly lost: (e?: Error) => void;

  private found(): void {
    if (this.down && !this.closing) this.log.info('redis answers again: per-minute limits are shared by the replicas');
    this.down = false;
  }

  /** Whether a shared counter may be asked now; false while Redis does not answer (count in this process). */
  up(): boolean {
    return !this.down && this.redis.status === 'ready';
  }

  /** A command failed or went unanswered: count in this process until Redis answers a PING. */
  failed(e: unknown): void {
    this.lost(e instanceof Error ? e : new Error(String(e)));
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.probe || this.closing) return;
    this.probe = setTimeout(() => {
      // One PING at a time: the next is scheduled once this one answered or gave up.
      this.redis.ping().then(
        () => {
          this.probe = null;
          // Reconnecting (not `ready`): the client's own 'ready' says when it answers.
          if (this.redis.status === 'ready') this.found();
        },
        () => {
          this.probe = null;
          if (this.down) this.scheduleProbe();
        },
      );
    }, PROBE_MS);
    this.probe.unref();
  }

  /** Stop probing and say nothing more (shutdown). */
  close(): void {
    this.closing = true;
    if (this.probe) clearTimeout(this.probe);
    this.probe = null;
  }
}

/**
 * The devnet: a deterministic simulated Cardano network (Conway era, mainnet-style addresses) that speaks
 * Ogmios v6 JSON-RPC over WebSocket. It backfills `backfillHours` of chain time ending at now, then every `blockMs` of
 * wall-clock time publishes the blocks whose slot has come (one per ~20 slots of chain time on average), with
 * occasional 1–3 block forks.
 * The canonical chain depends only on the seed (and the system start); forks only add events around it.
 */
import type { TipObj } from '../cardano/chain/types.js';
import { defaultModules, forkModules } from './activity/index.js';
import { DevChain, type ChainEventRecord } from './chain.js';
import { ChainGenerator, genesisUtxos } from './generator.js';
import { resolveIdentity } from './identity.js';
import type { Ledger, Utxo } from './ledger.js';
import { DEFAULT_EPOCH_LENGTH, SLOT_LENGTH_MS } from './params.js';
import { Mempool, type SubmitResult } from './mempool.js';
import { hostedUrl, servedPoolMetadata } from './pool-metadata.js';
import { startServer } from './server.js';
import { buildWorld, type World } from './world.js';

export interface DevnetOptions {
  seed: string;
  /** Chain time generated at start, ending at `now` (DEVNET_BACKFILL_HOURS). */
  backfillHours: number;
  /** Wall-clock ms between live ticks (DEVNET_BLOCK_MS), each publishing what is due; 0 or non-finite = no live blocks. */
  blockMs: number;
  /** Probability per canonical block that 1–3 orphan blocks (up to `forkDepth`) and a RollBackward follow it. */
  forkRate: number;
  /** Deepest fork in blocks (DEVNET_FORK_DEPTH); 3 when not given. */
  forkDepth?: number;
  /** 0 = ephemeral (default); the host is 127.0.0.1. */
  port?: number;
  /** Persist the identity (seed, system start) in `${dataDir}/devnet.json`. */
  dataDir?: string;
  now?: () => number;
  network?: 'mainnet';
  /** Slots per epoch (default 21,600 = 6 h); tests shorten it to see epoch boundaries in a short backfill. */
  epochLength?: number;
  /**
   * Serve while the history is generated (`npm start`): the server starts at origin and the backfill is published in
   * chunks, so followers sync it as it grows (on another core when the devnet has its own process). Default: the
   * whole history exists before the server starts.
   */
  streamBackfill?: boolean;
}

/** Blocks per chunk of a streamed backfill (a few ms of generation between the server's turns). */
const STREAM_CHUNK_BLOCKS = 64;
/**
 * Most live steps (blocks, orphans, rollbacks) one timer tick publishes: every step whose slot has come, so the tip
 * keeps pace with the clock. One step per tick let it fall behind for good: block gaps average the 20 s of a tick,
 * so the tip's slot did a random walk kept from ever running ahead of the clock, and each fork step (an orphan, its
 * rollback) spent a tick without moving it — at the default fork rate the tip was 4 to 17 minutes behind the clock
 * within a day and 75 minutes after two, which is the `sync.lagSeconds` of a service at the tip and empties the
 * 5-minute windows. Bounded so a tick after a long pause (a suspended machine) stays short; the next ticks go on.
 */
const LIVE_STEPS_PER_TICK = 64;

export interface Devnet {
  url: string;
  port: number;
  /** http://127.0.0.1:port — the same server over HTTP (queries by POST, hosted `.devnet` documents by GET). */
  httpUrl: string;
  /**
   * Where this devnet serves a `.devnet` URL (a pool metadata URL from a certificate), or null for any other URL.
   * Certificates name the stable `https://….devnet/…` URL, never the port; this is the devnet's DNS.
   */
  hostedUrl(url: string): string | null;
  tip(): { slot: number; id: string; height: number };
  /** Resolves when the history up to the start time is published (at once unless `streamBackfill`). */
  backfilled: Promise<void>;
  close(): Promise<void>;
  /** Unix ms of slot 0. */
  systemStartMs: number;
  epochLength: number;
  /** Points of the canonical chain published so far, height 1 first. */
  canonicalBlocks(): readonly TipObj[];
  /** The event log every follower from origin replays (forward blocks, canonical or orphan, and rollbacks). */
  events(): readonly ChainEventRecord[];
  /** Block JSON of a forward event. */
  blockJson(e: ChainEventRecord & { kind: 'forward' }): string;
  /** The synthetic genesis output the first transaction spends (no block creates it). */
  genesisUtxos(): Utxo[];
  /** Publish the next live step now (tests; the timer does this every blockMs). */
  step(): void;
  world: World;
  ledger: Ledger;
  /**
   * Ogmios `submitTransaction` (also served on the WebSocket and HTTP endpoints): validates a signed transaction
   * and queues it for the next block.
   */
  submit(cborHex: string): SubmitResult;
  /** Pays `lovelace` from the faucet to `address` in the next block (fund a wallet whose key a test holds). */
  fund(address: string, lovelace: bigint): void;
}

export async function startDevnet(opts: DevnetOptions): Promise<Devnet> {
  const now = opts.now ?? Date.now;
  const epochLength = opts.epochLength ?? DEFAULT_EPOCH_LENGTH;
  const identity = resolveIdentity({
    seed: opts.seed,
    backfillHours: opts.backfillHours,
    nowMs: now(),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
  });
  const world = buildWorld(identity.seed);
  // The generator owns the ledger the mempool validates against; it is built with the mempool's module.
  let ledgerOf: () => Ledger = () => {
    throw new Error('devnet: ledger not ready');
  };
  let nextSlotOf = () => 0;
  const mempool = new Mempool(
    () => ledgerOf(),
    () => nextSlotOf(),
  );
  const gen = new ChainGenerator({
    seed: identity.seed,
    world,
    epochLength,
    forkRate: opts.forkRate,
    ...(opts.forkDepth === undefined ? {} : { forkDepth: opts.forkDepth }),
    modules: defaultModules(world, { systemStartMs: identity.systemStartMs, mempool }),
    forkModules: forkModules(world),
  });
  ledgerOf = () => gen.ledger;
  nextSlotOf = () => gen.nextSlot();
  const chain = new DevChain(gen);
  const nowSlot = () => Math.floor((now() - identity.systemStartMs) / SLOT_LENGTH_MS);
  if (!opts.streamBackfill) chain.backfillTo(nowSlot());
  else chain.backfilling = true;

  const server = await startServer(
    chain,
    { chain, ledger: gen.ledger, systemStartMs: identity.systemStartMs, epochLength },
    opts.port ?? 0,
    (url) => servedPoolMetadata(world, url),
    (params) => mempool.submit(params),
  );

  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  const backfilled = (async () => {
    if (!opts.streamBackfill) return;
    // Until now's slot is reached; the clock moves meanwhile, so the target is re-read after every chunk.
    while (!closed && !chain.backfillTo(nowSlot(), STREAM_CHUNK_BLOCKS)) await new Promise((r) => setImmediate(r));
    // Closed part-way, the history is not complete: ending the backfill would answer the intersections still
    // waiting for it over the part published so far, at origin (a rollback of the follower's whole chain). A sync
    // stopping with `npm start` recorded that as a rollback beyond its undo window: "resync needed" until the next
    // start's sync passed its tip again.
    if (!closed) chain.endBackfill();
  })();
  void backfilled.then(() => {
    if (!closed && Number.isFinite(opts.blockMs) && opts.blockMs > 0)
      timers.push(
        setInterval(() => {
          for (let n = 0; n < LIVE_STEPS_PER_TICK && chain.tick(nowSlot()); n++);
        }, opts.blockMs),
      );
  });
  // Deflate old blocks in small batches (a few ms each), so the backfill itself stays fast and followers
  // streaming the history are never blocked for long.
  const compactor = setInterval(() => chain.compact(64), 100);
  compactor.unref();

  return {
    url: `ws://127.0.0.1:${server.port}`,
    port: server.port,
    httpUrl: `http://127.0.0.1:${server.port}`,
    hostedUrl: (url) => hostedUrl(`ws://127.0.0.1:${server.port}`, url),
    tip: () => {
      const t = chain.tip;
      return t === 'origin' ? { slot: 0, id: 'origin', height: 0 } : { ...t };
    },
    backfilled,
    close: async () => {
      closed = true;
      await backfilled;
      for (const t of timers) clearInterval(t);
      clearInterval(compactor);
      await server.close();
    },
    systemStartMs: identity.systemStartMs,
    epochLength,
    canonicalBlocks: () => chain.canonical,
    events: () => chain.events,
    blockJson: (e) => chain.blockJson(e),
    genesisUtxos: () => genesisUtxos(world),
    step: () => chain.tick(),
    world,
    ledger: gen.ledger,
    submit: (cbor) => mempool.submit({ transaction: { cbor } }),
    fund: (address, lovelace) => mempool.fund(world, address, lovelace),
  };
}

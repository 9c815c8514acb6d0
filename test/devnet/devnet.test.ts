import { lovelaceOf } from '../../activities/sync/values.js';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block, ChainEvent, Transaction, Value } from '../../cardano/chain/types.js';
import { parseAddress } from '../../cardano/address.js';
import { startDevnet, type Devnet, type DevnetOptions } from '../../devnet/index.js';
import { STAKE_POOL_DEPOSIT } from '../../devnet/params.js';
import { FIXED_NOW, RawClient, forwardBlocks, syncFromOrigin } from './helpers.js';

const base: DevnetOptions = { seed: 'test-seed', backfillHours: 3, blockMs: 0, forkRate: 0, now: FIXED_NOW };
const running: Devnet[] = [];
async function devnet(o: Partial<DevnetOptions> = {}): Promise<Devnet> {
  const d = await startDevnet({ ...base, ...o });
  running.push(d);
  return d;
}
const canonicalIds = (d: Devnet) => d.canonicalBlocks().map((p) => p.id);

type Bag = Map<string, bigint>;
function addValue(bag: Bag, v: Value, sign = 1n) {
  for (const [policy, names] of Object.entries(v)) {
    for (const [name, q] of Object.entries(names)) {
      const unit = policy === 'ada' ? 'lovelace' : `${policy}.${name}`;
      bag.set(unit, (bag.get(unit) ?? 0n) + sign * (q as bigint));
    }
  }
}
const nonZero = (bag: Bag) => [...bag].filter(([, q]) => q !== 0n);

/**
 * Replays a chain-sync stream into a UTxO map, undoing rolled-back blocks, and checks every transaction:
 * each input is an unspent output created earlier on the same chain, and value balances per asset.
 */
function replay(events: ChainEvent[], genesis: { txId: string; index: number; value: Value }[]) {
  const utxo = new Map<string, Value>();
  for (const g of genesis) utxo.set(`${g.txId}#${g.index}`, g.value);
  const pools = new Set<string>();
  const applied: { id: string; undo: (() => void)[] }[] = [];
  const stats = {
    txs: 0,
    rollbacks: 0,
    undoneBlocks: 0,
    certificates: new Set<string>(),
    withdrawals: 0,
    mints: 0,
    nft721: 0,
  };
  for (const e of events) {
    if (e.direction === 'backward') {
      const target = e.point === 'origin' ? 'genesis' : e.point.id;
      if (target !== 'genesis' && applied.length) stats.rollbacks++;
      while (applied.length && applied[applied.length - 1]!.id !== target) {
        const b = applied.pop()!;
        for (const u of b.undo.reverse()) u();
        stats.undoneBlocks++;
      }
      assert.ok(target === 'genesis' || applied.length, `rollback target ${target} is on the replayed chain`);
      continue;
    }
    const block: Block = e.block;
    assert.equal(
      block.ancestor,
      applied.length ? applied[applied.length - 1]!.id : 'genesis',
      `ancestor of ${block.height}`,
    );
    const undo: (() => void)[] = [];
    for (const tx of block.transactions ?? []) checkTx(tx, utxo, pools, undo, stats);
    applied.push({ id: block.id, undo });
  }
  return { utxo, stats, chain: applied.map((b) => b.id) };
}

function checkTx(
  tx: Transaction,
  utxo: Map<string, Value>,
  pools: Set<string>,
  undo: (() => void)[],
  stats: { txs: number; certificates: Set<string>; withdrawals: number; mints: number; nft721: number },
) {
  stats.txs++;
  assert.equal(tx.spends, 'inputs');
  assert.match(tx.id, /^[0-9a-f]{64}$/);
  const bag: Bag = new Map();
  assert.ok(tx.inputs.length > 0, `${tx.id} has inputs`);
  for (const i of tx.inputs) {
    const key = `${i.transaction.id}#${i.index}`;
    const v = utxo.get(key);
    assert.ok(v, `${tx.id} spends ${key}, which is not an unspent output of this chain`);
    utxo.delete(key);
    undo.push(() => utxo.set(key, v));
    addValue(bag, v);
  }
  for (const w of Object.values(tx.withdrawals ?? {})) {
    bag.set('lovelace', (bag.get('lovelace') ?? 0n) + BigInt(lovelaceOf(w) ?? 0));
    stats.withdrawals++;
  }
  for (const [policy, names] of Object.entries(tx.mint ?? {})) {
    stats.mints++;
    for (const [name, q] of Object.entries(names))
      bag.set(`${policy}.${name}`, (bag.get(`${policy}.${name}`) ?? 0n) + q);
  }
  if (tx.metadata?.labels['721']) stats.nft721++;
  tx.outputs.forEach((o, index) => {
    parseAddress(o.address);
    addValue(bag, o.value, -1n);
    const key = `${tx.id}#${index}`;
    utxo.set(key, o.value);
    undo.push(() => utxo.delete(key));
  });
  bag.set('lovelace', (bag.get('lovelace') ?? 0n) - BigInt(lovelaceOf(tx.fee) ?? 0));
  for (const c of tx.certificates ?? []) {
    stats.certificates.add(c.type);
    if (c.type === 'stakeCredentialRegistration') {
      const deposit = (c.deposit as { ada: { lovelace: bigint } }).ada.lovelace;
      assert.equal(deposit, 2_000_000n);
      bag.set('lovelace', (bag.get('lovelace') ?? 0n) - deposit);
    }
    if (c.type === 'stakePoolRegistration') {
      const id = (c.stakePool as { id: string }).id;
      if (!pools.has(id)) {
        pools.add(id);
        undo.push(() => pools.delete(id));
        bag.set('lovelace', (bag.get('lovelace') ?? 0n) - STAKE_POOL_DEPOSIT);
      }
    }
    // Conway deposits: DRep registration and governance proposals lock lovelace like the deposits above.
    if (c.type === 'delegateRepresentativeRegistration')
      bag.set('lovelace', (bag.get('lovelace') ?? 0n) - BigInt(lovelaceOf(c.deposit) ?? 0));
  }
  for (const p of (tx.proposals ?? []) as { deposit: unknown }[])
    bag.set('lovelace', (bag.get('lovelace') ?? 0n) - BigInt(lovelaceOf(p.deposit) ?? 0));
  assert.deepEqual(nonZero(bag), [], `${tx.id} balances per asset`);
}

describe('devnet', function () {
  // Generous: each test generates hours of chain in this process, several times slower while the other test
  // worker (npm test runs two) drives an npm start and its children. The test waits on events, not on time.
  this.timeout(300_000);
  // Each test's devnets stop with it: a devnet with live blocks on a fast clock (below) publishes blocks on every
  // tick until closed, and left running for the rest of the file it multiplied the file's CPU time by five.
  afterEach(async () => {
    await Promise.all(running.splice(0).map((d) => d.close()));
  });

  it('is deterministic: the same seed and clock give the same blocks, another seed does not', async () => {
    const a = await devnet();
    const b = await devnet();
    const c = await devnet({ seed: 'another-seed' });
    assert.ok(a.canonicalBlocks().length > 400, `3 h of chain at ~20 s per block (${a.canonicalBlocks().length})`);
    assert.deepEqual(canonicalIds(a), canonicalIds(b));
    assert.deepEqual(a.tip(), b.tip());
    assert.notEqual(canonicalIds(c)[10], canonicalIds(a)[10]);
    const last = a.canonicalBlocks().at(-1)!;
    assert.ok(last.slot <= 3 * 3600 && last.slot > 3 * 3600 - 600, 'the backfill ends at now');
  });

  it('keeps the canonical chain identical whatever the fork rate; forks add orphans and rollbacks', async () => {
    const calm = await devnet();
    const forky = await devnet({ forkRate: 0.2 });
    assert.deepEqual(canonicalIds(forky), canonicalIds(calm));
    const json = (d: Devnet, height: number) => {
      const e = d.events().find((x) => x.kind === 'forward' && x.canonical && x.height === height);
      return e && e.kind === 'forward' ? d.blockJson(e) : '';
    };
    assert.equal(json(forky, 300), json(calm, 300));
    assert.equal(calm.events().filter((e) => e.kind === 'backward').length, 0);
    const rollbacks = forky.events().filter((e) => e.kind === 'backward').length;
    assert.ok(rollbacks > 40, `about one fork in five blocks (${rollbacks})`);
  });

  it('forks up to forkDepth blocks deep (DEVNET_FORK_DEPTH), on the same canonical chain, every orphan valid', async () => {
    // Each RollBackward undoes the orphans published since the last canonical block: the fork's depth.
    const depths = (d: Devnet) => {
      const out: number[] = [];
      let orphans = 0;
      for (const e of d.events())
        if (e.kind === 'backward') out.push(orphans);
        else orphans = e.canonical ? 0 : orphans + 1;
      return out;
    };
    const calm = await devnet();
    const usual = await devnet({ forkRate: 0.2 });
    const deep = await devnet({ forkRate: 0.2, forkDepth: 8 });
    assert.deepEqual(canonicalIds(deep), canonicalIds(calm));
    assert.equal(Math.max(...depths(usual)), 3, 'by default a fork is 1-3 blocks deep');
    const d = depths(deep);
    assert.ok(d.length > 40, `about one fork in five blocks (${d.length})`);
    assert.equal(Math.min(...d), 1);
    assert.equal(Math.max(...d), 8);
    assert.ok(d.filter((x) => x > 3).length > 10, `forks deeper than 3 blocks: ${d.filter((x) => x > 3).length}`);
    // Deep orphans spend real outputs too: a client replaying the stream undoes them and ends on the canonical chain.
    const { events } = await syncFromOrigin(deep.url, 100);
    const r = replay(
      events,
      deep.genesisUtxos().map((u) => ({ txId: u.txId, index: u.index, value: toValue(u.value) })),
    );
    assert.deepEqual(r.chain, canonicalIds(calm));
  });

  it('streams the whole history to a pipelining client, forks included, with consistent ancestors', async () => {
    const d = await devnet({ forkRate: 0.2 });
    const { events, frames } = await syncFromOrigin(d.url, 100);
    assert.deepEqual(events[0], { direction: 'backward', point: 'origin', tip: d.tip() });
    assert.equal(events.length, d.events().length + 1);
    for (const [i, f] of frames.entries()) {
      assert.equal(f.jsonrpc, '2.0');
      assert.equal(f.method, 'nextBlock');
      assert.equal(f.id, i, 'responses come back in request order, echoing ids');
    }
    const blocks = forwardBlocks(events);
    const first = blocks[0]!;
    assert.equal(first.type, 'praos');
    assert.equal(first.era, 'conway');
    assert.equal(first.ancestor, 'genesis');
    assert.equal(first.height, 1);
    assert.deepEqual(first.protocol?.version, { major: 10, minor: 0 });
    const poolIds = new Set(d.world.pools.map((p) => p.coldVkey));
    for (const b of blocks) assert.ok(poolIds.has(b.issuer!.verificationKey), 'issuers are pool cold keys');
    // After each RollBackward to h, the next block's ancestor is h.
    for (let i = 1; i < events.length - 1; i++) {
      const e = events[i]!;
      const next = events[i + 1]!;
      if (e.direction === 'backward' && next.direction === 'forward' && e.point !== 'origin')
        assert.equal(next.block.ancestor, e.point.id);
    }
    const r = replay(
      events,
      d.genesisUtxos().map((u) => ({ txId: u.txId, index: u.index, value: toValue(u.value) })),
    );
    assert.deepEqual(r.chain, canonicalIds(d), 'the replayed chain is the canonical chain');
    assert.ok(r.stats.rollbacks > 40 && r.stats.undoneBlocks >= r.stats.rollbacks);
  });

  it('generates balanced, realistic activity: payments, tokens, NFTs, staking, pools and reward withdrawals', async () => {
    const d = await devnet({ epochLength: 3600, forkRate: 0.05 });
    const { events } = await syncFromOrigin(d.url, 50);
    const r = replay(
      events,
      d.genesisUtxos().map((u) => ({ txId: u.txId, index: u.index, value: toValue(u.value) })),
    );
    assert.ok(r.stats.txs > 1500, `${r.stats.txs} transactions`);
    for (const t of ['stakeCredentialRegistration', 'stakeDelegation', 'stakePoolRegistration'])
      assert.ok(r.stats.certificates.has(t), t);
    assert.ok(r.stats.mints >= 6 && r.stats.nft721 > 20, 'token and NFT mints with CIP-25 metadata');
    assert.ok(r.stats.withdrawals > 0, 'rewards accrued at epoch boundaries get withdrawn');
    const nft = forwardBlocks(events)
      .flatMap((b) => b.transactions ?? [])
      .find((t) => t.metadata?.labels['721']);
    const meta = nft!.metadata!.labels['721']!.json as Record<string, Record<string, { name: string; image: string }>>;
    const policy = Object.keys(nft!.mint!)[0]!;
    const piece = Object.values(meta[policy]!)[0]!;
    assert.match(piece.image, /^ipfs:\/\/Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    assert.match(nft!.metadata!.hash, /^[0-9a-f]{64}$/);
    const bigQuantity =
      r.utxo.size &&
      [...r.utxo.values()].some((v) =>
        Object.values(v).some((n) => Object.values(n).some((q) => (q as bigint) > 2n ** 53n)),
      );
    assert.ok(bigQuantity, 'quantities beyond 2^53 arrive intact as JSON integers');
  });

  it('answers findIntersection and the ledger/network queries in Ogmios v6 shapes', async () => {
    const d = await devnet({ forkRate: 0.1 });
    const c = await RawClient.open(d.url);
    try {
      const tip = d.tip();
      const mid = d.canonicalBlocks()[200]!;
      const found = await c.call('findIntersection', {
        points: [{ slot: 1, id: 'ff'.repeat(32) }, { slot: mid.slot, id: mid.id }, 'origin'],
      });
      assert.deepEqual(found.result, { intersection: { slot: mid.slot, id: mid.id }, tip });
      const back = await c.call('nextBlock');
      assert.deepEqual(back.result, { direction: 'backward', point: { slot: mid.slot, id: mid.id }, tip });
      const fwd = (await c.call('nextBlock')).result as { direction: string; block: Block };
      assert.equal(fwd.direction, 'forward');
      assert.equal(fwd.block.ancestor, mid.id);
      const orphan = d.events().find((e) => e.kind === 'forward' && !e.canonical)!;
      const none = await c.call('findIntersection', {
        points: orphan.kind === 'forward' ? [{ slot: orphan.slot, id: orphan.id }] : [],
      });
      assert.deepEqual(none.error, { code: 1000, message: 'No intersection found.', data: { tip } });

      assert.deepEqual((await c.call('queryNetwork/tip')).result, { slot: tip.slot, id: tip.id });
      assert.deepEqual((await c.call('queryLedgerState/tip')).result, { slot: tip.slot, id: tip.id });
      assert.equal((await c.call('queryNetwork/blockHeight')).result, tip.height);
      assert.equal((await c.call('queryNetwork/startTime')).result, '2026-03-01T09:00:00Z');
      assert.equal((await c.call('queryLedgerState/epoch')).result, 0);
      const genesis = (await c.call('queryNetwork/genesisConfiguration', { era: 'shelley' })).result as Record<
        string,
        unknown
      >;
      assert.equal(genesis.era, 'shelley');
      assert.equal(genesis.epochLength, 21600);
      assert.equal(genesis.securityParameter, 2160);
      assert.equal(genesis.activeSlotsCoefficient, '1/20');
      assert.deepEqual(genesis.slotLength, { milliseconds: 1000 });
      assert.equal(genesis.startTime, '2026-03-01T09:00:00Z');
      const eras = (await c.call('queryLedgerState/eraSummaries')).result as { start: unknown; parameters: unknown }[];
      assert.deepEqual(eras, [
        {
          start: { time: { seconds: 0 }, slot: 0, epoch: 0 },
          parameters: { epochLength: 21600, slotLength: { milliseconds: 1000 }, safeZone: 129600 },
        },
      ]);
      const pools = (await c.call('queryLedgerState/stakePools', { includeStake: true })).result as Record<
        string,
        {
          id: string;
          margin: string;
          pledge: { ada: { lovelace: bigint } };
          stake: { ada: { lovelace: bigint } };
          rewardAccount: string;
        }
      >;
      assert.ok(Object.keys(pools).length >= 10);
      for (const [id, p] of Object.entries(pools)) {
        assert.equal(p.id, id);
        assert.match(id, /^pool1/);
        assert.match(p.margin, /^\d+\/\d+$/);
        assert.equal(typeof p.pledge.ada.lovelace, 'bigint');
        assert.equal(typeof p.stake.ada.lovelace, 'bigint');
        assert.match(p.rewardAccount, /^stake1/);
      }
      const dist = (await c.call('queryLedgerState/liveStakeDistribution')).result as Record<
        string,
        { stake: string; vrf: string }
      >;
      assert.deepEqual(Object.keys(dist).sort(), Object.keys(pools).sort());
      const wallet = d.world.wallets[120]!;
      const utxo = (await c.call('queryLedgerState/utxo', { addresses: [wallet.address] })).result as {
        transaction: { id: string };
        index: number;
        address: string;
        value: Value;
      }[];
      assert.ok(utxo.length > 0);
      for (const u of utxo) assert.equal(u.address, wallet.address);
      const unknown = await c.call('queryLedgerState/somethingElse');
      assert.equal(unknown.error?.code, -32601);
      assert.equal(unknown.method, 'queryLedgerState/somethingElse');
      assert.equal(unknown.id, 'queryLedgerState/somethingElse');
    } finally {
      c.close();
    }
  });

  it('never dates a block after its clock: live blocks wait for their slot, forks included', async () => {
    // A clock running 100x the wall clock and a tick every 20 ms: the ticks come far more often than blocks are due.
    const t0 = Date.now();
    const clock = () => t0 + (Date.now() - t0) * 100;
    const d = await devnet({ backfillHours: 0.5, blockMs: 20, forkRate: 0.5, now: clock });
    const before = d.events().length;
    await new Promise((r) => setTimeout(r, 1500));
    const live = d.events().slice(before);
    assert.ok(live.filter((e) => e.kind === 'forward').length >= 2, 'live blocks were published');
    const nowMs = clock();
    for (const e of d.events())
      if (e.kind === 'forward')
        assert.ok(d.systemStartMs + e.slot * 1000 <= nowMs, `block ${e.height} is not dated ahead`);
  });

  it('keeps its tip at the clock: a tick publishes every block whose slot has come, forks included', async () => {
    // The clock jumps ten minutes past the backfilled tip (~30 blocks due, and the orphans of their forks). With one
    // step per tick the tip fell behind the clock for good (gaps average a tick's 20 s; fork steps move nothing): the
    // first tick after the jump must bring the tip back within the longest block gap (240 slots) of the clock.
    let nowMs = FIXED_NOW();
    const d = await devnet({ backfillHours: 0.5, blockMs: 1000, forkRate: 0.2, now: () => nowMs });
    const backfilled = d.tip();
    nowMs += 10 * 60_000;
    const nowSlot = Math.floor((nowMs - d.systemStartMs) / 1000);
    // A tick runs whole between two turns of this loop: the first change seen is the first tick's work.
    const deadline = Date.now() + 10_000;
    while (d.tip().id === backfilled.id && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const tip = d.tip();
    assert.ok(tip.height >= backfilled.height + 20, `${tip.height - backfilled.height} blocks in the first tick`);
    assert.ok(nowSlot - tip.slot <= 240, `the tip is ${nowSlot - tip.slot} s behind the clock`);
    for (const e of d.events())
      if (e.kind === 'forward') assert.ok(e.slot <= nowSlot, `block ${e.height} is not dated ahead`);
  });

  it('makes live blocks at the tip: a waiting nextBlock is answered when the next block arrives', async () => {
    // A clock running 1000x the wall clock, so the next block's slot comes within a few ticks.
    const t0 = Date.now();
    const d = await devnet({ backfillHours: 0.5, blockMs: 100, now: () => t0 + (Date.now() - t0) * 1000 });
    const c = await RawClient.open(d.url);
    try {
      const tip = d.tip();
      await c.call('findIntersection', { points: [{ slot: tip.slot, id: tip.id }] });
      assert.equal(((await c.call('nextBlock')).result as { direction: string }).direction, 'backward');
      const next = (await c.call('nextBlock')).result as {
        direction: string;
        block: Block;
        tip: { id: string; height: number };
      };
      assert.equal(next.direction, 'forward');
      assert.equal(next.block.ancestor, tip.id);
      assert.equal(next.block.height, tip.height + 1);
      // A tick publishes every block whose slot has come (several at this clock): the tip sent with the first of
      // them is that block or a later one of the same tick, never one behind it.
      const sentTip = next.tip;
      assert.ok(sentTip.height >= next.block.height, `tip ${sentTip.height} behind block ${next.block.height}`);
      if (sentTip.height === next.block.height) assert.equal(sentTip.id, next.block.id);
    } finally {
      c.close();
    }
  });

  it('serves a live fork as the tip for a moment, then rolls back to the fork point', async () => {
    const d = await devnet({ backfillHours: 0.5, forkRate: 1 });
    const c = await RawClient.open(d.url);
    try {
      const fork = d.canonicalBlocks().at(-1)!;
      await c.call('findIntersection', { points: [{ slot: fork.slot, id: fork.id }] });
      await c.call('nextBlock');
      c.send('nextBlock', undefined, 'held');
      d.step();
      const orphan = (await c.next()).result as { direction: string; block: Block; tip: { id: string } };
      assert.equal(orphan.direction, 'forward');
      assert.equal(orphan.block.ancestor, fork.id);
      assert.equal(orphan.tip.id, orphan.block.id, 'the orphan is the tip while it lasts');
      const onChain = await c.call('queryNetwork/tip');
      assert.deepEqual(onChain.result, { slot: orphan.block.slot, id: orphan.block.id });
      // The ledger never applies an orphan: its state, and the point it says it is at, are the fork point's.
      const ledger = await c.call('queryLedgerState/tip');
      assert.deepEqual(ledger.result, { slot: fork.slot, id: fork.id });
      // Drain the rest of the fork, then the rollback and the canonical successor arrive together.
      const seen: ChainEvent[] = [];
      for (let i = 0; i < 5 && !seen.some((e) => e.direction === 'backward'); i++) {
        c.send('nextBlock');
        d.step();
        seen.push((await c.next()).result as ChainEvent);
      }
      const back = seen.find((e) => e.direction === 'backward')!;
      assert.deepEqual(back.direction === 'backward' && back.point, { slot: fork.slot, id: fork.id });
      const next = (await c.call('nextBlock')).result as { direction: string; block: Block };
      assert.equal(next.block.ancestor, fork.id);
      assert.equal(next.block.id, d.canonicalBlocks().at(-1)!.id);
    } finally {
      c.close();
    }
  });

  it('keeps its identity in dataDir: a restart regenerates the same chain and continues it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-'));
    try {
      const first = await startDevnet({ ...base, dataDir: dir });
      const ids = canonicalIds(first);
      await first.close();
      assert.equal(JSON.parse(readFileSync(join(dir, 'devnet.json'), 'utf8')).seed, 'test-seed');
      const later = () => FIXED_NOW() + 30 * 60_000;
      const second = await startDevnet({ ...base, dataDir: dir, now: later });
      try {
        assert.equal(second.systemStartMs, first.systemStartMs);
        assert.deepEqual(canonicalIds(second).slice(0, ids.length), ids);
        assert.ok(second.canonicalBlocks().length > ids.length + 50, 'continued to the new now');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * A devnet that ran 12 h of history, restarted to stream it back, and a client that asks it for the intersection at
   * the first run's third-last block (and origin) before the restarted one has published that block again.
   */
  async function askWhileRestreaming() {
    const first = await devnet({ backfillHours: 12 });
    const held = first.canonicalBlocks().at(-3)!;
    await first.close();
    const restarted = await devnet({ backfillHours: 12, streamBackfill: true });
    const c = await RawClient.open(restarted.url);
    try {
      assert.ok(restarted.tip().height < held.height, 'asked before the devnet published the point again');
    } catch (e) {
      c.close();
      throw e;
    }
    c.send('findIntersection', { points: [{ slot: held.slot, id: held.id }, 'origin'] });
    return { held, restarted, c };
  }

  it('a follower restarted while the devnet streams its history back intersects at its own tip, not at origin', async () => {
    // What `npm start` does on a DATA_DIR it used before: the devnet regenerates the same history in chunks while the
    // sync, resuming from its checkpoint, asks where the chains meet.
    const { held, restarted, c } = await askWhileRestreaming();
    try {
      // Answered once the regenerated history reaches the point (seconds alone; a minute on a busy machine).
      const found = await c.next(280_000);
      assert.deepEqual((found.result as { intersection: unknown }).intersection, { slot: held.slot, id: held.id });
      await restarted.backfilled;
      // Once the history is complete, a point the chain does not hold is answered at once, as before.
      const none = await c.call('findIntersection', { points: [{ slot: held.slot + 1, id: 'ff'.repeat(32) }] });
      assert.equal((none.error as { code: number }).code, 1000);
    } finally {
      c.close();
    }
  });

  it('a devnet closed while it streams its history back leaves a waiting intersection unanswered, never at origin', async () => {
    // `npm start` stopped during its devnet's backfill: the sync, resuming from its checkpoint, still waits for the
    // devnet to publish its tip again when both stop.
    const { restarted, c } = await askWhileRestreaming();
    try {
      await new Promise((r) => setTimeout(r, 50));
      await restarted.close();
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(
        c.raw.filter((f) => f.includes('findIntersection')),
        [],
        'no intersection answered over a history cut short',
      );
    } finally {
      c.close();
    }
  });
});

function toValue(v: { coin: bigint; assets: Record<string, Record<string, bigint>> }): Value {
  return { ada: { lovelace: v.coin }, ...v.assets } as Value;
}

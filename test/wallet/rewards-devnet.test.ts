/**
 * A stake key's wallet against the devnet ledger when a reward withdrawal lands between the staking recompute's
 * ledger reading and the end of its run: the block is dated before the run ended but was adopted after the ledger
 * was read, so the reading still holds the withdrawn rewards while the UTxO set already holds them. The oracle is
 * the ledger after the block (queryLedgerState/rewardAccountSummaries and queryLedgerState/utxo), not the service.
 */
import assert from 'node:assert/strict';
import type { ChainSource } from '../../activities/chain/source.js';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { createStakingActivities } from '../../activities/staking/index.js';
import { rewardAddress, stakeAddressOf } from '../../cardano/address.js';
import { drepBech32 } from '../../cardano/governance-ids.js';
import type { Block } from '../../cardano/chain/types.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { STAKE_REWARDS } from '../../mongo/collections/staking.js';
import { serveTestApp } from '../api/seed.js';
import { syncAll, syncedDevnet, tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NOW = Date.UTC(2026, 10, 20, 12);
const lovelace = (v: unknown): bigint => BigInt((v as { ada: { lovelace: bigint } }).ada.lovelace);

describe('wallet rewards against the devnet ledger', function () {
  this.timeout(180_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let env: Awaited<ReturnType<typeof tempStore>>;
  let close: () => Promise<void>;

  before(async () => {
    ({ devnet, chain, env, close } = await syncedDevnet({ seed: 'wallet-rewards', backfillHours: 4, now: () => NOW }));
  });
  after(() => close?.());

  it('a withdrawal adopted after the reading, in a block dated before the run ended, is not counted twice', async () => {
    const staking = createStakingActivities({ store: env.store, chain });
    let runEnd = NOW;
    const derived = createDerivedActivities({ store: env.store, now: () => runEnd });
    let withdrawn: { stake: string; lovelace: bigint; read: string } | null = null;
    for (let n = 0; n < 100 && !withdrawn; n++) {
      // A run reads the ledger at its tip, then the next block is made and adopted before the run ends.
      const mark = await derived.derivedRunStarted({ workflow: 'recomputeStaking' });
      await staking.recomputeStakePools();
      devnet.step();
      const points = devnet.canonicalBlocks();
      const tip = points[points.length - 1] as { slot: number; id: string };
      const event = devnet.events().findLast((e) => e.kind === 'forward' && e.id === tip.id);
      assert.ok(event?.kind === 'forward');
      const block = JSON.parse(devnet.blockJson(event)) as Block;
      runEnd = devnet.systemStartMs + tip.slot * 1000 + 1000;
      await derived.derivedRunCompleted(mark);
      for (const tx of block.transactions ?? [])
        for (const [stake, w] of Object.entries(tx.withdrawals ?? {})) {
          const read = await env.store.collection(STAKE_REWARDS).get(stake);
          if (read && BigInt(read.rewards) > 0n) withdrawn = { stake, lovelace: lovelace(w), read: read.rewards };
        }
      await syncAll(env.store, chain, 97);
    }
    assert.ok(withdrawn, 'a block withdrew rewards the run had read');
    assert.equal(String(withdrawn.lovelace), withdrawn.read, 'a withdrawal takes the whole balance the run read');

    const summaries = await chain.query<{ credential: string; rewards: unknown }[]>(
      'queryLedgerState/rewardAccountSummaries',
    );
    const ledgerRewards = summaries.find((r) => rewardAddress('mainnet', r.credential) === withdrawn.stake);
    const utxos = await chain.query<{ address: string; value: unknown }[]>('queryLedgerState/utxo', {});
    const utxoLovelace = utxos
      .filter((u) => stakeAddressOf(u.address) === withdrawn.stake)
      .reduce((s, u) => s + lovelace(u.value), 0n);

    const api = await serveTestApp(env.store);
    try {
      const res = await api.get(`/api/v1/wallet/${withdrawn.stake}`);
      assert.equal(res.status, 200);
      const w = res.body as Json;
      assert.equal(w.adaBalanceLovelace, String(utxoLovelace), "the ledger's UTxO balance (the withdrawal is in it)");
      assert.equal(w.rewardsLovelace, String(lovelace(ledgerRewards?.rewards)), "the ledger's reward balance");
      assert.equal(w.rewardsLovelace, '0');
      assert.ok(Math.abs(w.totals.ada - (w.adaBalance + w.totals.tokensAda)) < 1e-6, 'the withdrawn ADA once');
    } finally {
      await api.close();
    }
  });
});

describe('wallet delegation against the devnet ledger', function () {
  this.timeout(180_000);
  let chain: ChainSource;
  let env: Awaited<ReturnType<typeof tempStore>>;
  let close: () => Promise<void>;

  before(async () => {
    ({ chain, env, close } = await syncedDevnet({ seed: 'wallet-delegation', backfillHours: 4, now: () => NOW }));
  });
  after(() => close?.());

  it("a stake key's wallet names the pool and DRep the ledger has it delegate to; an address's names none", async () => {
    const summaries = await chain.query<{ credential: string; stakePool?: { id: string } }[]>(
      'queryLedgerState/rewardAccountSummaries',
    );
    const dreps = await chain.query<Json[]>('queryLedgerState/delegateRepresentatives');
    const drepOf = new Map<string, string>();
    for (const d of dreps) {
      const id =
        d.type === 'registered'
          ? drepBech32({ hash: d.id, script: d.from === 'script' })
          : { abstain: 'drep_always_abstain', noConfidence: 'drep_always_no_confidence' }[d.type as string];
      for (const del of (d.delegators ?? []) as Json[]) if (id) drepOf.set(del.credential, id);
    }
    const api = await serveTestApp(env.store);
    const seen = { pools: 0, dreps: 0, undelegated: 0 };
    try {
      for (const r of summaries) {
        const stake = rewardAddress('mainnet', r.credential);
        const res = await api.get(`/api/v1/wallet/${stake}`);
        if (res.status !== 200) continue; // a key with no address on chain has no wallet
        const want = { poolId: r.stakePool?.id ?? null, drep: drepOf.get(r.credential) ?? null };
        assert.deepEqual((res.body as Json).delegation, want, stake);
        if (want.poolId) seen.pools++;
        if (want.drep) seen.dreps++;
        if (!want.poolId) seen.undelegated++;
        // Its payment addresses' wallets leave the delegation to the key, as they leave its rewards.
        const one = (await api.get(`/api/v1/explorer/address/${stake}`)).body as Json;
        const addr = (await api.get(`/api/v1/wallet/${one.addresses[0].address}`)).body as Json;
        assert.equal(addr.delegation, null);
      }
      assert.ok(seen.pools > 10 && seen.dreps > 5, JSON.stringify(seen));
      const md = (await api.get(`/api/md/wallet/${rewardAddress('mainnet', summaries[0]!.credential)}`)).body;
      assert.match(
        String(md),
        /Delegates its stake to (\[pool1[^\]]+\]\([^)]+\/api\/md\/stake-pool\/pool1|no stake pool)/,
      );
    } finally {
      await api.close();
    }
  });
});

describe('wallet rewards after a reading under a moving ledger', function () {
  this.timeout(240_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let env: Awaited<ReturnType<typeof tempStore>>;

  before(async () => {
    devnet = await startDevnet({
      seed: 'wallet-rewards-moving',
      backfillHours: 6,
      now: () => NOW,
      blockMs: 0,
      forkRate: 0,
      epochLength: 3600,
    });
    chain = await connectOgmios(devnet.url);
    env = await tempStore();
    await syncAll(env.store, chain, 97);
  });
  after(async () => {
    await chain?.close();
    await devnet?.close();
    await env?.cleanup();
  });

  /** Stake keys whose wallet rewards differ from the ledger's reward balance (queryLedgerState/rewardAccountSummaries). */
  async function walletsOffLedger(): Promise<string[]> {
    const summaries = await chain.query<{ credential: string; rewards: unknown }[]>(
      'queryLedgerState/rewardAccountSummaries',
    );
    assert.ok(summaries.length > 20);
    const api = await serveTestApp(env.store);
    const off: string[] = [];
    try {
      for (const r of summaries) {
        const stake = rewardAddress('mainnet', r.credential);
        const res = await api.get(`/api/v1/wallet/${stake}`);
        if (res.status !== 200) continue; // a key with no address on chain has no wallet
        if ((res.body as Json).rewardsLovelace !== String(lovelace(r.rewards))) off.push(stake);
      }
    } finally {
      await api.close();
    }
    return off;
  }

  it('a balance read while the ledger moved is read again once the next run finds a withdrawal after its slot', async () => {
    // A devnet generating its history while the run reads (npm start's streamed backfill) adopts blocks between every
    // tip answer and the reward reading: three attempts all see the tip move, and each reading is kept at the tip
    // before it, older than the state it holds. Here 200 blocks (over an epoch) are made before each reading.
    const moving = Object.create(chain) as ChainSource;
    moving.query = async <T>(method: string, params?: Record<string, unknown>): Promise<T> => {
      if (method === 'queryLedgerState/rewardAccountSummaries') for (let i = 0; i < 200; i++) devnet.step();
      return chain.query<T>(method, params);
    };
    await createStakingActivities({ store: env.store, chain: moving }).recomputeStakePools();
    await syncAll(env.store, chain, 97);
    // A key that withdrew after the kept tip and was credited at the next boundary shows less than the ledger holds.
    const before = await walletsOffLedger();
    assert.ok(before.length > 0, 'a withdrawal and a reward credit between the kept tip and the reading');

    // The next run reads a still ledger: every key's rewards are the ledger's, the balances unchanged since included.
    await createStakingActivities({ store: env.store, chain }).recomputeStakePools();
    assert.deepEqual(await walletsOffLedger(), []);
  });
});

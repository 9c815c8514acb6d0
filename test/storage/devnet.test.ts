/**
 * The storage-network overview end to end on the devnet: Iagon providers stake, retire, withdraw and claim rewards in
 * the contracts' on-chain formats → Ogmios client → sync (storage, market and holders extensions) → market and
 * storage recomputes → REST. Checked the way a user would cross-check it: the staked total is the IAG at the staking
 * script's unspent outputs, the provider counts are the distinct keys in their datums, the reward pool is the IAG at
 * the reward script, every activity item is a real transaction; and the events are the same whether or not the
 * devnet forked (rollbacks leave nothing behind).
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { decodeStakeDatum } from '../../activities/storage/datum.js';
import { createStorageExtension } from '../../activities/storage/extension.js';
import { IAG_UNIT, devnetIagonScripts } from '../../cardano/iagon.js';
import { createStorageActivities } from '../../activities/storage/index.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { enterpriseAddress } from '../../cardano/address.js';
import { scaleInteger } from '../../cardano/units.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { TRANSACTIONS, UTXOS } from '../../mongo/collections/chain.js';
import { STORAGE_EVENTS, STORAGE_SYNC_COLLECTIONS } from '../../mongo/collections/storage.js';
import { storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';
import type { SyncExtension } from '../../activities/sync/extension.js';
import { tempStore } from '../sync/helpers.js';
import { serveTestApp, type TestApi } from '../api/seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const SEED = 'devnet';
const NOW = Date.UTC(2026, 10, 20, 12);
const SCRIPTS = devnetIagonScripts(SEED);
const STAKE_ADDRESS = enterpriseAddress('mainnet', SCRIPTS.stake[0] as string, true);
const REWARD_ADDRESS = enterpriseAddress('mainnet', SCRIPTS.reward[0] as string, true);

async function syncDevnet(store: Store, forkRate: number, extensions: SyncExtension[]) {
  const devnet: Devnet = await startDevnet({
    seed: SEED,
    backfillHours: 12,
    blockMs: 3_600_000,
    forkRate,
    now: () => NOW,
  });
  const chain: ChainSource = await connectOgmios(devnet.url);
  const sync = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions });
  let rollbacks = 0;
  for (;;) {
    const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 100 });
    rollbacks += r.rollbacks;
    if (r.atTip && r.blocks === 0) break;
  }
  await chain.close();
  await devnet.close();
  return rollbacks;
}

describe('storage-network overview on the devnet', function () {
  this.timeout(240_000);
  let env: Awaited<ReturnType<typeof tempStore>>;
  let api: TestApi | undefined;
  let body: Json;
  let rollbacks = 0;

  before(async () => {
    env = await tempStore();
    await importRegistry(env.store, new URL('../../registry', import.meta.url).pathname);
    rollbacks = await syncDevnet(env.store, 0.05, defaultExtensions({ iagon: SCRIPTS }));
    const market = createRecomputeActivities({ store: env.store, now: () => NOW });
    await market.recomputeTokenStats();
    await createStorageActivities({ store: env.store, scripts: SCRIPTS, now: () => NOW }).recomputeStorageOverview();
    api = await serveTestApp(env.store);
    const res = await api.get('/api/v1/storage-network/overview');
    assert.equal(res.status, 200);
    body = res.body as Json;
  });
  after(async () => {
    await api?.close();
    await env?.cleanup();
  });

  it('stakes exactly the IAG at the staking script’s unspent outputs, by distinct provider key', async () => {
    const outs = await env.store.collection(UTXOS).find('byAddress', { eq: [STAKE_ADDRESS] });
    assert.ok(outs.length > 0, 'providers staked on the devnet');
    const raw = outs.reduce((s, u) => s + BigInt(u.value.assets[IAG_UNIT] ?? '0'), 0n);
    const datums = outs.map((u) => decodeStakeDatum(u.datum as string));
    const f = body.staking.figures;
    assert.equal(body.staking.available, true);
    assert.equal(body.staking.reason, null);
    assert.equal(f.totalStaked.value, scaleInteger(raw, 6));
    assert.equal(f.stakeOutputs.value, outs.length);
    assert.equal(f.providers.value, new Set(datums.map((d) => d?.providerKey)).size);
    assert.equal(f.unrecognisedOutputs.value, 0);
    const retiring = datums.filter((d) => d?.state === 'retiring');
    assert.ok(f.activeProviders.value > 0 && f.retiringProviders.value > 0, 'providers in both states');
    assert.equal(f.retiringPositions.value, retiring.length);
    assert.equal(f.activePositions.value + f.retiringPositions.value, outs.length);
    assert.ok(Math.abs(f.activeStake.value + f.retiringStake.value - f.totalStaked.value) < 1e-6);
    for (const fig of Object.values(f) as Json[]) assert.ok(fig.description.length > 10);
  });

  it('reports the reward pool and claims, and the IAG market and supply', async () => {
    const outs = await env.store.collection(UTXOS).find('byAddress', { eq: [REWARD_ADDRESS] });
    const pool = outs.reduce((s, u) => s + BigInt(u.value.assets[IAG_UNIT] ?? '0'), 0n);
    const f = body.staking.figures;
    assert.equal(f.rewardPool.value, scaleInteger(pool, 6));
    const claims = await env.store.collection(STORAGE_EVENTS).find('byKind', { eq: ['reward-claim'] });
    assert.ok(claims.length > 0);
    // 12 h of history: every claim is within 24 h and 7 d of NOW.
    assert.equal(f.rewardClaims24h.value, claims.length);
    assert.equal(f.rewardClaims7d.value, claims.length);
    const sum = claims.reduce((s, e) => s + BigInt(e.amountRaw), 0n);
    assert.equal(f.rewardsClaimed24h.value, scaleInteger(sum, 6));

    assert.ok(body.market.priceAda.value > 0, 'IAG trades on the devnet DEX pools');
    assert.ok(body.market.liquidityAda.value > 0);
    assert.ok(body.supply.holders.value > f.providers.value, 'providers and traders hold IAG');
    const expectCirc = body.supply.onChainQuantity.value - f.totalStaked.value - f.rewardPool.value;
    assert.ok(Math.abs(body.supply.circulatingSupply.value - expectCirc) < 1e-3);
    assert.ok(body.supply.totalSupply.value >= body.supply.onChainQuantity.value);
  });

  it('lists recent activity newest first, each a real transaction', async () => {
    const items = body.recentActivity as Json[];
    assert.ok(items.length > 0);
    for (let i = 1; i < items.length; i++) assert.ok((items[i - 1] as Json).time >= (items[i] as Json).time);
    const kinds = new Set(items.map((i) => i.kind));
    assert.ok(kinds.has('reward-claim') || kinds.has('stake'));
    for (const it of items.slice(0, 5)) {
      const tx = await env.store.collection(TRANSACTIONS).get(it.txHash);
      assert.ok(tx, `transaction ${it.txHash} indexed`);
      assert.equal(tx.time, it.time);
    }
    const all = await env.store.collection(STORAGE_EVENTS).find('byKind', { eq: ['retire'] });
    assert.ok(all.length > 0, 'some providers retired');
    assert.ok(body.coverageFrom !== null && body.coverageFrom <= (items[items.length - 1] as Json).time);
  });

  it('counts the claims of the 24 h and 7 d before the indexed tip, also when the index is behind the clock', async () => {
    // An index two days behind the wall clock (a catch-up, a chain source down): its answer is as of its tip
    // (asOf), so its windows end there, as the market's do. The devnet's whole history is 12 h long, so every claim
    // is within 24 h of the tip.
    const claims = await env.store.collection(STORAGE_EVENTS).find('byKind', { eq: ['reward-claim'] });
    const sum = scaleInteger(
      claims.reduce((s, e) => s + BigInt(e.amountRaw), 0n),
      6,
    );
    const lagging = createStorageActivities({ store: env.store, scripts: SCRIPTS, now: () => NOW + 2 * 86_400_000 });
    try {
      await lagging.recomputeStorageOverview();
      const res = await (api as TestApi).get('/api/v1/storage-network/overview');
      assert.equal(res.status, 200);
      const f = (res.body as Json).staking.figures;
      assert.ok(claims.length > 0);
      assert.equal(f.rewardClaims24h.value, claims.length);
      assert.equal(f.rewardsClaimed24h.value, sum);
      assert.equal(f.rewardClaims7d.value, claims.length);
      assert.equal(f.rewardsClaimed7d.value, sum);
    } finally {
      await createStorageActivities({ store: env.store, scripts: SCRIPTS, now: () => NOW }).recomputeStorageOverview();
    }
  });

  it('keeps the same events whether or not the chain forked (rollbacks undo them exactly)', async () => {
    const plain = await tempStore();
    try {
      await syncDevnet(plain.store, 0, [createStorageExtension(SCRIPTS)]);
      const a = await storeDigest(env.store, STORAGE_SYNC_COLLECTIONS);
      const b = await storeDigest(plain.store, STORAGE_SYNC_COLLECTIONS);
      assert.ok(rollbacks > 0, 'the forked sync rolled back');
      assert.ok((a.counts.storage_events ?? 0) > 50);
      assert.deepEqual(a, b);
    } finally {
      await plain.cleanup();
    }
  });
});

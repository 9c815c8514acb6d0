/**
 * LP tokens in a wallet are valued by their share of the pool: a withdrawal pays reserve × held / issued of each
 * side. The oracle is the devnet's ledger alone (queryLedgerState/utxo): the LP tokens the key holds, and the pool
 * output's inline datum decoded here with cbor-x (Minswap V2's pool datum: field 3 the LP tokens issued, field 4 the
 * ADA reserve of an ADA pool; not the output's lovelace, which also holds the pool's minimum ADA and the protocol's
 * fee share, neither of which a withdrawal pays out).
 */
import assert from 'node:assert/strict';
import type { ChainSource } from '../../activities/chain/source.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { stakeAddressOf } from '../../cardano/address.js';
import { decode } from 'cbor-x';
import { MINSWAP_V2 } from '../../cardano/dex/minswap-v2.js';
import { serveTestApp } from '../api/seed.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { startDevnet } from '../../devnet/index.js';
import { tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
type LedgerValue = Record<string, Record<string, bigint>> & { ada: { lovelace: bigint } };
const NOW = Date.UTC(2026, 10, 20, 12);
/** Plutus data as cbor-x decodes it: a constructor is CBOR tag 121 + index over its fields. */
type Constr = { tag: number; value: unknown[] };
const fieldsOf = (datumHex: string) => (decode(Buffer.from(datumHex, 'hex')) as Constr).value;
const isAda = (asset: unknown) => ((asset as Constr).value as Buffer[]).every((b) => b.length === 0);

describe('wallet: LP tokens valued by their share of the pool, against the devnet ledger', function () {
  this.timeout(240_000);
  let chain: ChainSource;
  let env: Awaited<ReturnType<typeof tempStore>>;
  let close: () => Promise<void>;

  before(async () => {
    const devnet = await startDevnet({ seed: 'wallet-lp', backfillHours: 6, blockMs: 0, forkRate: 0, now: () => NOW });
    chain = await connectOgmios(devnet.url);
    env = await tempStore();
    close = async () => {
      await chain.close();
      await devnet.close();
      await env.cleanup();
    };
    // The market extension keeps the pools (their LP tokens and issued LP) from the blocks.
    const sync = createSyncActivities({
      store: env.store,
      chain,
      k: 2160,
      network: 'mainnet',
      extensions: defaultExtensions(),
    });
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 0 });
      if (r.atTip && r.blocks === 0) break;
    }
    const r = createRecomputeActivities({ store: env.store, now: () => NOW });
    await r.recomputeTokenStats();
  });
  after(() => close?.());

  it("a key's Minswap V2 LP tokens are worth held / issued × the pool's two sides", async () => {
    const utxos = await chain.query<{ address: string; value: LedgerValue; datum?: string }[]>(
      'queryLedgerState/utxo',
      {},
    );
    const auth = MINSWAP_V2.authenPolicy;
    // Each pool output: the one holding the pool NFT; its LP name is the other asset under the authen policy.
    const pools = new Map<string, { issued: bigint; adaReserve: bigint | null }>();
    for (const u of utxos) {
      const held = u.value[auth];
      if (!held?.[MINSWAP_V2.poolNftName] || !u.datum) continue;
      const f = fieldsOf(u.datum);
      const issued = BigInt(f[3] as number | bigint);
      for (const name of Object.keys(held))
        if (name !== MINSWAP_V2.poolNftName)
          pools.set(name, { issued, adaReserve: isAda(f[1]) ? BigInt(f[4] as number | bigint) : null });
    }
    // LP tokens held outside the pools, by stake key.
    const byKey = new Map<string, Map<string, bigint>>();
    for (const u of utxos) {
      const held = u.value[auth];
      const key = stakeAddressOf(u.address);
      if (!held || held[MINSWAP_V2.poolNftName] || !key) continue;
      for (const [name, q] of Object.entries(held)) {
        if (!pools.has(name)) continue;
        const m = byKey.get(key) ?? new Map<string, bigint>();
        m.set(name, (m.get(name) ?? 0n) + q);
        byKey.set(key, m);
      }
    }
    assert.ok(byKey.size > 0, 'the devnet has LP holders');

    const api = await serveTestApp(env.store);
    try {
      let checked = 0;
      for (const [key, lps] of byKey) {
        const res = await api.get(`/api/v1/wallet/${key}`);
        assert.equal(res.status, 200, key);
        const w = res.body as Json;
        for (const [name, held] of lps) {
          const { issued, adaReserve } = pools.get(name) as { issued: bigint; adaReserve: bigint | null };
          const p = (w.positions as Json[]).find((x) => x.asset.unit === auth + name);
          assert.ok(p, `${key} holds ${auth + name}`);
          assert.ok(p.lp, `${auth + name} is recognised as the LP token of a pool`);
          assert.equal(p.lp.dex, 'minswap-v2');
          assert.ok(Math.abs(p.lp.share - Number(held) / Number(issued)) < 1e-12, 'share of the issued LP tokens');
          // The pool it names says so itself: its LP token and the LP tokens its datum counts as issued.
          const pool = (await api.get(`/api/v1/pools/${p.lp.poolId}`)).body as Json;
          assert.deepEqual([pool.lpToken, pool.lpIssuedRaw], [auth + name, String(issued)]);
          // The Markdown view names the pool and links its view (an LP token has no token view of its own).
          const view = await api.get(`/api/md/wallet/${key}`);
          const link = `http://api.test/api/md/pool/${p.lp.poolId}`; // SITE_URL of the test app
          assert.match(String(view.body), new RegExp(`\\[LP of pool #${p.lp.poolId}\\]\\(${link}\\) \\(minswap-v2, `));
          assert.equal((await api.get(`/api/md/pool/${p.lp.poolId}`)).status, 200);
          if (adaReserve === null) continue; // a token/token pool: its sides are valued through token prices
          // An ADA pool's two sides are worth twice its ADA reserve.
          const expected = ((Number(held) / Number(issued)) * 2 * Number(adaReserve)) / 1e6;
          assert.ok(
            Math.abs(p.valueAda - expected) <= 1e-9 * expected + 1e-6,
            `${key}: ${p.valueAda} ADA for ${held} of ${issued} LP, expected ${expected}`,
          );
          assert.ok(Math.abs(p.valueUsd - p.valueAda * w.adaUsd) < 1e-6 * Math.max(1, p.valueUsd));
          checked++;
        }
        // Totals count the LP positions now: nothing valued is left out of the sum.
        const valued = (w.positions as Json[]).reduce((s, x) => s + (x.valueAda ?? 0), 0);
        assert.ok(Math.abs(w.totals.tokensAda - valued) < 1e-6 * Math.max(1, valued));
      }
      assert.ok(checked >= 1, `${checked} LP positions checked`);
      console.log(`      ${checked} LP positions of ${byKey.size} keys checked against the ledger`);
    } finally {
      await api.close();
    }
  });
  it("the DEX's own pool outputs hold their unissued LP tokens: part of the balance, no claim, not valued", async () => {
    const utxos = await chain.query<{ address: string; value: LedgerValue; datum?: string }[]>(
      'queryLedgerState/utxo',
      {},
    );
    const auth = MINSWAP_V2.authenPolicy;
    // Per wallet holding Minswap V2 pool outputs (their stake key, else their address): what the ledger has of each
    // LP token in the pool outputs (the unissued supply), and in all its outputs, with the datum's issued count.
    const wallets = new Map<
      string,
      Map<string, { inPools: bigint; all: bigint; issued: bigint; ada: bigint | null }>
    >();
    for (const u of utxos) {
      const held = u.value[auth];
      if (!held?.[MINSWAP_V2.poolNftName] || !u.datum) continue;
      const f = fieldsOf(u.datum);
      const key = stakeAddressOf(u.address) ?? u.address;
      const m = wallets.get(key) ?? new Map();
      wallets.set(key, m);
      for (const [name, q] of Object.entries(held))
        if (name !== MINSWAP_V2.poolNftName)
          m.set(name, {
            inPools: q,
            all: 0n,
            issued: BigInt(f[3] as number | bigint),
            ada: isAda(f[1]) ? BigInt(f[4] as number | bigint) : null,
          });
    }
    assert.ok(wallets.size > 0, 'the devnet has Minswap V2 pools');
    for (const u of utxos) {
      const m = wallets.get(stakeAddressOf(u.address) ?? u.address);
      for (const [name, q] of Object.entries(u.value[auth] ?? {})) {
        const e = m?.get(name);
        if (e) e.all += q;
      }
    }
    const api = await serveTestApp(env.store);
    try {
      let checked = 0;
      for (const [key, lps] of wallets) {
        const w = (await api.get(`/api/v1/wallet/${key}`)).body as Json;
        for (const [name, { inPools, all, issued, ada }] of lps) {
          const p = (w.positions as Json[]).find((x) => x.asset.unit === auth + name);
          assert.ok(p?.lp, `${key} holds the LP token ${auth + name}`);
          assert.equal(p.balanceRaw, String(all), 'the balance is the ledger quantity');
          assert.equal(p.lp.unissuedRaw, String(inPools), "the pool output's LP tokens are its unissued supply");
          // Only LP tokens the wallet holds outside the pool outputs claim a share: on the devnet, none.
          const claimed = all - inPools;
          assert.ok(Math.abs(p.lp.share - Number(claimed) / Number(issued)) < 1e-12, `${key} share ${p.lp.share}`);
          if (ada !== null) {
            const expected = ((Number(claimed) / Number(issued)) * 2 * Number(ada)) / 1e6;
            assert.ok(Math.abs(p.valueAda - expected) <= 1e-9 * expected + 1e-6, `${key}: ${p.valueAda} ADA`);
          }
          checked++;
        }
        // What the wallet is worth cannot exceed the ADA that exists (45 billion): it was 10^16 ADA with the pools'
        // unissued LP tokens valued as shares of billions of pools.
        assert.ok(w.totals.ada < 45e9, `${key} totals.ada ${w.totals.ada}`);
        const valued = (w.positions as Json[]).reduce((s, x) => s + (x.valueAda ?? 0), 0);
        assert.ok(Math.abs(w.totals.tokensAda - valued) < 1e-6 * Math.max(1, valued));
        // The Markdown view says which LP tokens are the pool's own.
        const view = String((await api.get(`/api/md/wallet/${key}`)).body);
        assert.match(view, /are the pool's own unissued LP tokens, not valued/);
      }
      // The pool address alone (addr1…) holds the same unissued supply: the same figures.
      const poolAddresses = new Set(utxos.filter((u) => u.value[auth]?.[MINSWAP_V2.poolNftName]).map((u) => u.address));
      for (const address of poolAddresses) {
        const w = (await api.get(`/api/v1/wallet/${address}`)).body as Json;
        const lp = (w.positions as Json[]).filter((x) => x.lp);
        assert.ok(lp.length > 0, address);
        for (const p of lp) assert.deepEqual([p.lp.share, p.valueAda, p.lp.unissuedRaw], [0, 0, p.balanceRaw], address);
        assert.ok(w.totals.ada < 45e9, `${address} totals.ada ${w.totals.ada}`);
      }
      assert.ok(checked >= 1);
      console.log(`      ${checked} pool-held LP positions of ${wallets.size} wallets checked against the ledger`);
    } finally {
      await api.close();
    }
  });
});

/**
 * Devnet DEX activity read back by the DEX adapters, over the Ogmios wire: pools of all four DEXes decode, every
 * batch's swaps come out of `extractSwaps` with the amounts the traders received and the adapters' own pool math,
 * pool states chain exactly, ADA/USD from the stablecoin pools is plausible, tokens carry real registry subjects
 * and CIP-68 metadata, and owners cancel some orders.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { findOrderAdapter, findPoolAdapter } from '../../cardano/dex/index.js';
import { LOVELACE, decodePlutusData, type PlutusData } from '../../cardano/dex/plutus-data.js';
import type { DexAdapter, DexName, PoolState, Unit } from '../../cardano/dex/types.js';
import { quantityOf } from '../../cardano/dex/utxo.js';
import type { OutputReference, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { dexTokens } from '../../devnet/activity/dex-tokens.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { FIXED_NOW, forwardBlocks, syncFromOrigin } from './helpers.js';

const ref = (r: OutputReference) => `${r.transaction.id}#${r.index}`;

/** The pool after one swap by each DEX's reserve rule (fee shares that leave the reserve for a treasury). */
function applySwap(pool: PoolState, tokenIn: Unit, amountIn: bigint, out: bigint): PoolState {
  const x = pool.extra as Record<string, unknown>;
  let retained = amountIn;
  if (pool.dex === 'minswap-v2' && x.feeSharingNumerator !== null) {
    const fee = tokenIn === pool.tokenA ? pool.fee.aToB : pool.fee.bToA;
    retained -= (amountIn * fee * (x.feeSharingNumerator as bigint)) / 100_000_000n;
  }
  if (pool.dex === 'wingriders-v2') retained -= (amountIn * (x.protocolFeeInBasis as bigint)) / (x.feeBasis as bigint);
  if (pool.dex === 'splash') retained -= (amountIn * (x.treasuryFeeNum as bigint)) / (x.feeDenominator as bigint);
  return tokenIn === pool.tokenA
    ? { ...pool, reserveA: pool.reserveA + retained, reserveB: pool.reserveB - out }
    : { ...pool, reserveA: pool.reserveA - out, reserveB: pool.reserveB + retained };
}

/**
 * What the devnet's batchers charge an order, lovelace (devnet/activity/dex-venues.ts, after each DEX's mainnet
 * settings): Minswap V2 1 ADA; SundaeSwap V3 a 0.332 ADA scoop fee shared by the scoop's orders plus 0.168 ADA each;
 * WingRiders V2 a 2 ADA agent fee; Splash a 0.5 ADA executor fee plus 1 ADA per execution step.
 */
function feeSchedule(dex: DexName, ordersInBatch: number): bigint {
  if (dex === 'minswap-v2') return 1_000_000n;
  if (dex === 'sundaeswap-v3') return 332_000n / BigInt(ordersInBatch) + 168_000n;
  if (dex === 'wingriders-v2') return 2_000_000n;
  if (dex === 'splash') return 1_500_000n;
  throw new Error(`no devnet fee schedule for ${dex}`);
}

describe('devnet DEX activity', function () {
  this.timeout(180_000);
  let d: Devnet;
  let txs: Transaction[] = [];
  const heightOf = new Map<string, number>();
  const outputs = new Map<string, TxOutput>();
  const resolve = (r: OutputReference) => outputs.get(ref(r)) ?? null;

  before(async () => {
    d = await startDevnet({ seed: 'dex-seed', backfillHours: 4, blockMs: 0, forkRate: 0, now: FIXED_NOW });
    const { events } = await syncFromOrigin(d.url, 100);
    for (const b of forwardBlocks(events))
      for (const tx of b.transactions ?? []) {
        txs.push(tx);
        heightOf.set(tx.id, b.height as number);
        tx.outputs.forEach((o, i) => outputs.set(`${tx.id}#${i}`, o));
      }
  });
  after(async () => {
    txs = [];
    await d?.close();
  });

  it('creates pools on Minswap V2, SundaeSwap V3, WingRiders V2 and Splash, some during the backfill', () => {
    const created = new Map<DexName, number>();
    const heights: number[] = [];
    for (const tx of txs)
      for (const o of tx.outputs) {
        const a = findPoolAdapter(o);
        if (!a || !a.isPoolCreation(tx)) continue;
        const pool = a.decodePool(o);
        assert.ok(pool, `${a.name} pool in ${tx.id} decodes`);
        assert.ok(pool.reserveA > 0n && pool.reserveB > 0n && (pool.totalLp ?? 0n) > 0n);
        created.set(a.name, (created.get(a.name) ?? 0) + 1);
        heights.push(heightOf.get(tx.id) as number);
      }
    for (const dex of ['minswap-v2', 'sundaeswap-v3', 'wingriders-v2', 'splash'] as DexName[])
      assert.ok((created.get(dex) ?? 0) >= 5, `${dex}: ${created.get(dex)} pools`);
    const last = Math.max(...heights);
    const tip = d.tip().height;
    assert.ok(
      heights.some((h) => h > tip / 3),
      `pools keep appearing (last at ${last} of ${tip})`,
    );
  });

  it('executes orders in batches that extractSwaps reads back with the pool math and the traders’ outputs', () => {
    let batches = 0;
    let multi = 0;
    const traders = new Set<string>();
    const byDex = new Map<DexName, number>();
    for (const tx of txs) {
      const poolOut = tx.outputs.map((o) => ({ o, a: findPoolAdapter(o) })).find((x) => x.a);
      if (!poolOut || poolOut.a!.isPoolCreation(tx)) continue;
      const a = poolOut.a as DexAdapter;
      const inputs = tx.inputs.map((r) => ({ r, o: resolve(r) }));
      const poolIn = inputs.find((i) => i.o && findPoolAdapter(i.o));
      assert.ok(poolIn?.o, `${tx.id} spends the pool it recreates`);
      const orders = inputs.filter((i) => i.o && findOrderAdapter(i.o));
      const swapOrders = orders.filter(
        (i) =>
          a.decodeOrder(i.o as TxOutput)?.kind !== 'deposit' && a.decodeOrder(i.o as TxOutput)?.kind !== 'withdraw',
      );
      const found = a.extractSwaps(tx, resolve);
      assert.equal(found.length, swapOrders.length, `${a.name} ${tx.id}: every order is recovered`);
      let state = a.decodePool(poolIn.o as TxOutput) as PoolState;
      const after = a.decodePool(poolOut.o) as PoolState;
      assert.equal(after.poolId, state.poolId);
      // extractSwaps lists orders in ledger input order, the order the devnet's batchers process them in.
      for (const s of found) {
        const expected = a.amountOut(state, s.tokenIn, s.amountIn);
        assert.equal(s.amountOut, expected, `${a.name} ${tx.id}: amountOut is the adapter's pool math`);
        const paid = tx.outputs[s.outputIndex as number] as TxOutput;
        assert.equal(paid.address, s.trader, 'the result pays the trader');
        if (s.tokenOut === LOVELACE) {
          const extra = paid.value.ada.lovelace - s.amountOut;
          assert.ok(extra >= 1_000_000n && extra <= 4_000_000n, `only the deposit and unused fee come back (${extra})`);
        } else assert.equal(quantityOf(paid.value, s.tokenOut), s.amountOut, 'the trader receives exactly amountOut');
        assert.equal(s.feeLovelace, feeSchedule(a.name, orders.length), `${a.name} ${tx.id}: the batcher's fee`);
        state = applySwap(state, s.tokenIn, s.amountIn, s.amountOut);
        traders.add(s.trader as string);
      }
      if (swapOrders.length === orders.length) {
        assert.equal(after.reserveA, state.reserveA, `${a.name} ${tx.id}: reserve A after the batch`);
        assert.equal(after.reserveB, state.reserveB, `${a.name} ${tx.id}: reserve B after the batch`);
      }
      batches++;
      if (found.length > 1) multi++;
      byDex.set(a.name, (byDex.get(a.name) ?? 0) + found.length);
    }
    assert.ok(batches > 200, `${batches} batches`);
    assert.ok(multi > 20, `${multi} of ${batches} batches carry several orders`);
    for (const dex of ['minswap-v2', 'sundaeswap-v3', 'wingriders-v2', 'splash'] as DexName[])
      assert.ok((byDex.get(dex) ?? 0) > 10, `${dex}: ${byDex.get(dex)} swaps`);
    assert.ok(traders.size > 80, `${traders.size} distinct traders`);
  });

  it('lets owners cancel orders, and SundaeSwap LPs deposit and withdraw', () => {
    let cancels = 0;
    let lpMinted = 0;
    let lpBurnt = 0;
    for (const tx of txs) {
      const spent = tx.inputs.map(resolve).filter((o): o is TxOutput => o !== null);
      const order = spent.find((o) => findOrderAdapter(o));
      if (order && !spent.some((o) => findPoolAdapter(o))) {
        const owner = findOrderAdapter(order)!.decodeOrder(order)!.owner;
        assert.ok(
          tx.outputs.some((o) => o.address === owner),
          'a cancel returns the order to its owner',
        );
        cancels++;
      }
      const sundaeLp = tx.mint?.['e0302560ced2fdcbfcb2602697df970cd0d6a38f94b32703f51c312b'] ?? {};
      const creation = Object.keys(sundaeLp).some((n) => n.startsWith('000de140'));
      for (const [name, q] of Object.entries(sundaeLp))
        if (!creation && name.startsWith('0014df10')) {
          if (q > 0n) lpMinted++;
          else lpBurnt++;
        }
    }
    assert.ok(cancels > 10, `${cancels} cancels`);
    assert.ok(lpMinted > 0 && lpBurnt > 0, `${lpMinted} deposits, ${lpBurnt} withdrawals`);
  });

  it('prices ADA in USD from the stablecoin pools, and trades real registry tokens and CIP-68 tokens', () => {
    const tokens = dexTokens(d.world);
    const stables = new Set(tokens.filter((t) => t.tier === 'stable').map((t) => t.unit));
    const latest = new Map<string, PoolState>();
    const units = new Set<Unit>();
    for (const tx of txs)
      for (const o of tx.outputs) {
        const p = findPoolAdapter(o)?.decodePool(o);
        if (!p) continue;
        latest.set(`${p.dex}/${p.poolId}`, p);
        units.add(p.tokenB);
      }
    const usd = [...latest.values()]
      .filter((p) => p.tokenA === LOVELACE && stables.has(p.tokenB))
      .map((p) => Number(p.reserveB) / Number(p.reserveA));
    assert.ok(usd.length >= 8, `${usd.length} ADA/stablecoin pools`);
    for (const u of usd) assert.ok(u > 0.3 && u < 1.2, `ADA/USD ${u}`);

    for (const t of tokens.filter((x) => x.source === 'registry')) {
      assert.ok(existsSync(`registry/mappings/${t.unit}.json`), `${t.ticker} is a registry subject`);
    }
    for (const ticker of ['USDM', 'DJED', 'iUSD', 'SNEK', 'MIN', 'HOSKY'])
      assert.ok(units.has(tokens.find((t) => t.ticker === ticker)!.unit), `${ticker} has a pool`);

    // Reference (100) datums of fungible tokens: policies that also carry a (333) user token. The devnet mints
    // CIP-68 NFTs (222) as well, whose reference datums hold NFT metadata.
    const outputs = txs.flatMap((tx) => tx.outputs);
    const ftPolicies = new Set(
      outputs.flatMap((o) =>
        Object.entries(o.value)
          .filter(([p, n]) => p !== 'ada' && Object.keys(n).some((k) => k.startsWith('0014df10')))
          .map(([p]) => p),
      ),
    );
    const refDatums = outputs.filter(
      (o) =>
        Object.entries(o.value).some(
          ([p, n]) => ftPolicies.has(p) && Object.keys(n).some((k) => k.startsWith('000643b0')),
        ) && o.datum,
    );
    const cip68 = refDatums
      .map((o) => decodePlutusData(o.datum as string) as { constr: number; fields: PlutusData[] })
      .filter((x) => x.constr === 0 && x.fields.length === 3 && 'map' in (x.fields[0] as object));
    assert.ok(cip68.length >= 3, `${cip68.length} CIP-68 reference datums`);
    const text = (b: PlutusData) => Buffer.from(b as Uint8Array).toString('utf8');
    const meta = Object.fromEntries(
      (cip68[0]!.fields[0] as { map: [PlutusData, PlutusData][] }).map.map(([k, v]) => [text(k), v]),
    );
    assert.deepEqual(Object.keys(meta).sort(), ['decimals', 'description', 'logo', 'name', 'ticker', 'url']);
    assert.equal(typeof meta.decimals, 'bigint');
    assert.match(text(meta.logo as PlutusData), /^data:image\/svg\+xml;base64,/);
    assert.equal(cip68[0]!.fields[1], 1n);
  });
});

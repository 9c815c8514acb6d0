/**
 * DEX activity on the devnet, in the real on-chain formats of Minswap V2, SundaeSwap V3, WingRiders V2 and Splash
 * (see dex-venues.ts for addresses, datums and batch layouts):
 *   - tokens: registry subjects, CIP-68 (333) tokens with their (100) reference datum, and meme launches;
 *   - pools: created over time by each token's issuer (identity token minted to the pool script, pool datum,
 *     LP tokens to the creator): stablecoin pools deep enough to price ADA in USD, popular tokens on every DEX,
 *     a long tail with one shallow pool, a few token/token pools;
 *   - orders: many wallets place swaps at the order scripts; a batcher executes them 1–3 blocks later (pool +
 *     1–N orders in, new pool + one result per order out) with each DEX's exact arithmetic; orders whose minimum
 *     cannot be met wait and are cancelled by their owner; some owners cancel early;
 *   - SundaeSwap V3 deposits and withdrawals (LP minted/burnt by the scoop).
 * Prices follow a hidden fair value per token (a random walk; stablecoins follow a walking ADA/USD): traders
 * buy more often when a pool is below it and sell when above, so the DEXes move together and prices drift.
 *
 * Module state (pools, pending orders, fair values) changes only in canonical steps; fork blocks carry nothing
 * from here.
 */
import { hash256 } from '../../cardano/address.js';
import { LOVELACE, constr, bytes, isConstr } from '../../cardano/dex/plutus-data.js';
import { quantityOf } from '../../cardano/dex/utxo.js';
import type { TxOutput } from '../../cardano/chain/types.js';
import { sundaeswapV3, SUNDAESWAP_V3, type SundaeV3Order, type SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import type { PoolState, Unit } from '../../cardano/dex/types.js';
import type { ActivityContext, ActivityModule } from '../generator.js';
import type { Utxo } from '../ledger.js';
import { Rng } from '../rng.js';
import { policySigner, type DevTx, type OutputDraft } from '../tx.js';
import { addAssets, coinOnly, minCoin, type Assets, type Val } from '../value.js';
import type { Wallet, World } from '../world.js';
import { ADA } from './common.js';
import { cip68Datum, cip68StoreAddress, dexTokens, referenceAssetName, type DexToken } from './dex-tokens.js';
import { ORDER_DEPOSIT, SUNDAE, VENUES, addUnit, unitAssets, type Venue } from './dex-venues.js';
import { minswapV2, type MinswapV2Order } from '../../cardano/dex/minswap-v2.js';
import { parseAddress } from '../../cardano/address.js';

export interface DexModuleOptions {
  /** Unix ms of slot 0, for the POSIX-time fields of datums (WingRiders `lastInteraction`, `deadline`). */
  systemStartMs?: number;
  /**
   * Transactions the mempool included in the current block (submitted through Ogmios): their Minswap V2 and
   * SundaeSwap V3 swap orders are adopted and executed by the batchers like the devnet's own, so a wallet-built
   * order completes.
   */
  submitted?: (height: number) => readonly DevTx[];
}

interface PoolPlan {
  venue: Venue;
  tokenA: Unit;
  tokenB: Unit;
  /** ADA value of each side at creation. */
  depthAda: number;
  feeBps: bigint;
  /** How often it trades relative to others. */
  weight: number;
}

export interface LivePool {
  venue: Venue;
  state: PoolState;
  utxo: Utxo;
  creator: Wallet;
  weight: number;
  createdHeight: number;
}

type PendingKind = 'swap' | 'deposit' | 'withdraw';

interface Pending {
  kind: PendingKind;
  pool: LivePool;
  utxo: Utxo;
  owner: Wallet;
  tokenIn: Unit;
  tokenOut: Unit;
  amountIn: bigint;
  minOut: bigint;
  /** Lovelace the batcher takes (SundaeSwap: decided per scoop). */
  fee: bigint;
  readyAt: number;
  expireAt: number;
  /** Deposit: B offered (amountIn is A). */
  amountB?: bigint;
  /** Placed by a submitted transaction: only its owner may cancel it, so the devnet never does. */
  external?: boolean;
}

const BATCHER_WALLETS: Record<string, number> = {
  'minswap-v2': 380,
  'sundaeswap-v3': 381,
  'wingriders-v2': 382,
  splash: 383,
};
const SUNDAE_METADATA_ADMIN = 384;
const MAX_BATCH: Record<string, number> = { 'minswap-v2': 8, 'sundaeswap-v3': 6, 'wingriders-v2': 5, splash: 3 };
/** Pools that get orders in a block (mean), and further orders on the same pool (mean): trades come in bursts. */
const BURSTS_PER_BLOCK = 0.5;
const BURST_EXTRA = 0.6;
/** Chance per block that a queued pool launches. */
const NEW_POOL_CHANCE = 1 / 120;

const refCmp = (a: Utxo, b: Utxo) => (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : a.index - b.index);

function valueWith(v: Val, extra: Assets): Val {
  const assets: Assets = {};
  addAssets(assets, v.assets);
  addAssets(assets, extra);
  return { coin: v.coin, assets };
}

/**
 * A plain UTxO of `address` to spend beside script inputs: batchers and cancelling owners pay the fee from their
 * own input (a draft whose inputs already balance would otherwise have nothing to pay it with).
 */
function feeInput(ctx: ActivityContext, address: string): Utxo | null {
  for (const u of ctx.view.utxosAt(address)) if (u.value.coin >= 3n * ADA) return u;
  return null;
}

/** Quantity of `unit` at `address` and the UTxOs holding it. */
function holdingOf(ctx: ActivityContext, address: string, unit: Unit): bigint {
  if (unit === LOVELACE) return ctx.view.coinAt(address);
  const policy = unit.slice(0, 56);
  const name = unit.slice(56);
  let total = 0n;
  for (const u of ctx.view.utxosAt(address)) total += u.value.assets[policy]?.[name] ?? 0n;
  return total;
}

export function dexModule(world: World, opts: DexModuleOptions = {}): ActivityModule {
  const systemStartMs = BigInt(opts.systemStartMs ?? 0);
  const timeMs = (slot: number) => systemStartMs + BigInt(slot) * 1000n;
  const tokens = dexTokens(world);
  const tokenByUnit = new Map(tokens.map((t) => [t.unit, t]));
  const wallet = (i: number) => world.wallets[i] as Wallet;
  const batcherOf = (v: Venue) => wallet(BATCHER_WALLETS[v.dex] as number);
  const venue = (dex: string) => VENUES.find((v) => v.dex === dex) as Venue;
  const storeAddress = cip68StoreAddress(world);

  // ---- plan: which pools exist, how deep, and when they launch (a stream of its own, fixed by the seed)
  const planRng = new Rng(world.seed, 'dex', 'plan');
  const early: PoolPlan[] = [];
  const later: PoolPlan[] = [];
  const plan = (list: PoolPlan[], dex: string, t: DexToken, depthAda: number, weight: number, feeBps = 30n) =>
    list.push({ venue: venue(dex), tokenA: LOVELACE, tokenB: t.unit, depthAda, feeBps, weight });
  const tk = (ticker: string) => tokens.find((t) => t.ticker === ticker) as DexToken;
  const stableDepth: Record<string, Record<string, number>> = {
    USDM: { 'minswap-v2': 3_000_000, 'sundaeswap-v3': 800_000, 'wingriders-v2': 1_500_000, splash: 400_000 },
    DJED: { 'minswap-v2': 1_200_000, 'wingriders-v2': 600_000 },
    iUSD: { 'minswap-v2': 900_000, 'sundaeswap-v3': 500_000 },
  };
  for (const [ticker, byDex] of Object.entries(stableDepth))
    for (const [dex, depth] of Object.entries(byDex)) plan(early, dex, tk(ticker), depth, 5, 30n);
  for (const t of tokens) {
    if (t.tier === 'major') {
      plan(early, 'minswap-v2', t, planRng.logUniform(800_000, 2_500_000), 8);
      for (const dex of ['sundaeswap-v3', 'wingriders-v2', 'splash'])
        plan(early, dex, t, planRng.logUniform(80_000, 600_000), 3, planRng.chance(0.3) ? 100n : 30n);
    } else if (t.tier === 'mid') {
      const dexes = t.source === 'cip68' ? ['sundaeswap-v3', 'minswap-v2'] : ['minswap-v2', 'wingriders-v2'];
      const n = planRng.chance(0.5) ? 2 : 1;
      const list = planRng.chance(0.5) ? early : later;
      for (let i = 0; i < n; i++) plan(list, dexes[i] as string, t, planRng.logUniform(40_000, 300_000), 1.5);
    } else if (t.tier === 'tail') {
      const u = planRng.next();
      const dex = u < 0.55 ? 'minswap-v2' : u < 0.75 ? 'sundaeswap-v3' : u < 0.9 ? 'splash' : 'wingriders-v2';
      const list = t.source === 'registry' && planRng.chance(0.5) ? early : later;
      plan(list, dex, t, planRng.logUniform(3_000, 50_000), 0.4, planRng.chance(0.4) ? 100n : 30n);
    }
  }
  const pair = (dex: string, a: string, b: string, depthAda: number, feeBps: bigint) => {
    const [ua, ub] = venue(dex).sortPair(tk(a).unit, tk(b).unit);
    early.push({ venue: venue(dex), tokenA: ua, tokenB: ub, depthAda, feeBps, weight: 1 });
  };
  pair('minswap-v2', 'USDM', 'iUSD', 250_000, 5n);
  pair('sundaeswap-v3', 'DJED', 'USDM', 150_000, 10n);
  pair('minswap-v2', 'MIN', 'INDY', 60_000, 30n);
  // Launch order of the later pools: shuffled once.
  for (let i = later.length - 1; i > 0; i--) {
    const j = Math.floor(planRng.next() * (i + 1));
    [later[i], later[j]] = [later[j] as PoolPlan, later[i] as PoolPlan];
  }

  // ---- market state (canonical only)
  /** Fair value, lovelace per base unit. */
  const fair = new Map<Unit, number>([[LOVELACE, 1]]);
  let adaUsd = 0.72;
  const minted = new Set<Unit>();
  const holders = new Map<Unit, string[]>();
  const pools: LivePool[] = [];
  const pending: Pending[] = [];
  const lpHolders = new Map<LivePool, Wallet[]>();
  let nextEarly = 0;
  let nextLater = 0;
  let counter = 0;
  const byAddress = world.walletByAddress;

  const fairOf = (t: DexToken) => {
    if (t.tier === 'stable') return t.price / adaUsd;
    return (t.price * 1e6) / 10 ** t.decimals;
  };
  for (const t of tokens) fair.set(t.unit, fairOf(t));
  const remember = (unit: Unit, address: string) => {
    if (unit === LOVELACE) return;
    let ring = holders.get(unit);
    if (!ring) holders.set(unit, (ring = []));
    ring.push(address);
    if (ring.length > 64) ring.splice(0, ring.length - 64);
  };

  // ---- tokens
  const mintToken = (ctx: ActivityContext, t: DexToken): DevTx[] => {
    const issuer = wallet(t.issuer);
    const assets = unitAssets(t.unit, t.supply);
    const outputs: OutputDraft[] = [];
    // Airdrops: 4–10 wallets get 0.02–0.5 % each; the issuer keeps the rest.
    const drops = ctx.rng.int(4, 10);
    let kept = t.supply;
    for (let i = 0; i < drops; i++) {
      const to = ctx.rng.pick(world.stakers);
      const q = (t.supply * BigInt(Math.floor(ctx.rng.logUniform(200, 5000)))) / 1_000_000n;
      if (q <= 0n || to === issuer) continue;
      kept -= q;
      const a = unitAssets(t.unit, q);
      outputs.push({ address: to.address, value: { coin: minCoin(a), assets: a } });
    }
    const own = unitAssets(t.unit, kept);
    outputs.unshift({ address: issuer.address, value: { coin: minCoin(own) + 20n * ADA, assets: own } });
    const mint: Assets = { ...assets };
    if (t.cip68) {
      const ref = { [t.policyId]: { [referenceAssetName(t)]: 1n } };
      addAssets(mint, ref);
      const datum = cip68Datum(t.cip68);
      outputs.push({ address: storeAddress, value: { coin: minCoin(ref, datum.length / 2), assets: ref }, datum });
    }
    const signers = [world.faucet.paymentVkey];
    if (t.policyVkey) signers.push(t.policyVkey);
    const tx = ctx.build({
      fundFrom: world.faucet.address,
      mint,
      ...(t.policyVkey ? { mintPolicies: { [t.policyId]: policySigner(t.policyVkey) } } : {}),
      outputs,
      signers,
    });
    if (!tx) return [];
    minted.add(t.unit);
    for (const o of outputs.slice(1)) if (o.address !== storeAddress) remember(t.unit, o.address);
    return [tx];
  };

  // ---- pools
  const createPool = (ctx: ActivityContext, p: PoolPlan): DevTx[] => {
    const txs: DevTx[] = [];
    for (const u of [p.tokenA, p.tokenB]) {
      const t = tokenByUnit.get(u);
      if (t && !minted.has(u)) txs.push(...mintToken(ctx, t));
      if (t && !minted.has(u)) return txs;
    }
    const tB = tokenByUnit.get(p.tokenB) as DexToken;
    const creator = wallet(tB.issuer);
    const reserveA = BigInt(Math.floor((p.depthAda * 1e6) / (fair.get(p.tokenA) as number)));
    let reserveB = BigInt(Math.floor((p.depthAda * 1e6) / (fair.get(p.tokenB) as number)));
    // Never more than 40 % of what the creator holds.
    const heldB = holdingOf(ctx, creator.address, p.tokenB);
    if (reserveB > (heldB * 2n) / 5n) reserveB = (heldB * 2n) / 5n;
    if (reserveA <= 0n || reserveB <= 0n) return txs;
    const adaNeeded = (p.tokenA === LOVELACE ? reserveA : 0n) + 30n * ADA;
    const funding = ctx.build({
      fundFrom: world.faucet.address,
      outputs: [{ address: creator.address, value: coinOnly(adaNeeded) }],
      signers: [world.faucet.paymentVkey],
    });
    if (!funding) return txs;
    txs.push(funding);
    if (p.tokenA !== LOVELACE) {
      // Token/token pools: the creator gets side A from that token's issuer.
      const tA = tokenByUnit.get(p.tokenA) as DexToken;
      const from = wallet(tA.issuer);
      const a = unitAssets(p.tokenA, reserveA);
      const moved = ctx.build({
        fundFrom: from.address,
        outputs: [{ address: creator.address, value: { coin: minCoin(a), assets: a } }],
        signers: [from.paymentVkey],
      });
      if (!moved) return txs;
      txs.push(moved);
    }
    const first = [...ctx.view.utxosAt(creator.address)][0] as Utxo;
    const label = tB.ticker.toUpperCase();
    const c = p.venue.create(
      {
        tokenA: p.tokenA,
        tokenB: p.tokenB,
        reserveA,
        reserveB,
        feeBps: p.feeBps,
        salt: `${first.txId}#${first.index}/${counter++}`,
        label,
        timeMs: timeMs(ctx.slot),
      },
      wallet(SUNDAE_METADATA_ADMIN),
    );
    const tx = ctx.build({
      fundFrom: creator.address,
      mint: c.mint,
      outputs: [
        { address: p.venue.poolAddress, value: c.value, datum: p.venue.encodePool(c.state) },
        { address: creator.address, value: { coin: minCoin(c.lp), assets: c.lp } },
        ...c.extraOutputs,
      ],
      signers: [creator.paymentVkey],
    });
    if (!tx) return txs;
    txs.push(tx);
    const live: LivePool = {
      venue: p.venue,
      state: c.state,
      utxo: tx.created[0] as Utxo,
      creator,
      weight: p.weight,
      createdHeight: ctx.height,
    };
    pools.push(live);
    lpHolders.set(live, [creator]);
    return txs;
  };

  // ---- orders
  const place = (ctx: ActivityContext, pool: LivePool): DevTx | null => {
    const s = pool.state;
    const fa = fair.get(s.tokenA) as number;
    const fb = fair.get(s.tokenB) as number;
    // Pool price of B in A vs its fair value: buy B (A in) more often when the pool is cheap.
    const dev = Math.log(fb / fa / (Number(s.reserveA) / Number(s.reserveB)));
    const pBuy = Math.min(0.92, Math.max(0.08, 1 / (1 + Math.exp(-35 * dev))));
    const aIn = ctx.rng.chance(pBuy);
    const tokenIn = aIn ? s.tokenA : s.tokenB;
    const depthAda = (Number(s.reserveA) * fa) / 1e6;
    const sizeAda = Math.min(60_000, Math.max(5, depthAda * ctx.rng.logUniform(2e-5, 4e-3)));
    let amountIn = BigInt(Math.floor((sizeAda * 1e6) / (fair.get(tokenIn) as number)));
    let owner: Wallet | null = null;
    if (tokenIn === LOVELACE) {
      for (let i = 0; i < 6 && !owner; i++) {
        const w = ctx.rng.pick(world.wallets);
        if (ctx.view.coinAt(w.address) >= amountIn + 15n * ADA && w.index < 380) owner = w;
      }
    } else {
      const ring = holders.get(tokenIn) ?? [];
      for (let i = 0; i < 3 && !owner && ring.length; i++) {
        const w = byAddress.get(ctx.rng.pick(ring));
        if (!w || ctx.view.coinAt(w.address) < 12n * ADA) continue;
        const held = holdingOf(ctx, w.address, tokenIn);
        if (held <= 0n) continue;
        if (held < amountIn) amountIn = ctx.rng.chance(0.5) ? held : held / 2n;
        owner = w;
      }
      if (!owner) {
        const t = tokenByUnit.get(tokenIn) as DexToken;
        owner = wallet(t.issuer);
        if (holdingOf(ctx, owner.address, tokenIn) < amountIn) return null;
      }
    }
    if (!owner || amountIn <= 0n) return null;
    const expected = pool.venue.swap(s, tokenIn, amountIn).out;
    if (expected <= 0n) return null;
    const slippage = ctx.rng.logUniform(0.003, 0.05);
    const minOut = BigInt(Math.floor(Number(expected) * (1 - slippage)));
    const o = pool.venue.order({
      owner,
      state: s,
      tokenIn,
      amountIn,
      minOut,
      deadlineMs: timeMs(ctx.slot) + 86_400_000n,
      nonce: hash256(new TextEncoder().encode(`${world.seed}/dex-order/${counter++}`)).slice(0, 56),
    });
    const tx = ctx.build({ fundFrom: owner.address, outputs: [o.output], signers: [owner.paymentVkey] });
    if (!tx) return null;
    pending.push({
      kind: 'swap',
      pool,
      utxo: tx.created[0] as Utxo,
      owner,
      tokenIn,
      tokenOut: tokenIn === s.tokenA ? s.tokenB : s.tokenA,
      amountIn,
      minOut,
      fee: o.fee,
      readyAt: ctx.height + ctx.rng.int(1, 3),
      expireAt: ctx.height + ctx.rng.int(40, 160),
    });
    return tx;
  };

  /** SundaeSwap V3 liquidity orders: a holder of the token adds both sides, or an LP withdraws part. */
  const placeLiquidity = (ctx: ActivityContext, withdraw: boolean): DevTx | null => {
    const candidates = pools.filter((p) => p.venue.dex === 'sundaeswap-v3' && p.state.tokenA === LOVELACE);
    if (!candidates.length) return null;
    const pool = ctx.rng.pick(candidates);
    const s = pool.state as SundaeV3Pool;
    const lpUnit = s.lpToken as string;
    let owner: Wallet;
    let details: SundaeV3Order['extra']['details'];
    let value: Val;
    let amountIn: bigint;
    let amountB: bigint | undefined;
    if (withdraw) {
      const lps = (lpHolders.get(pool) ?? []).filter((w) => w !== pool.creator);
      if (!lps.length) return null;
      owner = ctx.rng.pick(lps);
      const held = holdingOf(ctx, owner.address, lpUnit);
      if (held <= 0n || ctx.view.coinAt(owner.address) < 10n * ADA) return null;
      amountIn = ctx.rng.chance(0.4) ? held : held / BigInt(ctx.rng.int(2, 5));
      details = { type: 'withdrawal', amount: [lpUnit, amountIn] };
      value = { coin: ORDER_DEPOSIT + SUNDAE.maxProtocolFee, assets: unitAssets(lpUnit, amountIn) };
    } else {
      const ring = holders.get(s.tokenB) ?? [];
      if (!ring.length) return null;
      const w = byAddress.get(ctx.rng.pick(ring));
      if (!w) return null;
      const held = holdingOf(ctx, w.address, s.tokenB);
      amountB = held / BigInt(ctx.rng.int(2, 6));
      // ADA to match at the pool's ratio, plus a little more (the scoop returns the excess).
      const matchA = (amountB * s.reserveA) / s.reserveB;
      amountIn = matchA + (matchA * BigInt(ctx.rng.int(0, 20))) / 1000n;
      if (amountB <= 0n || matchA < 5n * ADA || ctx.view.coinAt(w.address) < amountIn + 15n * ADA) return null;
      owner = w;
      details = {
        type: 'deposit',
        assets: [
          [LOVELACE, amountIn],
          [s.tokenB, amountB],
        ],
      };
      value = { coin: ORDER_DEPOSIT + SUNDAE.maxProtocolFee + amountIn, assets: unitAssets(s.tokenB, amountB) };
    }
    const order: SundaeV3Order = {
      dex: 'sundaeswap-v3',
      kind: withdraw ? 'withdraw' : 'deposit',
      owner: owner.address,
      poolId: s.poolId,
      direction: null,
      tokenIn: null,
      tokenOut: null,
      amountIn: null,
      minAmountOut: null,
      batcherFee: SUNDAE.maxProtocolFee,
      deposit: ORDER_DEPOSIT,
      extra: {
        poolIdent: s.poolId,
        ownerScript: constr(0, bytes(owner.paymentCred)),
        destinationDatum: constr(0),
        details,
        extension: constr(0),
      },
      datum: constr(0),
    };
    const tx = ctx.build({
      fundFrom: owner.address,
      outputs: [{ address: SUNDAE.orderAddress(owner), value, datum: sundaeswapV3.encodeOrderDatum(order) }],
      signers: [owner.paymentVkey],
    });
    if (!tx) return null;
    pending.push({
      kind: withdraw ? 'withdraw' : 'deposit',
      pool,
      utxo: tx.created[0] as Utxo,
      owner,
      tokenIn: withdraw ? lpUnit : LOVELACE,
      tokenOut: withdraw ? LOVELACE : lpUnit,
      amountIn,
      ...(amountB === undefined ? {} : { amountB }),
      minOut: 0n,
      fee: SUNDAE.singleFee,
      readyAt: ctx.height + ctx.rng.int(1, 3),
      expireAt: ctx.height + 400,
    });
    return tx;
  };

  const drop = (o: Pending) => {
    const i = pending.indexOf(o);
    if (i >= 0) pending.splice(i, 1);
  };

  /** The owner spends the order back to themselves (the DEX's cancel redeemer; no pool involved). */
  const cancel = (ctx: ActivityContext, o: Pending): DevTx | null => {
    const own = feeInput(ctx, o.owner.address);
    if (!own) return null;
    const tx = ctx.build({
      inputs: [o.utxo, own],
      fundFrom: o.owner.address,
      outputs: [{ address: o.owner.address, value: o.utxo.value }],
      signers: [o.owner.paymentVkey],
    });
    if (tx) drop(o);
    return tx;
  };

  // ---- batches
  const batch = (ctx: ActivityContext, pool: LivePool, orders: Pending[]): DevTx | null => {
    const v = pool.venue;
    let state = pool.state;
    const taken: { o: Pending; out: bigint }[] = [];
    const owners = new Set<string>();
    for (const o of orders.sort((a, b) => refCmp(a.utxo, b.utxo))) {
      if (taken.length >= (MAX_BATCH[v.dex] as number) || owners.has(o.owner.address)) continue;
      const reserveOut = o.tokenOut === state.tokenA ? state.reserveA : state.reserveB;
      const r = v.swap(state, o.tokenIn, o.amountIn);
      if (r.out <= 0n || r.out < o.minOut || r.out >= reserveOut / 2n) continue;
      state = r.next;
      taken.push({ o, out: r.out });
      owners.add(o.owner.address);
    }
    if (!taken.length) return null;
    const settled = v.settle(state, taken.length, timeMs(ctx.slot));
    state = settled.state;
    let poolValue: Val = { coin: pool.utxo.value.coin + settled.poolLovelace, assets: pool.utxo.value.assets };
    const results: OutputDraft[] = taken.map(({ o, out }) => {
      const fee = settled.feeEach ?? o.fee;
      poolValue = addUnit(addUnit(poolValue, o.tokenIn, o.amountIn), o.tokenOut, -out);
      const value = addUnit(addUnit(addUnit(o.utxo.value, o.tokenIn, -o.amountIn), LOVELACE, -fee), o.tokenOut, out);
      return { address: o.owner.address, value };
    });
    const poolOut: OutputDraft = { address: v.poolAddress, value: poolValue, datum: v.encodePool(state) };
    const batcher = batcherOf(v);
    const own = feeInput(ctx, batcher.address);
    if (!own) return null;
    const tx = ctx.build({
      inputs: [pool.utxo, ...taken.map((t) => t.o.utxo), own],
      fundFrom: batcher.address,
      outputs: v.resultsFirst ? [...results, poolOut] : [poolOut, ...results],
      signers: [batcher.paymentVkey],
    });
    if (!tx) return null;
    pool.utxo = tx.created[v.resultsFirst ? results.length : 0] as Utxo;
    pool.state = state;
    for (const { o } of taken) {
      drop(o);
      if (!o.external) remember(o.tokenOut, o.owner.address);
    }
    return tx;
  };

  /** A SundaeSwap V3 scoop of one deposit or withdrawal: LP minted or burnt, reserves move pro rata. */
  const scoopLiquidity = (ctx: ActivityContext, o: Pending): DevTx | null => {
    const pool = o.pool;
    const s = pool.state as SundaeV3Pool;
    const circ = s.totalLp as bigint;
    const lpUnit = s.lpToken as string;
    const lpName = lpUnit.slice(56);
    const fee = SUNDAE.singleFee;
    let next: SundaeV3Pool;
    let result: Val;
    let mint: Assets;
    let poolValue = { coin: pool.utxo.value.coin + fee, assets: pool.utxo.value.assets };
    const refund = o.utxo.value.coin - (o.kind === 'deposit' ? o.amountIn : 0n) - fee;
    if (o.kind === 'deposit') {
      const a = o.amountIn;
      const b = o.amountB as bigint;
      // deposit.ak: take all of the scarcer side and the matching amount of the other; LP pro rata.
      let useA: bigint;
      let useB: bigint;
      let lp: bigint;
      if ((b * s.reserveA) / s.reserveB > a) {
        useA = a;
        useB = (a * s.reserveB + s.reserveA - 1n) / s.reserveA;
        lp = (a * circ) / s.reserveA;
      } else {
        useA = (b * s.reserveA) / s.reserveB;
        useB = b;
        lp = (b * circ) / s.reserveB;
      }
      if (lp <= 0n) return null;
      next = { ...s, reserveA: s.reserveA + useA, reserveB: s.reserveB + useB, totalLp: circ + lp };
      poolValue = addUnit(addUnit(poolValue, LOVELACE, useA), s.tokenB, useB);
      mint = unitAssets(lpUnit, lp);
      result = { coin: refund + (a - useA), assets: {} };
      result = valueWith(result, unitAssets(s.tokenB, b - useB));
      result = valueWith(result, mint);
    } else {
      const lp = o.amountIn;
      const outA = (lp * s.reserveA) / circ;
      const outB = (lp * s.reserveB) / circ;
      next = { ...s, reserveA: s.reserveA - outA, reserveB: s.reserveB - outB, totalLp: circ - lp };
      poolValue = addUnit(addUnit(poolValue, LOVELACE, -outA), s.tokenB, -outB);
      mint = { [SUNDAESWAP_V3.poolScriptHash]: { [lpName]: -lp } };
      result = valueWith({ coin: refund + outA, assets: {} }, unitAssets(s.tokenB, outB));
    }
    next = { ...next, extra: { ...next.extra, protocolFees: s.extra.protocolFees + fee } };
    const batcher = batcherOf(pool.venue);
    const own = feeInput(ctx, batcher.address);
    if (!own) return null;
    const tx = ctx.build({
      inputs: [pool.utxo, o.utxo, own],
      fundFrom: batcher.address,
      mint,
      outputs: [
        { address: pool.venue.poolAddress, value: poolValue, datum: pool.venue.encodePool(next) },
        { address: o.owner.address, value: result },
      ],
      signers: [batcher.paymentVkey],
    });
    if (!tx) return null;
    pool.utxo = tx.created[0] as Utxo;
    pool.state = next;
    drop(o);
    if (o.kind === 'deposit') {
      const list = lpHolders.get(pool) as Wallet[];
      if (!list.includes(o.owner)) list.push(o.owner);
    }
    return tx;
  };

  // ---- submitted orders
  /** What the batcher needs of a submitted swap order, read with the DEX's own decoder. */
  interface Adoptable {
    pool: LivePool;
    owner: string;
    tokenIn: Unit;
    tokenOut: Unit;
    amountIn: bigint;
    minOut: bigint;
    /** Lovelace the batcher takes (Minswap V2: the datum's fee; SundaeSwap V3: decided per scoop by settle()). */
    fee: bigint;
  }

  /** A Minswap V2 swap-exact-in order on a pool the devnet runs (matched by the LP asset in its datum). */
  const minswapOrder = (output: TxOutput): Adoptable | null => {
    const order = minswapV2.decodeOrder(output) as MinswapV2Order | null;
    if (!order || order.kind !== 'swap' || order.amountIn === null || !order.owner) return null;
    const pool = pools.find((p) => p.venue.dex === 'minswap-v2' && p.state.lpToken === order.extra.lpAsset);
    if (!pool || order.direction === null) return null;
    const aToB = order.direction === 'aToB';
    return {
      pool,
      owner: order.owner,
      tokenIn: aToB ? pool.state.tokenA : pool.state.tokenB,
      tokenOut: aToB ? pool.state.tokenB : pool.state.tokenA,
      amountIn: order.amountIn,
      minOut: order.minAmountOut ?? 0n,
      fee: order.batcherFee ?? 0n,
    };
  };

  /**
   * A SundaeSwap V3 swap on a pool the devnet runs (matched by the pool ident in its datum), offering one side of
   * that pool for the other, paying a plain address (no destination datum), whose `max_protocol_fee` covers what
   * a scoop charges and whose value holds the offer, that fee and a deposit (for the result's min-UTxO): what a
   * scooper would execute.
   */
  const sundaeOrder = (output: TxOutput): Adoptable | null => {
    const order = sundaeswapV3.decodeOrder(output);
    if (!order || order.extra.details.type !== 'swap' || !order.owner) return null;
    const { offer, minReceived } = order.extra.details;
    const pool = pools.find((p) => p.venue.dex === 'sundaeswap-v3' && p.state.poolId === order.extra.poolIdent);
    if (!pool) return null;
    const { tokenA, tokenB } = pool.state;
    const pairOk =
      (offer[0] === tokenA && minReceived[0] === tokenB) || (offer[0] === tokenB && minReceived[0] === tokenA);
    const dest = order.extra.destinationDatum;
    const noDatum = dest !== null && isConstr(dest) && dest.constr === 0 && dest.fields.length === 0;
    const maxFee = order.batcherFee ?? 0n;
    const covered =
      (order.deposit ?? 0n) >= ORDER_DEPOSIT &&
      (offer[0] === LOVELACE || quantityOf(output.value, offer[0]) >= offer[1]);
    if (!pairOk || !noDatum || maxFee < SUNDAE.singleFee || !covered || offer[1] <= 0n) return null;
    return {
      pool,
      owner: order.owner,
      tokenIn: offer[0],
      tokenOut: minReceived[0],
      amountIn: offer[1],
      minOut: minReceived[1],
      fee: SUNDAE.singleFee,
    };
  };

  /** Swap orders in a submitted transaction, on pools the devnet runs: queued for the batcher like its own. */
  const adopt = (ctx: ActivityContext, tx: DevTx) => {
    for (const u of tx.created) {
      if (u.datum === undefined) continue;
      const output: TxOutput = {
        address: u.address,
        value: { ada: { lovelace: u.value.coin }, ...u.value.assets },
        datum: u.datum,
      };
      const found = minswapOrder(output) ?? sundaeOrder(output);
      if (!found) continue;
      let owner: Wallet;
      try {
        const a = parseAddress(found.owner);
        owner = {
          index: -1,
          address: found.owner,
          paymentVkey: '',
          paymentCred: a.paymentCred ?? '',
          stakeVkey: null,
          stakeCred: a.stakeCred,
          rewardAddress: null,
        };
      } catch {
        continue;
      }
      pending.push({
        kind: 'swap',
        pool: found.pool,
        utxo: u,
        owner,
        tokenIn: found.tokenIn,
        tokenOut: found.tokenOut,
        amountIn: found.amountIn,
        minOut: found.minOut,
        fee: found.fee,
        readyAt: ctx.height + 1,
        expireAt: Number.MAX_SAFE_INTEGER,
        external: true,
      });
    }
  };

  // ---- per block
  const walk = (ctx: ActivityContext) => {
    // ADA/USD: a reflected random walk inside 0.40–1.10 USD.
    const u = (ctx.rng.next() - 0.5) * 3.46;
    adaUsd *= Math.exp(0.0012 * u);
    if (adaUsd < 0.4) adaUsd = 0.4 * (0.4 / adaUsd);
    if (adaUsd > 1.1) adaUsd = 1.1 * (1.1 / adaUsd);
    for (const t of tokens) {
      if (t.tier === 'stable') {
        fair.set(t.unit, t.price / adaUsd);
        continue;
      }
      const z = (ctx.rng.next() - 0.5) * 3.46;
      fair.set(t.unit, (fair.get(t.unit) as number) * Math.exp(t.volatility * z));
    }
  };

  let cumWeights: number[] = [];
  let weightsFor = -1;
  const pickPool = (ctx: ActivityContext): LivePool => {
    if (weightsFor !== pools.length) {
      let acc = 0;
      cumWeights = pools.map((p) => (acc += p.weight));
      weightsFor = pools.length;
    }
    const x = ctx.rng.next() * (cumWeights[cumWeights.length - 1] as number);
    let lo = 0;
    let hi = cumWeights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumWeights[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return pools[lo] as LivePool;
  };

  return {
    name: 'dex',
    step(ctx) {
      if (ctx.fork || ctx.height < 4) return [];
      const txs: DevTx[] = [];
      const push = (tx: DevTx | null) => tx && txs.push(tx);
      walk(ctx);

      // Launches: the early set two per block, then the queue now and then.
      if (nextEarly < early.length) {
        for (let i = 0; i < 2 && nextEarly < early.length; i++)
          txs.push(...createPool(ctx, early[nextEarly++] as PoolPlan));
      } else if (nextLater < later.length && ctx.rng.chance(NEW_POOL_CHANCE)) {
        txs.push(...createPool(ctx, later[nextLater++] as PoolPlan));
      }
      if (!pools.length) return txs;
      if (opts.submitted) for (const tx of opts.submitted(ctx.height)) adopt(ctx, tx);

      // Batchers run out of nothing: top them up from the faucet like an operator would.
      for (const v of VENUES) {
        const b = batcherOf(v);
        if (ctx.view.coinAt(b.address) < 300n * ADA)
          push(
            ctx.build({
              fundFrom: world.faucet.address,
              outputs: [{ address: b.address, value: coinOnly(5_000n * ADA) }],
              signers: [world.faucet.paymentVkey],
            }),
          );
      }

      // Executions first (orders placed in earlier blocks), then cancels, then new orders.
      const ready = new Map<LivePool, Pending[]>();
      const liquidity: Pending[] = [];
      for (const o of pending) {
        if (o.readyAt > ctx.height) continue;
        if (o.kind !== 'swap') liquidity.push(o);
        else {
          const list = ready.get(o.pool);
          if (list) list.push(o);
          else ready.set(o.pool, [o]);
        }
      }
      // Batchers collect for a while: a ready pool waits 1–3 blocks on average, so busy pools batch several orders.
      // (A pool with a submitted order is batched at once: its owner is waiting at the swap page.)
      for (const [pool, orders] of ready)
        if (ctx.rng.chance(0.4) || orders.some((o) => o.external)) push(batch(ctx, pool, orders));
      for (const o of liquidity) if (ctx.rng.chance(0.7)) push(scoopLiquidity(ctx, o));

      let cancels = 0;
      for (const o of [...pending]) {
        if (cancels >= 3) break;
        if (o.expireAt <= ctx.height && !o.external) {
          push(cancel(ctx, o));
          cancels++;
        }
      }
      if (pending.length && ctx.rng.chance(0.04)) {
        const o = ctx.rng.pick(pending);
        if (!o.external) push(cancel(ctx, o));
      }

      const bursts = ctx.rng.poisson(BURSTS_PER_BLOCK);
      for (let i = 0; i < bursts; i++) {
        const pool = pickPool(ctx);
        const k = 1 + ctx.rng.poisson(BURST_EXTRA);
        for (let j = 0; j < k; j++) push(place(ctx, pool));
      }
      if (ctx.rng.chance(0.03)) push(placeLiquidity(ctx, false));
      if (ctx.rng.chance(0.02)) push(placeLiquidity(ctx, true));
      return txs;
    },
  };
}

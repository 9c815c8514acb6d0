/**
 * The four DEXes as the devnet writes them: real script addresses (payment script hash, and the stake part the
 * DEX uses), pool identity tokens, pool and order datums through each adapter's own encoders, and each DEX's
 * exact swap arithmetic (the adapters' integer formulas), so what the devnet writes is what a parser of mainnet
 * data reads back. Pure: nothing here touches a ledger; dex.ts builds the transactions.
 *
 * Batch layouts (what a batcher transaction's outputs are, in order):
 *   Minswap V2    — one result per order (processing order), then the pool, then the batcher's change;
 *   SundaeSwap V3 — the pool, then one result per order, then the scooper's change;
 *   WingRiders V2 — the pool, then one compensation per request, then the agent's change;
 *   Splash        — the pool, then one result per spot order, then the executor's change.
 * Orders are processed in ledger input order (sorted by tx id, then index). Each result's value is
 * `order value − amount in − fee charged + amount out` (the deposit / oil comes back with it).
 */
import { hex } from '@scure/base';
import { baseAddress, enterpriseAddress, hash256 } from '../../cardano/address.js';
import {
  MINSWAP_V2,
  applyMinswapV2Swap,
  minswapV2,
  minswapV2LpAssetName,
  type MinswapV2Order,
  type MinswapV2Pool,
} from '../../cardano/dex/minswap-v2.js';
import { LOVELACE, bech32ToPlutusAddress, constr, splitUnit } from '../../cardano/dex/plutus-data.js';
import { SPLASH, applySplashSwap, splash, type SplashOrder, type SplashPool } from '../../cardano/dex/splash.js';
import { SUNDAESWAP_V3, sundaeV3SwapOrder, sundaeswapV3, type SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import type { DexAdapter, DexName, PoolState, Unit } from '../../cardano/dex/types.js';
import {
  WINGRIDERS_V2,
  applyWingRidersV2Swap,
  wingridersV2,
  type WingRidersV2Order,
  type WingRidersV2Pool,
} from '../../cardano/dex/wingriders-v2.js';
import type { OutputDraft } from '../tx.js';
import { addAssets, type Assets, type Val } from '../value.js';
import type { Wallet } from '../world.js';

const ADA = 1_000_000n;
const enc = new TextEncoder();

/** Lovelace every order locks besides its input and fee, returned with the result (deposit / oil). */
export const ORDER_DEPOSIT = 2n * ADA;

export interface CreateParams {
  tokenA: Unit;
  tokenB: Unit;
  reserveA: bigint;
  reserveB: bigint;
  /** Trading fee, basis points of the input. */
  feeBps: bigint;
  /** Bytes that make the pool's identifiers unique (the creation's first input, a counter). */
  salt: string;
  /** Label for names that carry one (Splash `TICKER_ADA_NFT`). */
  label: string;
  /** POSIX ms of the creation (WingRiders `lastInteraction`). */
  timeMs: bigint;
}

export interface Creation {
  state: PoolState;
  value: Val;
  mint: Assets;
  /** LP tokens the creator receives. */
  lp: Assets;
  /** Further outputs (SundaeSwap's CIP-68 metadata token to its admin). */
  extraOutputs: OutputDraft[];
}

export interface OrderParams {
  owner: Wallet;
  state: PoolState;
  tokenIn: Unit;
  amountIn: bigint;
  minOut: bigint;
  /** POSIX ms after which the order may be reclaimed (WingRiders `deadline`). */
  deadlineMs: bigint;
  /** 28 bytes, hex: unique per order (Splash beacon). */
  nonce: string;
}

export interface Venue {
  readonly dex: DexName;
  readonly adapter: DexAdapter;
  readonly poolAddress: string;
  /** Whether token/token pools are made on this DEX. */
  readonly tokenPairs: boolean;
  /** Results precede the pool output (Minswap V2); otherwise the pool output comes first. */
  readonly resultsFirst: boolean;
  sortPair(a: Unit, b: Unit): [Unit, Unit];
  create(p: CreateParams, admin: Wallet): Creation;
  /** The order output, and the lovelace the batcher will charge it when it executes. */
  order(p: OrderParams): { output: OutputDraft; fee: bigint };
  /** One swap with the DEX's exact integer arithmetic: the pool after it, and what the trader gets. */
  swap(state: PoolState, tokenIn: Unit, amountIn: bigint): { next: PoolState; out: bigint };
  /** Per-batch bookkeeping after the swaps: fee each order pays, lovelace that stays in the pool, new state. */
  settle(
    state: PoolState,
    orders: number,
    timeMs: bigint,
  ): { state: PoolState; feeEach: bigint | null; poolLovelace: bigint };
  encodePool(state: PoolState): string;
}

const byUnit = (a: Unit, b: Unit): [Unit, Unit] => {
  const key = (u: Unit) => (u === LOVELACE ? '' : u);
  return key(a) <= key(b) ? [a, b] : [b, a];
};

export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

export function unitAssets(unit: Unit, q: bigint): Assets {
  if (unit === LOVELACE || q === 0n) return {};
  const { policyId, assetName } = splitUnit(unit);
  return { [policyId]: { [assetName]: q } };
}

/** value + q of unit (q may be negative). */
export function addUnit(v: Val, unit: Unit, q: bigint): Val {
  if (unit === LOVELACE) return { coin: v.coin + q, assets: v.assets };
  const assets: Assets = {};
  addAssets(assets, v.assets);
  addAssets(assets, unitAssets(unit, q));
  return { coin: v.coin, assets };
}

function valueOf(coin: bigint, ...parts: Assets[]): Val {
  const assets: Assets = {};
  for (const p of parts) addAssets(assets, p);
  return { coin, assets };
}

/** Orders pay to the DEX's order script with the trader's stake key as the stake part, as wallets build them. */
const orderAddresses = new Map<string, string>();
function orderAddress(script: string, owner: Wallet): string {
  const key = script + owner.paymentCred;
  let a = orderAddresses.get(key);
  if (a === undefined) {
    a = owner.stakeCred
      ? baseAddress('mainnet', script, owner.stakeCred, true, false)
      : enterpriseAddress('mainnet', script, true);
    orderAddresses.set(key, a);
  }
  return a;
}

const lovelaceIn = (unit: Unit, q: bigint) => (unit === LOVELACE ? q : 0n);

// ---------------------------------------------------------------------------------------------------------------
// Minswap V2

/** Lovelace the pool keeps besides its reserves (SDK `DEFAULT_POOL_ADA`). */
const MINSWAP_POOL_ADA = 4_500_000n;
/** LP never issued at creation (locked forever, as the first depositor's minimum liquidity). */
const MINSWAP_MIN_LIQUIDITY = 10n;

const minswap: Venue = {
  dex: 'minswap-v2',
  adapter: minswapV2,
  // The pool creation address of the mainnet deployment (script payment, stake key of Minswap).
  poolAddress:
    'addr1z84q0denmyep98ph3tmzwsmw0j7zau9ljmsqx6a4rvaau66j2c79gy9l76sdg0xwhd7r0c0kna0tycz4y5s6mlenh8pq777e2a',
  tokenPairs: true,
  resultsFirst: true,
  sortPair: byUnit,
  create(p) {
    const lpName = minswapV2LpAssetName(p.tokenA, p.tokenB);
    const totalLp = isqrt(p.reserveA * p.reserveB);
    const state: MinswapV2Pool = {
      dex: 'minswap-v2',
      poolId: lpName,
      curve: 'constant-product',
      tokenA: p.tokenA,
      tokenB: p.tokenB,
      reserveA: p.reserveA,
      reserveB: p.reserveB,
      lpToken: MINSWAP_V2.authenPolicy + lpName,
      totalLp,
      fee: { aToB: p.feeBps, bToA: p.feeBps, denominator: MINSWAP_V2.feeDenominator },
      extra: {
        batchingStakeCredential: { hash: MINSWAP_V2.poolBatchingScriptHash, script: true },
        baseFeeANumerator: p.feeBps,
        baseFeeBNumerator: p.feeBps,
        feeSharingNumerator: 1666n,
        allowDynamicFee: false,
      },
      datum: null,
    };
    const auth = MINSWAP_V2.authenPolicy;
    return {
      state,
      value: valueOf(
        MINSWAP_POOL_ADA + lovelaceIn(p.tokenA, p.reserveA),
        unitAssets(p.tokenA, p.reserveA),
        unitAssets(p.tokenB, p.reserveB),
        { [auth]: { [MINSWAP_V2.poolNftName]: 1n, [lpName]: MINSWAP_V2.maxLp - totalLp } },
      ),
      mint: { [auth]: { [MINSWAP_V2.poolNftName]: 1n, [lpName]: MINSWAP_V2.maxLp - MINSWAP_MIN_LIQUIDITY } },
      lp: { [auth]: { [lpName]: totalLp - MINSWAP_MIN_LIQUIDITY } },
      extraOutputs: [],
    };
  },
  order(p) {
    const s = p.state as MinswapV2Pool;
    const aToB = p.tokenIn === s.tokenA;
    const order: MinswapV2Order = {
      dex: 'minswap-v2',
      kind: 'swap',
      owner: p.owner.address,
      poolId: s.poolId,
      direction: aToB ? 'aToB' : 'bToA',
      tokenIn: p.tokenIn,
      tokenOut: null,
      amountIn: p.amountIn,
      minAmountOut: p.minOut,
      batcherFee: MINSWAP_V2.batcherFee,
      deposit: ORDER_DEPOSIT,
      extra: {
        canceller: { method: 0, hash: p.owner.paymentCred },
        refundReceiver: p.owner.address,
        refundReceiverDatum: { type: 'none' },
        successReceiverDatum: { type: 'none' },
        lpAsset: s.lpToken as string,
        step: {
          type: 'swap-exact-in',
          aToB,
          amount: { specific: p.amountIn },
          minimumReceive: p.minOut,
          killable: true,
        },
        expiry: null,
      },
      datum: constr(0),
    };
    return {
      output: {
        address: orderAddress(MINSWAP_V2.orderScriptHash, p.owner),
        value: valueOf(
          ORDER_DEPOSIT + MINSWAP_V2.batcherFee + lovelaceIn(p.tokenIn, p.amountIn),
          unitAssets(p.tokenIn, p.amountIn),
        ),
        datum: minswapV2.encodeOrderDatum(order),
      },
      fee: MINSWAP_V2.batcherFee,
    };
  },
  swap(state, tokenIn, amountIn) {
    const r = applyMinswapV2Swap(state as MinswapV2Pool, tokenIn === state.tokenA, amountIn);
    return { next: r.pool, out: r.amountOut };
  },
  settle: (state) => ({ state, feeEach: null, poolLovelace: 0n }),
  encodePool: (s) => minswapV2.encodePoolDatum(s as MinswapV2Pool),
};

// ---------------------------------------------------------------------------------------------------------------
// SundaeSwap V3

/** Scooper fee per scoop (shared by its orders) and per order, lovelace (settings datum values). */
const SUNDAE_BASE_FEE = 332_000n;
const SUNDAE_SIMPLE_FEE = 168_000n;
/** Lovelace a new pool sets aside as `protocol_fees` (its min-UTxO). */
const SUNDAE_INITIAL_PROTOCOL_FEES = 2_000_000n;

const sundae: Venue = {
  dex: 'sundaeswap-v3',
  adapter: sundaeswapV3,
  // Typical mainnet pool address: pool script payment, SundaeSwap's stake script.
  poolAddress:
    'addr1x8srqftqemf0mjlukfszd97ljuxdp44r372txfcr75wrz26rnxqnmtv3hdu2t6chcfhl2zzjh36a87nmd6dwsu3jenqsslnz7e',
  tokenPairs: true,
  resultsFirst: false,
  sortPair: byUnit,
  create(p, admin) {
    // blake2b-256 of the creation's first input reference, first 4 bytes dropped (pool.ak).
    const ident = hash256(enc.encode(p.salt)).slice(8);
    const circ = isqrt(p.reserveA * p.reserveB);
    const policy = SUNDAESWAP_V3.poolScriptHash;
    const state: SundaeV3Pool = {
      dex: 'sundaeswap-v3',
      poolId: ident,
      curve: 'constant-product',
      tokenA: p.tokenA,
      tokenB: p.tokenB,
      reserveA: p.reserveA,
      reserveB: p.reserveB,
      lpToken: policy + SUNDAESWAP_V3.lpPrefix + ident,
      totalLp: circ,
      fee: { aToB: p.feeBps, bToA: p.feeBps, denominator: SUNDAESWAP_V3.feeDenominator },
      extra: { feeManager: null, marketOpen: 0n, protocolFees: SUNDAE_INITIAL_PROTOCOL_FEES },
      datum: null,
    };
    const ref = { [policy]: { [SUNDAESWAP_V3.referencePrefix + ident]: 1n } };
    return {
      state,
      value: valueOf(
        SUNDAE_INITIAL_PROTOCOL_FEES + lovelaceIn(p.tokenA, p.reserveA),
        unitAssets(p.tokenA, p.reserveA),
        unitAssets(p.tokenB, p.reserveB),
        { [policy]: { [SUNDAESWAP_V3.poolNftPrefix + ident]: 1n } },
      ),
      mint: {
        [policy]: {
          [SUNDAESWAP_V3.poolNftPrefix + ident]: 1n,
          [SUNDAESWAP_V3.lpPrefix + ident]: circ,
          [SUNDAESWAP_V3.referencePrefix + ident]: 1n,
        },
      },
      lp: { [policy]: { [SUNDAESWAP_V3.lpPrefix + ident]: circ } },
      extraOutputs: [{ address: admin.address, value: { coin: 2n * ADA, assets: ref } }],
    };
  },
  order(p) {
    const s = p.state as SundaeV3Pool;
    const tokenOut = p.tokenIn === s.tokenA ? s.tokenB : s.tokenA;
    const order = sundaeV3SwapOrder({
      owner: p.owner.address,
      ownerKeyHash: p.owner.paymentCred,
      poolIdent: s.poolId,
      offer: [p.tokenIn, p.amountIn],
      minReceived: [tokenOut, p.minOut],
      maxProtocolFee: SUNDAESWAP_V3.maxProtocolFee,
      deposit: ORDER_DEPOSIT,
    });
    return {
      output: {
        address: orderAddress(SUNDAESWAP_V3.orderScriptHash, p.owner),
        value: valueOf(
          ORDER_DEPOSIT + SUNDAESWAP_V3.maxProtocolFee + lovelaceIn(p.tokenIn, p.amountIn),
          unitAssets(p.tokenIn, p.amountIn),
        ),
        datum: sundaeswapV3.encodeOrderDatum(order),
      },
      // Known only once the scoop's size is: settle() gives it.
      fee: SUNDAE_BASE_FEE + SUNDAE_SIMPLE_FEE,
    };
  },
  swap(state, tokenIn, amountIn) {
    const out = sundaeswapV3.amountOut(state as SundaeV3Pool, tokenIn, amountIn) ?? 0n;
    const aToB = tokenIn === state.tokenA;
    const next = aToB
      ? { ...state, reserveA: state.reserveA + amountIn, reserveB: state.reserveB - out }
      : { ...state, reserveA: state.reserveA - out, reserveB: state.reserveB + amountIn };
    return { next, out };
  },
  settle(state, orders) {
    // Every order of a scoop pays the amortised base fee plus the simple fee; all of it stays in the pool.
    const feeEach = SUNDAE_BASE_FEE / BigInt(orders) + SUNDAE_SIMPLE_FEE;
    const poolLovelace = feeEach * BigInt(orders);
    const s = state as SundaeV3Pool;
    return {
      state: { ...s, extra: { ...s.extra, protocolFees: s.extra.protocolFees + poolLovelace } },
      feeEach,
      poolLovelace,
    };
  },
  encodePool: (s) => sundaeswapV3.encodePoolDatum(s as SundaeV3Pool),
};

/** SundaeSwap V3 deposit/withdrawal orders (the only DEX here whose liquidity orders the devnet writes). */
export const SUNDAE = {
  maxProtocolFee: SUNDAESWAP_V3.maxProtocolFee,
  orderScriptHash: SUNDAESWAP_V3.orderScriptHash,
  orderAddress: (owner: Wallet) => orderAddress(SUNDAESWAP_V3.orderScriptHash, owner),
  /** Fee of a scoop with one order. */
  singleFee: SUNDAE_BASE_FEE + SUNDAE_SIMPLE_FEE,
};

// ---------------------------------------------------------------------------------------------------------------
// WingRiders V2

/** Lovelace returned with every compensation (request oil) and taken by the agent per request. */
const WR_OIL = 2_000_000n;
const WR_AGENT_FEE = 2_000_000n;

/** Share token name as Pool/Util.hs derives it (pool type, scales and both assets, each hashed, then hashed). */
function wrShareName(a: Unit, b: Unit): string {
  const h = (s: Uint8Array) => hex.decode(hash256(s));
  const sa = splitUnit(a);
  const sb = splitUnit(b);
  const parts = [
    h(enc.encode('CPMM')),
    h(enc.encode('1')),
    h(enc.encode('1')),
    h(hex.decode(sa.policyId + sa.assetName)),
    h(hex.decode(sb.policyId + sb.assetName)),
  ];
  const all = new Uint8Array(parts.length * 32);
  parts.forEach((p, i) => all.set(p, i * 32));
  return hash256(all);
}

const wingriders: Venue = {
  dex: 'wingriders-v2',
  adapter: wingridersV2,
  // A mainnet CPMM pool address (script payment, WingRiders' stake key).
  poolAddress:
    'addr1zxhew7fmsup08qvhdnkg8ccra88pw7q5trrncja3dlszhqlm3e807762pklheldndtjhrk0qxzzfh9vhc9kkc706xglsv8s5nq',
  tokenPairs: false,
  resultsFirst: false,
  sortPair: byUnit,
  create(p) {
    const share = wrShareName(p.tokenA, p.tokenB);
    const circ = isqrt(p.reserveA * p.reserveB);
    // Swap fee to the LPs and a protocol share to the treasury, per 10,000 (the deployed default is 30 + 5).
    const protocol = 5n;
    const swapFee = p.feeBps > protocol ? p.feeBps - protocol : p.feeBps;
    const state: WingRidersV2Pool = {
      dex: 'wingriders-v2',
      poolId: share,
      curve: 'constant-product',
      tokenA: p.tokenA,
      tokenB: p.tokenB,
      reserveA: p.reserveA,
      reserveB: p.reserveB,
      lpToken: WINGRIDERS_V2.dexPolicy + share,
      totalLp: circ,
      fee: { aToB: swapFee + protocol, bToA: swapFee + protocol, denominator: 10000n },
      extra: {
        requestValidatorHash: WINGRIDERS_V2.cpmmRequestScriptHash,
        swapFeeInBasis: swapFee,
        protocolFeeInBasis: protocol,
        projectFeeInBasis: 0n,
        reserveFeeInBasis: 0n,
        feeBasis: 10000n,
        agentFeeAda: WR_AGENT_FEE,
        lastInteraction: p.timeMs,
        treasuryA: 0n,
        treasuryB: 0n,
        projectTreasuryA: 0n,
        projectTreasuryB: 0n,
        reserveTreasuryA: 0n,
        reserveTreasuryB: 0n,
        projectBeneficiary: null,
        reserveBeneficiary: null,
        stable: null,
      },
      datum: null,
    };
    const pol = WINGRIDERS_V2.dexPolicy;
    return {
      state,
      value: valueOf(
        WINGRIDERS_V2.poolOil + lovelaceIn(p.tokenA, p.reserveA),
        unitAssets(p.tokenA, p.reserveA),
        unitAssets(p.tokenB, p.reserveB),
        { [pol]: { [WINGRIDERS_V2.validityTokenName]: 1n, [share]: WINGRIDERS_V2.maxShares - circ } },
      ),
      mint: { [pol]: { [WINGRIDERS_V2.validityTokenName]: 1n, [share]: WINGRIDERS_V2.maxShares } },
      lp: { [pol]: { [share]: circ } },
      extraOutputs: [],
    };
  },
  order(p) {
    const s = p.state as WingRidersV2Pool;
    const aToB = p.tokenIn === s.tokenA;
    const order: WingRidersV2Order = {
      dex: 'wingriders-v2',
      kind: 'swap',
      owner: p.owner.address,
      poolId: null,
      direction: aToB ? 'aToB' : 'bToA',
      tokenIn: p.tokenIn,
      tokenOut: aToB ? s.tokenB : s.tokenA,
      amountIn: p.amountIn,
      minAmountOut: p.minOut,
      batcherFee: WR_AGENT_FEE,
      deposit: WR_OIL,
      extra: {
        oil: WR_OIL,
        ownerAddress: p.owner.address,
        compensationDatum: constr(0),
        compensationDatumType: 0,
        deadline: p.deadlineMs,
        assetA: s.tokenA,
        assetB: s.tokenB,
        action: { type: 'swap', aToB, minWanted: p.minOut },
        aScale: 1n,
        bScale: 1n,
        stable: false,
      },
      datum: constr(0),
    };
    return {
      output: {
        address: orderAddress(WINGRIDERS_V2.cpmmRequestScriptHash, p.owner),
        value: valueOf(WR_OIL + WR_AGENT_FEE + lovelaceIn(p.tokenIn, p.amountIn), unitAssets(p.tokenIn, p.amountIn)),
        datum: wingridersV2.encodeOrderDatum(order),
      },
      fee: WR_AGENT_FEE,
    };
  },
  swap(state, tokenIn, amountIn) {
    // The adapter's own pool update: protocol/project/reserve fees leave the input reserve for the treasuries.
    const pool = state as WingRidersV2Pool;
    const { pool: next, out } = applyWingRidersV2Swap(pool, tokenIn === pool.tokenA, amountIn);
    return { next, out };
  },
  settle(state, _orders, timeMs) {
    const s = state as WingRidersV2Pool;
    return { state: { ...s, extra: { ...s.extra, lastInteraction: timeMs } }, feeEach: null, poolLovelace: 0n };
  },
  encodePool: (s) => wingridersV2.encodePoolDatum(s as WingRidersV2Pool),
};

// ---------------------------------------------------------------------------------------------------------------
// Splash

/** FeeSwitchV2 CFMM pools, at the pool-family stake script iris filters on. */
const SPLASH_POOL_SCRIPT = '9dee0659686c3ab807895c929e3284c11222affd710b09be690f924d';
const SPLASH_POOL_STAKE = 'b2f6abf60ccde92eae1a2f4fdf65f2eaf6208d872c6f0e597cc10b07';
const SPLASH_EXECUTOR_FEE = 500_000n;
const SPLASH_COST_PER_STEP = 1_000_000n;
/** Treasury share of the input, out of 100,000. */
const SPLASH_TREASURY_FEE = 100n;

const splashVenue: Venue = {
  dex: 'splash',
  adapter: splash,
  poolAddress: baseAddress('mainnet', SPLASH_POOL_SCRIPT, SPLASH_POOL_STAKE, true, true),
  tokenPairs: false,
  resultsFirst: false,
  sortPair: byUnit,
  create(p) {
    // Every Splash pool has its own NFT and LQ policies (one-shot, parameterised by a UTxO).
    const nftPolicy = hash256(enc.encode(`${p.salt}/nft`)).slice(0, 56);
    const lqPolicy = hash256(enc.encode(`${p.salt}/lq`)).slice(0, 56);
    const nftName = hex.encode(enc.encode(`${p.label}_ADA_NFT`));
    const lqName = hex.encode(enc.encode(`${p.label}_ADA_LQ`));
    const circ = isqrt(p.reserveA * p.reserveB);
    const den = 100000n;
    // lp_fee_num is the retained share plus the treasury's: total fee = den − (lp_fee − treasury_fee).
    const lpFeeNum = den - p.feeBps * 10n + SPLASH_TREASURY_FEE;
    const retainedFee = den - (lpFeeNum - SPLASH_TREASURY_FEE);
    const state: SplashPool = {
      dex: 'splash',
      poolId: nftPolicy + nftName,
      curve: 'constant-product',
      tokenA: p.tokenA,
      tokenB: p.tokenB,
      reserveA: p.reserveA,
      reserveB: p.reserveB,
      lpToken: lqPolicy + lqName,
      totalLp: circ,
      fee: { aToB: retainedFee, bToA: retainedFee, denominator: den },
      extra: {
        kind: 'cfmm-fee-switch',
        poolNft: nftPolicy + nftName,
        lpFeeNumX: lpFeeNum,
        lpFeeNumY: lpFeeNum,
        treasuryFeeNum: SPLASH_TREASURY_FEE,
        royaltyFeeNum: 0n,
        feeDenominator: den,
        treasuryX: 0n,
        treasuryY: 0n,
        royaltyX: 0n,
        royaltyY: 0n,
        weightX: null,
        weightY: null,
        an2n: null,
        multiplierX: null,
        multiplierY: null,
      },
      datum: null,
    };
    return {
      state,
      value: valueOf(
        lovelaceIn(p.tokenA, p.reserveA),
        unitAssets(p.tokenA, p.reserveA),
        unitAssets(p.tokenB, p.reserveB),
        { [nftPolicy]: { [nftName]: 1n } },
        { [lqPolicy]: { [lqName]: SPLASH.maxLq - circ } },
      ),
      mint: { [nftPolicy]: { [nftName]: 1n }, [lqPolicy]: { [lqName]: SPLASH.maxLq } },
      lp: { [lqPolicy]: { [lqName]: circ } },
      extraOutputs: [],
    };
  },
  order(p) {
    const s = p.state as SplashPool;
    const tokenOut = p.tokenIn === s.tokenA ? s.tokenB : s.tokenA;
    const order: SplashOrder = {
      dex: 'splash',
      kind: 'limit',
      owner: p.owner.address,
      poolId: null,
      direction: null,
      tokenIn: p.tokenIn,
      tokenOut,
      amountIn: p.amountIn,
      minAmountOut: p.minOut,
      batcherFee: SPLASH_EXECUTOR_FEE + SPLASH_COST_PER_STEP,
      deposit: ORDER_DEPOSIT,
      extra: {
        type: 'spot',
        tag: '00',
        beacon: p.nonce,
        costPerExStep: SPLASH_COST_PER_STEP,
        basePrice: { num: p.minOut > 0n ? p.minOut : 1n, den: p.amountIn },
        fee: SPLASH_EXECUTOR_FEE,
        cancellationPkh: p.owner.paymentCred,
        permittedExecutors: [],
        redeemerAddressData: bech32ToPlutusAddress(p.owner.address),
      },
      datum: constr(0),
    };
    return {
      output: {
        address: orderAddress(SPLASH.limitOrderScriptHashes[0], p.owner),
        value: valueOf(
          ORDER_DEPOSIT + SPLASH_EXECUTOR_FEE + SPLASH_COST_PER_STEP + lovelaceIn(p.tokenIn, p.amountIn),
          unitAssets(p.tokenIn, p.amountIn),
        ),
        datum: splash.encodeOrderDatum(order),
      },
      fee: SPLASH_EXECUTOR_FEE + SPLASH_COST_PER_STEP,
    };
  },
  swap(state, tokenIn, amountIn) {
    const r = applySplashSwap(state as SplashPool, tokenIn === state.tokenA, amountIn);
    return { next: r.pool, out: r.out };
  },
  settle: (state) => ({ state, feeEach: null, poolLovelace: 0n }),
  encodePool: (s) => splash.encodePoolDatum(s as SplashPool),
};

export const VENUES: readonly Venue[] = [minswap, sundae, wingriders, splashVenue];
export const venueOf = (dex: DexName): Venue => VENUES.find((v) => v.dex === dex) as Venue;

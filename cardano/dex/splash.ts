/**
 * Splash (ex-Spectrum on Cardano; splashprotocol/splash-offchain-multiplatform @ 465bd9b:
 * spectrum-offchain-cardano/src/data/{cfmm_pool,fee_switch_pool,royalty_pool,balance_pool,stable_pool_t2t}.rs,
 * bloom-offchain-cardano/src/orders/{limit,grid}.rs, bloom-cardano-agent/resources/mainnet.deployment.json).
 *
 * Pools: one script per pool family; every pool has its own NFT and LQ token (named in the datum), so identity is
 * "at a Splash pool script and holding the datum's pool NFT". Reserves = value − treasury (− royalty) per side;
 * LP supply = i64::MAX − LQ held by the pool. The datum's `lp_fee_num` is the *retained* share of the input:
 * effective input = dx·(lp_fee − treasury_fee − royalty_fee)/100000 (legacy pools: dx·fee/1000), checked exactly
 * against a real execution (block 11322286 tx 41).
 *
 * Orders: spot ("limit") orders and grid orders are filled by executors, possibly partially and across pools;
 * pools also accept direct swaps. The trader is the order's `redeemer_address`.
 */
import { chargedOrderFee } from './order-fee.js';
import type { Transaction, TxOutput } from '../chain/types.js';
import { cpAmountIn, cpAmountOut } from './cpmm.js';
import type { PlutusData } from './plutus-data.js';
import {
  LOVELACE,
  PlutusShapeError,
  asAssetClass,
  asBool,
  asConstr,
  asHex,
  asInt,
  asList,
  asRational,
  assetClassData,
  bech32ToPlutusAddress,
  boolData,
  bytes,
  constr,
  encodePlutusData,
  fieldsOf,
  isConstr,
  list,
  networkOf,
  plutusAddressToBech32,
  rationalData,
  splitUnit,
} from './plutus-data.js';
import type { Rational } from './plutus-data.js';
import type { DatumResolver, DexAdapter, ExecutedSwap, InputResolver, Order, PoolState, Unit } from './types.js';
import { attempt, datumOf, paymentCredential, quantityOf, refString, resolveInputs, sideOf } from './utxo.js';

export type SplashPoolKind = 'cfmm-legacy' | 'cfmm-fee-switch' | 'cfmm-bidir-fee' | 'royalty' | 'weighted' | 'stable';

/** Pool validators of the mainnet deployment, by family. */
export const SPLASH_POOL_SCRIPTS: Readonly<Record<string, SplashPoolKind>> = {
  e628bfd68c07a7a38fcd7d8df650812a9dfdbee54b1ed4c25c87ffbf: 'cfmm-legacy', // CFMM V1
  '6b9c456aa650cb808a9ab54326e039d5235ed69f069c9664a8fe5b69': 'cfmm-legacy', // CFMM V2
  f002facfd69d51b63e7046c6d40349b0b17c8dd775ee415c66af3ccc: 'cfmm-fee-switch',
  '9dee0659686c3ab807895c929e3284c11222affd710b09be690f924d': 'cfmm-fee-switch', // FeeSwitchV2
  '680f52841c06f32cecdcdeff2c20ce6b70c2a5249b94d1a2b4eff294': 'cfmm-bidir-fee',
  cb684a69e78907a9796b21fc150a758af5f2805e5ed5d5a8ce9f76f1: 'royalty',
  f60fd1e70f4b9dfc09cdde8d7f7f1277de2694c82a516d7d3cc9e03e: 'weighted',
  c5283689ea30e0920c50adf77345b5809c05c962cc111e0f1d2dbedb: 'weighted',
  '5d3df99fcfbbf282bd76a3d76a2e30bdd22e61c56f1462447938933b': 'stable',
};

export const SPLASH = {
  /** Spot/limit order script; iris also treats the second (seen in DexHunter-routed orders) as a Splash order. */
  limitOrderScriptHashes: [
    '464eeee89f05aff787d40045af2a40a83fd96c513197d32fbc54ff02',
    '2025463437ee5d64e89814a66ce7f98cb184a66ae85a2fbbfd750106',
  ],
  gridOrderScriptHash: '6eff899ca605c05c115f0d7b0d0397e2dd886cd366d77bcb4ac65922',
  maxLq: 9223372036854775807n,
} as const;

export interface SplashPoolExtra {
  kind: SplashPoolKind;
  poolNft: Unit;
  /** Retained share of the input for x→y and y→x swaps (`lp_fee_num`, out of `feeDenominator`). */
  lpFeeNumX: bigint;
  lpFeeNumY: bigint;
  treasuryFeeNum: bigint;
  royaltyFeeNum: bigint;
  /** 1000 for legacy CFMM pools, 100000 otherwise. */
  feeDenominator: bigint;
  treasuryX: bigint;
  treasuryY: bigint;
  royaltyX: bigint;
  royaltyY: bigint;
  /** Weighted pools: the weights of x and y (20/80 pools are 1 and 4). */
  weightX: bigint | null;
  weightY: bigint | null;
  /** Stable pools: amplification term `A·n^n` and the decimal multipliers. */
  an2n: bigint | null;
  multiplierX: bigint | null;
  multiplierY: bigint | null;
}

export type SplashOrderExtra =
  | {
      type: 'spot';
      tag: string;
      beacon: string;
      costPerExStep: bigint;
      basePrice: Rational;
      fee: bigint;
      cancellationPkh: string;
      permittedExecutors: string[];
      /** The datum's address as written (some orders carry a non-standard staking part). */
      redeemerAddressData: PlutusData;
    }
  | {
      type: 'grid';
      beacon: string;
      token: Unit;
      buyShiftFactor: Rational;
      sellShiftFactor: Rational;
      maxLovelaceOffer: bigint;
      lovelaceOffer: bigint;
      price: Rational;
      /** true = bid (ADA → token). */
      bid: boolean;
      budgetPerTransaction: bigint;
      minMarginalOutputLovelace: bigint;
      minMarginalOutputToken: bigint;
      cancellationPkh: string;
      redeemerAddressData: PlutusData;
    };

export type SplashPool = PoolState<SplashPoolExtra>;
export type SplashOrder = Order<SplashOrderExtra>;

// ---------------------------------------------------------------------------------------------------------------
// Pool datums (pure; exported for datum-only vectors)

interface DatumFields {
  poolNft: Unit;
  x: Unit;
  y: Unit;
  lq: Unit;
  extra: Omit<SplashPoolExtra, 'kind' | 'poolNft'>;
}

const base = (): Omit<SplashPoolExtra, 'kind' | 'poolNft'> => ({
  lpFeeNumX: 0n,
  lpFeeNumY: 0n,
  treasuryFeeNum: 0n,
  royaltyFeeNum: 0n,
  feeDenominator: 100000n,
  treasuryX: 0n,
  treasuryY: 0n,
  royaltyX: 0n,
  royaltyY: 0n,
  weightX: null,
  weightY: null,
  an2n: null,
  multiplierX: null,
  multiplierY: null,
});

export function decodeSplashPoolDatum(d: PlutusData, kind: SplashPoolKind): DatumFields {
  const f = asConstr(d, 0).fields;
  const ac = (i: number) => asAssetClass(f[i]);
  const n = (i: number) => asInt(f[i]);
  const need = (count: number) => {
    if (f.length !== count) throw new PlutusShapeError(`${kind} pool datum has ${f.length} fields, expected ${count}`);
  };
  switch (kind) {
    case 'cfmm-legacy':
      need(7);
      return {
        poolNft: ac(0),
        x: ac(1),
        y: ac(2),
        lq: ac(3),
        extra: { ...base(), lpFeeNumX: n(4), lpFeeNumY: n(4), feeDenominator: 1000n },
      };
    case 'cfmm-fee-switch':
      need(11);
      return {
        poolNft: ac(0),
        x: ac(1),
        y: ac(2),
        lq: ac(3),
        extra: { ...base(), lpFeeNumX: n(4), lpFeeNumY: n(4), treasuryFeeNum: n(5), treasuryX: n(6), treasuryY: n(7) },
      };
    case 'cfmm-bidir-fee':
      need(12);
      return {
        poolNft: ac(0),
        x: ac(1),
        y: ac(2),
        lq: ac(3),
        extra: { ...base(), lpFeeNumX: n(4), lpFeeNumY: n(5), treasuryFeeNum: n(6), treasuryX: n(7), treasuryY: n(8) },
      };
    case 'royalty':
      need(15);
      return {
        poolNft: ac(0),
        x: ac(1),
        y: ac(2),
        lq: ac(3),
        extra: {
          ...base(),
          lpFeeNumX: n(4),
          lpFeeNumY: n(4),
          treasuryFeeNum: n(5),
          royaltyFeeNum: n(6),
          treasuryX: n(7),
          treasuryY: n(8),
          royaltyX: n(9),
          royaltyY: n(10),
        },
      };
    case 'weighted':
      // Deployed 20/80 pools: [nft, x, y, lq, lp_fee, treasury_fee, treasury_x, treasury_y, dao, treasury_address];
      // balance_pool.rs's newer layout names the weights: [nft, x, wx, y, wy, lq, lp_fee, treasury_fee, tx, ty, …].
      if (f.length === 10)
        return {
          poolNft: ac(0),
          x: ac(1),
          y: ac(2),
          lq: ac(3),
          extra: {
            ...base(),
            lpFeeNumX: n(4),
            lpFeeNumY: n(4),
            treasuryFeeNum: n(5),
            treasuryX: n(6),
            treasuryY: n(7),
            weightX: 1n,
            weightY: 4n,
          },
        };
      need(14);
      return {
        poolNft: ac(0),
        x: ac(1),
        y: ac(3),
        lq: ac(5),
        extra: {
          ...base(),
          weightX: n(2),
          weightY: n(4),
          lpFeeNumX: n(6),
          lpFeeNumY: n(6),
          treasuryFeeNum: n(7),
          treasuryX: n(8),
          treasuryY: n(9),
        },
      };
    case 'stable':
      need(15);
      return {
        poolNft: ac(0),
        x: ac(2),
        y: ac(3),
        lq: ac(6),
        extra: {
          ...base(),
          an2n: n(1),
          multiplierX: n(4),
          multiplierY: n(5),
          lpFeeNumX: n(9),
          lpFeeNumY: n(9),
          treasuryFeeNum: n(10),
          treasuryX: n(13),
          treasuryY: n(14),
        },
      };
  }
}

function kindOf(output: TxOutput): SplashPoolKind | null {
  const cred = paymentCredential(output.address);
  return cred ? (SPLASH_POOL_SCRIPTS[cred] ?? null) : null;
}

function isPoolOutput(output: TxOutput): boolean {
  const kind = kindOf(output);
  if (!kind || !output.datum) return false;
  const fields = attempt(() => decodeSplashPoolDatum(datumOf(output) as PlutusData, kind));
  return !!fields && quantityOf(output.value, fields.poolNft) === 1n;
}

/**
 * The share of the input that stays in the swap, out of `feeDenominator`. CFMM, weighted and royalty pools state
 * the retained share in `lp_fee_num` (997 of 1000 = a 0.3 % fee). Stable pools (stable_pool_t2t.rs) state the fee
 * taken instead: `lp_fee_num` 100 of 100000 is a 0.1 % fee (the iris `splash-stable` golden pool), not 99.9 %.
 */
function retained(x: SplashPoolExtra, xToY: boolean): bigint {
  const lpFee = xToY ? x.lpFeeNumX : x.lpFeeNumY;
  if (x.kind === 'stable') return x.feeDenominator - lpFee - x.treasuryFeeNum - x.royaltyFeeNum;
  return lpFee - x.treasuryFeeNum - x.royaltyFeeNum;
}

function decodePool(output: TxOutput, datums?: DatumResolver): SplashPool | null {
  const kind = kindOf(output);
  if (!kind) return null;
  const d = datumOf(output, datums);
  if (!d) return null;
  const f = attempt(() => decodeSplashPoolDatum(d, kind));
  if (!f || quantityOf(output.value, f.poolNft) !== 1n) return null;
  const extra: SplashPoolExtra = { ...f.extra, kind, poolNft: f.poolNft };
  const den = extra.feeDenominator;
  return {
    dex: 'splash',
    poolId: f.poolNft,
    curve: kind === 'weighted' ? 'weighted' : kind === 'stable' ? 'stable' : 'constant-product',
    tokenA: f.x,
    tokenB: f.y,
    reserveA: quantityOf(output.value, f.x) - extra.treasuryX - extra.royaltyX,
    reserveB: quantityOf(output.value, f.y) - extra.treasuryY - extra.royaltyY,
    lpToken: f.lq,
    totalLp: SPLASH.maxLq - quantityOf(output.value, f.lq),
    fee: { aToB: den - retained(extra, true), bToA: den - retained(extra, false), denominator: den },
    ...(kind === 'weighted' && extra.weightX !== null && extra.weightY !== null
      ? { weights: { a: extra.weightX, b: extra.weightY } }
      : {}),
    extra,
    datum: d,
  };
}

/**
 * The pool datum for `state`. Splash has one layout per pool family and fields this service does not model (DAO
 * policy, treasury address, royalty key): a decoded pool keeps its datum and only the mutable fields (fees,
 * treasuries, royalties) are rewritten in it; a new pool (no datum) gets the fee-switch layout.
 */
function encodePoolDatum(p: SplashPool): string {
  const x = p.extra;
  if (p.datum && isConstr(p.datum)) {
    const fields = [...p.datum.fields];
    const set = (i: number, v: bigint) => {
      if (i < fields.length) fields[i] = v;
    };
    switch (x.kind) {
      case 'cfmm-legacy':
        set(4, x.lpFeeNumX);
        break;
      case 'cfmm-fee-switch':
        set(4, x.lpFeeNumX);
        set(5, x.treasuryFeeNum);
        set(6, x.treasuryX);
        set(7, x.treasuryY);
        break;
      case 'cfmm-bidir-fee':
        set(4, x.lpFeeNumX);
        set(5, x.lpFeeNumY);
        set(6, x.treasuryFeeNum);
        set(7, x.treasuryX);
        set(8, x.treasuryY);
        break;
      case 'royalty':
        set(4, x.lpFeeNumX);
        set(5, x.treasuryFeeNum);
        set(6, x.royaltyFeeNum);
        set(7, x.treasuryX);
        set(8, x.treasuryY);
        set(9, x.royaltyX);
        set(10, x.royaltyY);
        break;
      case 'weighted':
        {
          // The 14-field layout has the two weights in between, shifting the fee fields by two.
          const o = fields.length === 10 ? 0 : 2;
          set(4 + o, x.lpFeeNumX);
          set(5 + o, x.treasuryFeeNum);
          set(6 + o, x.treasuryX);
          set(7 + o, x.treasuryY);
        }
        break;
      case 'stable':
        set(9, x.lpFeeNumX);
        set(10, x.treasuryFeeNum);
        set(13, x.treasuryX);
        set(14, x.treasuryY);
        break;
    }
    return encodePlutusData({ ...p.datum, fields }, { indefinite: true });
  }
  return encodePlutusData(
    constr(
      0,
      assetClassData(x.poolNft),
      assetClassData(p.tokenA),
      assetClassData(p.tokenB),
      assetClassData(p.lpToken ?? LOVELACE),
      x.lpFeeNumX,
      x.treasuryFeeNum,
      x.treasuryX,
      x.treasuryY,
      list([]),
      0n,
      bytes(''),
    ),
    { indefinite: true },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Orders

function isOrderOutput(output: TxOutput): boolean {
  const cred = paymentCredential(output.address);
  return (
    cred !== null &&
    ((SPLASH.limitOrderScriptHashes as readonly string[]).includes(cred) || cred === SPLASH.gridOrderScriptHash)
  );
}

function decodeSpot(d: PlutusData, output?: TxOutput): SplashOrder {
  const f = fieldsOf(d, 0, 12);
  const tokenIn = asAssetClass(f[2]);
  const tradable = asInt(f[3]);
  const cost = asInt(f[4]);
  const fee = asInt(f[8]);
  return {
    dex: 'splash',
    kind: 'limit',
    owner: attempt(() => plutusAddressToBech32(f[9], output ? networkOf(output.address) : 'mainnet')),
    poolId: null,
    direction: null,
    tokenIn,
    tokenOut: asAssetClass(f[6]),
    amountIn: tradable,
    minAmountOut: asInt(f[5]),
    batcherFee: fee + cost,
    deposit: output ? output.value.ada.lovelace - (tokenIn === LOVELACE ? tradable : 0n) - fee - cost : null,
    extra: {
      type: 'spot',
      tag: asHex(f[0]),
      beacon: asHex(f[1]),
      costPerExStep: cost,
      basePrice: asRational(f[7]),
      fee,
      cancellationPkh: asHex(f[10]),
      permittedExecutors: asList(f[11]).map(asHex),
      redeemerAddressData: f[9] as PlutusData,
    },
    datum: d,
  };
}

function decodeGrid(d: PlutusData, output?: TxOutput): SplashOrder {
  const f = fieldsOf(d, 0, 13);
  const token = asAssetClass(f[1]);
  const bid = asBool(f[7]);
  const lovelaceOffer = asInt(f[5]);
  return {
    dex: 'splash',
    kind: 'limit',
    owner: attempt(() => plutusAddressToBech32(f[11], output ? networkOf(output.address) : 'mainnet')),
    poolId: null,
    direction: null,
    tokenIn: bid ? LOVELACE : token,
    tokenOut: bid ? token : LOVELACE,
    amountIn: bid ? lovelaceOffer : output ? quantityOf(output.value, token) : null,
    minAmountOut: bid ? asInt(f[10]) : asInt(f[9]),
    batcherFee: asInt(f[8]),
    deposit: null,
    extra: {
      type: 'grid',
      beacon: asHex(f[0]),
      token,
      buyShiftFactor: asRational(f[2]),
      sellShiftFactor: asRational(f[3]),
      maxLovelaceOffer: asInt(f[4]),
      lovelaceOffer,
      price: asRational(f[6]),
      bid,
      budgetPerTransaction: asInt(f[8]),
      minMarginalOutputLovelace: asInt(f[9]),
      minMarginalOutputToken: asInt(f[10]),
      cancellationPkh: asHex(f[12]),
      redeemerAddressData: f[11] as PlutusData,
    },
    datum: d,
  };
}

/** Pure order-datum decoder: a spot (limit) order, or a grid order when `grid`. */
export function decodeSplashOrderDatum(d: PlutusData, grid: boolean, output?: TxOutput): SplashOrder {
  return grid ? decodeGrid(d, output) : decodeSpot(d, output);
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): SplashOrder | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  if (!d) return null;
  const grid = paymentCredential(output.address) === SPLASH.gridOrderScriptHash;
  return attempt(() => (grid ? decodeGrid(d, output) : decodeSpot(d, output)));
}

function encodeOrderDatum(o: SplashOrder): string {
  const x = o.extra;
  const owner = o.owner ? bech32ToPlutusAddress(o.owner) : x.redeemerAddressData;
  const fields: PlutusData[] =
    x.type === 'spot'
      ? [
          bytes(x.tag),
          bytes(x.beacon),
          assetClassData(o.tokenIn ?? LOVELACE),
          o.amountIn ?? 0n,
          x.costPerExStep,
          o.minAmountOut ?? 0n,
          assetClassData(o.tokenOut ?? LOVELACE),
          rationalData(x.basePrice),
          x.fee,
          owner,
          bytes(x.cancellationPkh),
          list(x.permittedExecutors.map(bytes)),
        ]
      : [
          bytes(x.beacon),
          assetClassData(x.token),
          rationalData(x.buyShiftFactor),
          rationalData(x.sellShiftFactor),
          x.maxLovelaceOffer,
          x.lovelaceOffer,
          rationalData(x.price),
          boolData(x.bid),
          x.budgetPerTransaction,
          x.minMarginalOutputLovelace,
          x.minMarginalOutputToken,
          owner,
          bytes(x.cancellationPkh),
        ];
  return encodePlutusData(constr(0, ...fields), { indefinite: true });
}

// ---------------------------------------------------------------------------------------------------------------
// Pricing: constant-product families only (weighted and stable pools use invariants not implemented here)

function amountOut(pool: SplashPool, tokenIn: Unit, amount: bigint): bigint | null {
  if (pool.curve !== 'constant-product' || (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB)) return null;
  const xToY = tokenIn === pool.tokenA;
  const [rIn, rOut] = xToY ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountOut(rIn, rOut, amount, xToY ? pool.fee.aToB : pool.fee.bToA, pool.fee.denominator);
}

function amountIn(pool: SplashPool, tokenOut: Unit, out: bigint): bigint | null {
  if (pool.curve !== 'constant-product' || (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB)) return null;
  const xToY = tokenOut === pool.tokenB;
  const [rIn, rOut] = xToY ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountIn(rIn, rOut, out, xToY ? pool.fee.aToB : pool.fee.bToA, pool.fee.denominator);
}

/** The pool after a CFMM swap of `dx`: treasury and royalty shares of the input leave the reserve. */
export function applySplashSwap(pool: SplashPool, xToY: boolean, dx: bigint): { pool: SplashPool; out: bigint } {
  const out = amountOut(pool, xToY ? pool.tokenA : pool.tokenB, dx) ?? 0n;
  const x = pool.extra;
  const den = x.feeDenominator;
  const treasury = (dx * x.treasuryFeeNum) / den;
  const royalty = (dx * x.royaltyFeeNum) / den;
  const extra = xToY
    ? { ...x, treasuryX: x.treasuryX + treasury, royaltyX: x.royaltyX + royalty }
    : { ...x, treasuryY: x.treasuryY + treasury, royaltyY: x.royaltyY + royalty };
  const next = xToY
    ? { reserveA: pool.reserveA + dx - treasury - royalty, reserveB: pool.reserveB - out }
    : { reserveA: pool.reserveA - out, reserveB: pool.reserveB + dx - treasury - royalty };
  return { pool: { ...pool, ...next, extra }, out };
}

// ---------------------------------------------------------------------------------------------------------------
// Executions

function beaconOf(o: SplashOrder): string {
  return o.extra.beacon;
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  if (tx.spends !== 'inputs') return [];
  const inputs = resolveInputs(tx, resolveInput);
  const orders = inputs
    .map((i) => ({ i, o: i.output ? decodeOrder(i.output, (h) => tx.datums?.[h]) : null }))
    .filter((x): x is { i: (typeof inputs)[number]; o: SplashOrder } => x.o !== null);
  if (orders.length === 0) return [];
  const poolOuts = tx.outputs
    .map((o) => decodePool(o, (h) => tx.datums?.[h]))
    .filter((p): p is SplashPool => p !== null);
  if (poolOuts.length === 0) return []; // a cancel, or an order placed again: no trade without a pool
  const poolIns = new Map<string, SplashPool>();
  for (const i of inputs) {
    const p = i.output ? decodePool(i.output) : null;
    if (p) poolIns.set(p.poolId, p);
  }
  const used = new Set<number>();
  const swaps: ExecutedSwap[] = [];
  for (const { i, o } of orders) {
    if (!o.tokenIn || !o.tokenOut || o.amountIn === null) continue;
    const input = i.output as TxOutput;
    const beacon = beaconOf(o);
    // A partial fill re-creates the order (same beacon) with the rest of the input.
    const contIx = tx.outputs.findIndex((x) => {
      const c = isOrderOutput(x) ? decodeOrder(x, (h) => tx.datums?.[h]) : null;
      return c !== null && beaconOf(c) === beacon;
    });
    const cont = contIx >= 0 ? decodeOrder(tx.outputs[contIx] as TxOutput, (h) => tx.datums?.[h]) : null;
    const resultIx = tx.outputs.findIndex(
      (x, ix) =>
        !used.has(ix) && ix !== contIx && x.address === o.owner && quantityOf(x.value, o.tokenOut as Unit) > 0n,
    );
    if (resultIx >= 0) used.add(resultIx);
    const filledIn = o.amountIn - (cont?.amountIn ?? 0n);
    const pairPools = poolOuts.filter(
      (p) => (p.tokenA === o.tokenIn && p.tokenB === o.tokenOut) || (p.tokenB === o.tokenIn && p.tokenA === o.tokenOut),
    );
    const pool = pairPools.length === 1 ? (pairPools[0] as SplashPool) : null;
    let got = 0n;
    const before = pool ? poolIns.get(pool.poolId) : undefined;
    if (pool && before && orders.length === 1 && poolOuts.length === 1) {
      // One order against one pool: the pool's own change is the exact fill.
      const inA = pool.tokenA === o.tokenOut;
      got = inA ? before.reserveA - pool.reserveA : before.reserveB - pool.reserveB;
    } else {
      if (cont && contIx >= 0)
        got += quantityOf((tx.outputs[contIx] as TxOutput).value, o.tokenOut) - quantityOf(input.value, o.tokenOut);
      const result = resultIx >= 0 ? (tx.outputs[resultIx] as TxOutput) : null;
      if (result) {
        const returnedAda =
          o.tokenOut === LOVELACE && !cont
            ? input.value.ada.lovelace - (o.tokenIn === LOVELACE ? o.amountIn : 0n) - (o.batcherFee ?? 0n)
            : 0n;
        got += quantityOf(result.value, o.tokenOut) - returnedAda;
      }
    }
    if (filledIn <= 0n || got <= 0n) continue;
    swaps.push({
      dex: 'splash',
      txId: tx.id,
      orderRef: refString(i.ref),
      poolId: pool?.poolId ?? null,
      trader: o.owner,
      tokenIn: o.tokenIn,
      tokenOut: o.tokenOut,
      amountIn: filledIn,
      amountOut: got,
      side: sideOf(o.tokenIn, o.tokenOut),
      outputIndex: resultIx >= 0 ? resultIx : contIx >= 0 ? contIx : null,
      // A partial fill's continuation keeps the rest of the order's ADA: the fee is read from a whole fill only.
      feeLovelace:
        cont || resultIx < 0
          ? null
          : chargedOrderFee(
              { tokenIn: o.tokenIn, tokenOut: o.tokenOut, amountIn: filledIn, amountOut: got },
              input.value.ada.lovelace,
              (tx.outputs[resultIx] as TxOutput).value.ada.lovelace,
              o.batcherFee,
            ),
    });
  }
  return swaps;
}

/** A pool output whose NFT is minted in the same transaction. */
function isPoolCreation(tx: Transaction): boolean {
  return tx.outputs.some((o) => {
    const p = decodePool(o, (h) => tx.datums?.[h]);
    if (!p) return false;
    const { policyId, assetName } = splitUnit(p.poolId);
    return (tx.mint?.[policyId]?.[assetName] ?? 0n) > 0n;
  });
}

export const splash: DexAdapter<SplashPoolExtra, SplashOrderExtra> = {
  name: 'splash',
  displayName: 'Splash',
  poolScriptHashes: Object.keys(SPLASH_POOL_SCRIPTS),
  orderScriptHashes: [...SPLASH.limitOrderScriptHashes, SPLASH.gridOrderScriptHash],
  poolIdentityPolicy: null,
  isPoolOutput,
  isOrderOutput,
  decodePool,
  decodeOrder,
  amountOut,
  amountIn,
  extractSwaps,
  isPoolCreation,
  encodePoolDatum,
  encodeOrderDatum,
};

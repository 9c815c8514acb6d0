/**
 * WingRiders V1 (WingRiders/dex-serializer @ acc572a src/{LiquidityPoolDatumV1,RequestDatumV1}.ts;
 * dex-blockfrost-adapter src/constants.ts; parsing-education README).
 *
 * Pools: at the V1 pool script holding the validity token `026a18d0…‖4c` (per-pool stake parts); pool id = the
 * share token name. Datum (by hash) `C0[requestScriptHash, C0[C0[assetA, assetB], lastInteraction, treasuryA,
 * treasuryB]]`; reserves = value − treasury, and on the ADA side also the 3 ADA pool oil.
 * Requests: `C0[C0[beneficiary, ownerPkh, deadline, C0[assetA, assetB]], action]`; a request offers its value
 * minus 2 ADA oil and 2 ADA agent fee (ADA side). Fee 0.35% of the input (adapter SWAP_FEE_IN_BASIS = 35), rounded
 * up, and the remaining reserve rounded up, as WingRiders' own `computeExpectedRawSwapAmount` computes the output
 * (dex-blockfrost-adapter @ 99a1c71 src/utils.ts): `cpCeilAmountOut`.
 */
import type { Transaction, TxOutput } from '../chain/types.js';
import { receiverMatchedSwaps } from './batch.js';
import { cpCeilAmountIn, cpCeilAmountOut } from './cpmm.js';
import type { PlutusConstr, PlutusData } from './plutus-data.js';
import {
  LOVELACE,
  PlutusShapeError,
  asAssetClass,
  asConstr,
  asHex,
  asInt,
  assetClassData,
  bech32ToPlutusAddress,
  bytes,
  constr,
  encodePlutusData,
  fieldsOf,
  networkOf,
  plutusAddressToBech32,
} from './plutus-data.js';
import type {
  DatumResolver,
  DexAdapter,
  ExecutedSwap,
  InputResolver,
  Order,
  OrderKind,
  PoolState,
  Unit,
} from './types.js';
import { attempt, datumOf, hasPolicyAsset, mintedQuantity, paymentCredential, quantityOf } from './utxo.js';

export const WINGRIDERS_V1 = {
  poolScriptHash: 'e6c90a5923713af5786963dee0fdffd830ca7e0c86a041d9e5833e91',
  requestScriptHash: '86ae9eebd8b97944a45201e4aec1330a72291af2d071644bba015959',
  policy: '026a18d04a0c642759bb3d83b12e3344894e5c1c7b2aeb1a2113a570',
  validityTokenName: '4c',
  poolOil: 3_000_000n,
  requestOil: 2_000_000n,
  agentFee: 2_000_000n,
  feeNumerator: 35n,
  feeDenominator: 10000n,
  maxShares: 9223372036854775807n,
} as const;

export interface WingRidersV1PoolExtra {
  requestScriptHash: string;
  lastInteraction: bigint;
  treasuryA: bigint;
  treasuryB: bigint;
}

export type WingRidersV1Action =
  | { type: 'swap'; aToB: boolean; minWanted: bigint }
  | { type: 'add-liquidity'; minShares: bigint }
  | { type: 'withdraw-liquidity'; minA: bigint; minB: bigint }
  | { type: 'other'; data: PlutusConstr };

export interface WingRidersV1OrderExtra {
  ownerPkh: string;
  deadline: bigint;
  assetA: Unit;
  assetB: Unit;
  action: WingRidersV1Action;
  beneficiaryData: PlutusData;
}

export type WingRidersV1Pool = PoolState<WingRidersV1PoolExtra>;
export type WingRidersV1Order = Order<WingRidersV1OrderExtra>;

function isPoolOutput(output: TxOutput): boolean {
  return (
    paymentCredential(output.address) === WINGRIDERS_V1.poolScriptHash &&
    hasPolicyAsset(output.value, WINGRIDERS_V1.policy, WINGRIDERS_V1.validityTokenName)
  );
}

/** Pure datum decoder (also for datum-only vectors). */
export function decodeWingRidersV1PoolDatum(d: PlutusData): {
  tokenA: Unit;
  tokenB: Unit;
  extra: WingRidersV1PoolExtra;
} {
  const [hash, inner] = fieldsOf(d, 0, 2);
  const [pair, last, ta, tb] = fieldsOf(inner, 0, 4);
  const [a, b] = fieldsOf(pair, 0, 2);
  return {
    tokenA: asAssetClass(a),
    tokenB: asAssetClass(b),
    extra: { requestScriptHash: asHex(hash), lastInteraction: asInt(last), treasuryA: asInt(ta), treasuryB: asInt(tb) },
  };
}

function decodePool(output: TxOutput, datums?: DatumResolver): WingRidersV1Pool | null {
  if (!isPoolOutput(output)) return null;
  const d = datumOf(output, datums);
  const share = Object.keys(output.value[WINGRIDERS_V1.policy] ?? {}).find(
    (n) => n !== WINGRIDERS_V1.validityTokenName,
  );
  if (!d || !share) return null;
  const f = attempt(() => decodeWingRidersV1PoolDatum(d));
  if (!f) return null;
  const oil = (u: Unit) => (u === LOVELACE ? WINGRIDERS_V1.poolOil : 0n);
  return {
    dex: 'wingriders-v1',
    poolId: share,
    curve: 'constant-product',
    tokenA: f.tokenA,
    tokenB: f.tokenB,
    reserveA: quantityOf(output.value, f.tokenA) - f.extra.treasuryA - oil(f.tokenA),
    reserveB: quantityOf(output.value, f.tokenB) - f.extra.treasuryB - oil(f.tokenB),
    lpToken: WINGRIDERS_V1.policy + share,
    totalLp: WINGRIDERS_V1.maxShares - quantityOf(output.value, WINGRIDERS_V1.policy + share),
    fee: {
      aToB: WINGRIDERS_V1.feeNumerator,
      bToA: WINGRIDERS_V1.feeNumerator,
      denominator: WINGRIDERS_V1.feeDenominator,
    },
    extra: f.extra,
    datum: d,
  };
}

function encodePoolDatum(p: WingRidersV1Pool): string {
  const x = p.extra;
  return encodePlutusData(
    constr(
      0,
      bytes(x.requestScriptHash),
      constr(
        0,
        constr(0, assetClassData(p.tokenA), assetClassData(p.tokenB)),
        x.lastInteraction,
        x.treasuryA,
        x.treasuryB,
      ),
    ),
    { indefinite: true },
  );
}

function readAction(d: PlutusData | undefined): WingRidersV1Action {
  const c = asConstr(d);
  if (c.constr === 0) {
    const [dir, min] = fieldsOf(c, 0, 2);
    const dc = asConstr(dir);
    if (dc.constr > 1) throw new PlutusShapeError('unknown direction');
    return { type: 'swap', aToB: dc.constr === 0, minWanted: asInt(min) };
  }
  if (c.constr === 1) return { type: 'add-liquidity', minShares: asInt(fieldsOf(c, 1, 1)[0]) };
  if (c.constr === 2) {
    const [a, b] = fieldsOf(c, 2, 2);
    return { type: 'withdraw-liquidity', minA: asInt(a), minB: asInt(b) };
  }
  return { type: 'other', data: c };
}

function actionData(a: WingRidersV1Action): PlutusData {
  if (a.type === 'swap') return constr(0, constr(a.aToB ? 0 : 1), a.minWanted);
  if (a.type === 'add-liquidity') return constr(1, a.minShares);
  if (a.type === 'withdraw-liquidity') return constr(2, a.minA, a.minB);
  return a.data;
}

const KIND: Record<WingRidersV1Action['type'], OrderKind> = {
  swap: 'swap',
  'add-liquidity': 'deposit',
  'withdraw-liquidity': 'withdraw',
  other: 'other',
};

function isOrderOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === WINGRIDERS_V1.requestScriptHash;
}

export function decodeWingRidersV1RequestDatum(d: PlutusData, output?: TxOutput): WingRidersV1Order {
  const [meta, actionD] = fieldsOf(d, 0, 2);
  const [ben, owner, deadline, pair] = fieldsOf(meta, 0, 4);
  const [a, b] = fieldsOf(pair, 0, 2);
  const assetA = asAssetClass(a);
  const assetB = asAssetClass(b);
  const action = readAction(actionD);
  const swap = action.type === 'swap' ? action : null;
  const tokenIn = swap ? (swap.aToB ? assetA : assetB) : null;
  const offered =
    tokenIn && output
      ? quantityOf(output.value, tokenIn) -
        (tokenIn === LOVELACE ? WINGRIDERS_V1.requestOil + WINGRIDERS_V1.agentFee : 0n)
      : null;
  return {
    dex: 'wingriders-v1',
    kind: KIND[action.type],
    owner: attempt(() => plutusAddressToBech32(ben, output ? networkOf(output.address) : 'mainnet')),
    poolId: null,
    direction: swap ? (swap.aToB ? 'aToB' : 'bToA') : null,
    tokenIn,
    tokenOut: swap ? (swap.aToB ? assetB : assetA) : null,
    amountIn: offered,
    minAmountOut: swap ? swap.minWanted : null,
    batcherFee: WINGRIDERS_V1.agentFee,
    deposit: WINGRIDERS_V1.requestOil,
    extra: {
      ownerPkh: asHex(owner),
      deadline: asInt(deadline),
      assetA,
      assetB,
      action,
      beneficiaryData: ben as PlutusData,
    },
    datum: d,
  };
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): WingRidersV1Order | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeWingRidersV1RequestDatum(d, output)) : null;
}

function encodeOrderDatum(o: WingRidersV1Order): string {
  const x = o.extra;
  return encodePlutusData(
    constr(
      0,
      constr(
        0,
        o.owner ? bech32ToPlutusAddress(o.owner) : x.beneficiaryData,
        bytes(x.ownerPkh),
        x.deadline,
        constr(0, assetClassData(x.assetA), assetClassData(x.assetB)),
      ),
      actionData(x.action),
    ),
    { indefinite: true },
  );
}

function amountOut(pool: WingRidersV1Pool, tokenIn: Unit, amount: bigint): bigint | null {
  if (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB) return null;
  const [rIn, rOut] = tokenIn === pool.tokenA ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpCeilAmountOut(rIn, rOut, amount, pool.fee.aToB, pool.fee.denominator);
}

function amountIn(pool: WingRidersV1Pool, tokenOut: Unit, out: bigint): bigint | null {
  if (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB) return null;
  const [rIn, rOut] = tokenOut === pool.tokenB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpCeilAmountIn(rIn, rOut, out, pool.fee.aToB, pool.fee.denominator);
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  return receiverMatchedSwaps<WingRidersV1PoolExtra, WingRidersV1OrderExtra>(
    {
      dex: 'wingriders-v1',
      decodePool,
      decodeOrder,
      resolveSwap: (o, _input, pool) => {
        const x = o.extra;
        if (x.action.type !== 'swap' || !o.tokenIn || !o.tokenOut || o.amountIn === null) return null;
        if (x.assetA !== pool.tokenA || x.assetB !== pool.tokenB) return null;
        return { tokenIn: o.tokenIn, tokenOut: o.tokenOut, amountIn: o.amountIn };
      },
      adaReturned: () => WINGRIDERS_V1.requestOil,
    },
    tx,
    resolveInput,
  );
}

function isPoolCreation(tx: Transaction): boolean {
  return mintedQuantity(tx, WINGRIDERS_V1.policy, WINGRIDERS_V1.validityTokenName) > 0n;
}

export const wingridersV1: DexAdapter<WingRidersV1PoolExtra, WingRidersV1OrderExtra> = {
  name: 'wingriders-v1',
  displayName: 'WingRiders V1',
  poolScriptHashes: [WINGRIDERS_V1.poolScriptHash],
  orderScriptHashes: [WINGRIDERS_V1.requestScriptHash],
  poolIdentityPolicy: WINGRIDERS_V1.policy,
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

/**
 * Minswap V2 (minswap/minswap-dex-v2 @ c3293ad: lib/amm_dex_v2/types.ak, math.ak, order_validation.ak,
 * validators/pool_validator.ak).
 *
 * Pools: outputs at the pool script holding the validity NFT `MSP`; reserves, LP supply and fees live in the
 * inline datum (the value also holds min-ADA, accumulated fee-sharing and un-issued LP tokens, so the value is not
 * the reserve). Pool id = the LP asset name (`sha3_256(sha3_256(A) ‖ sha3_256(B))`).
 *
 * Batches: one pool input + N order inputs + the batcher; a 0-ADA withdrawal from the pool-batching stake script
 * carries `PoolBatchingRedeemer{batcher_index, orders_fee, input_indexes, pool_input_indexes_opt, vol_fees}`.
 * Orders are processed in `input_indexes` order and order k's result is `outputs[k]` (the pool output follows).
 * The result value is exactly `order value − batcher fee − amount in + amount out` (compare_swap_output_value).
 */
import { chargedOrderFee } from './order-fee.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import type { Transaction, TxOutput } from '../chain/types.js';
import { bytesToHex, hexToBytes } from './cbor.js';
import { cpAmountIn, cpAmountOut } from './cpmm.js';
import type { Credential, PlutusConstr, PlutusData } from './plutus-data.js';
import {
  LOVELACE,
  PlutusShapeError,
  asAssetClass,
  asBool,
  asConstr,
  asCredential,
  asHex,
  asInt,
  asList,
  asOption,
  assetClassData,
  bech32ToPlutusAddress,
  boolData,
  bytes,
  constr,
  credentialData,
  encodePlutusData,
  fieldsOf,
  list,
  networkOf,
  optionData,
  plutusAddressToBech32,
  splitUnit,
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
import {
  attempt,
  datumOf,
  hasPolicyAsset,
  mintedQuantity,
  paymentCredential,
  quantityOf,
  redeemersOf,
  refString,
  resolveInputs,
  sideOf,
  unitsOf,
} from './utxo.js';

export const MINSWAP_V2 = {
  poolScriptHash: 'ea07b733d932129c378af627436e7cbc2ef0bf96e0036bb51b3bde6b',
  orderScriptHash: 'c3e28c36c3447315ba5a56f33da6a6ddc1770a876a8d9f0cb3a97c4c',
  /** Authen policy: pool validity NFT, LP tokens, factory and global-setting tokens all live under it. */
  authenPolicy: 'f5808c2c990d86da54bfc97d89cee6efa20cd8461616359478d96b4c',
  poolNftName: '4d5350', // "MSP"
  factoryScriptHash: '7bc5fbd41a95f561be84369631e0e35895efb0b73e0a7480bb9ed730',
  /** Script hash of the pool-batching withdrawal credential (stake17y02a946…). */
  poolBatchingScriptHash: '1eae96baf29e27682ea3f815aba361a0c6059d45e4bfbe95bbd2f44a',
  feeDenominator: 10000n,
  /** Lovelace an order pays the batcher (the SDK's default `batcherFee`); the order's deposit comes back with its result. */
  batcherFee: 1_000_000n,
  /** Un-issued LP tokens start at i64::MAX inside the pool. */
  maxLp: 9223372036854775807n,
} as const;

export interface MinswapV2PoolExtra {
  batchingStakeCredential: Credential;
  baseFeeANumerator: bigint;
  baseFeeBNumerator: bigint;
  /** Protocol share of the trading fee, /10000 (1666..5000), or null when fee sharing is off. */
  feeSharingNumerator: bigint | null;
  allowDynamicFee: boolean;
}

export type SwapAmountOption = { specific: bigint } | { all: bigint };

export type MinswapV2Step =
  | { type: 'swap-exact-in'; aToB: boolean; amount: SwapAmountOption; minimumReceive: bigint; killable: boolean }
  | { type: 'stop-loss'; aToB: boolean; amount: SwapAmountOption; stopLossReceive: bigint }
  | { type: 'oco'; aToB: boolean; amount: SwapAmountOption; minimumReceive: bigint; stopLossReceive: bigint }
  | {
      type: 'swap-exact-out';
      aToB: boolean;
      maximumAmount: SwapAmountOption;
      expectedReceive: bigint;
      killable: boolean;
    }
  | {
      type: 'partial-swap';
      aToB: boolean;
      totalSwapAmount: bigint;
      ioRatioNumerator: bigint;
      ioRatioDenominator: bigint;
      hops: bigint;
      minimumSwapAmountRequired: bigint;
      maxBatcherFeeEachTime: bigint;
    }
  | {
      type: 'multi-routing';
      routings: Array<{ lpAsset: Unit; aToB: boolean }>;
      amount: SwapAmountOption;
      minimumReceive: bigint;
    }
  /** Deposit, Withdraw, ZapOut, WithdrawImbalance, Donation: kept verbatim (constructor index + data). */
  | { type: 'other'; data: PlutusConstr };

/** `EODNoDatum C0[]` | `EODDatumHash C1[B]` | `EODInlineDatum C2[B]`. */
export type ExtraOrderDatum = { type: 'none' } | { type: 'hash' | 'inline'; hash: string };

export interface MinswapV2OrderExtra {
  /** OAMSignature C0 / OAMSpendScript C1 / OAMWithdrawScript C2 / OAMMintScript C3. */
  canceller: { method: 0 | 1 | 2 | 3; hash: string };
  refundReceiver: string;
  refundReceiverDatum: ExtraOrderDatum;
  successReceiverDatum: ExtraOrderDatum;
  lpAsset: Unit;
  step: MinswapV2Step;
  expiry: { expiredTime: bigint; maxTip: bigint } | null;
}

export type MinswapV2Pool = PoolState<MinswapV2PoolExtra>;
export type MinswapV2Order = Order<MinswapV2OrderExtra>;

const lpNames = new Map<string, string>();

/**
 * LP asset name of a pair: assets normalised (ADA first, else lexicographic), then sha3-256 of sha3-256s. Memoised
 * (bounded): every pool output and order of a pair hashes the same two units again.
 */
export function minswapV2LpAssetName(unitA: Unit, unitB: Unit): string {
  const key = `${unitA}|${unitB}`;
  let name = lpNames.get(key);
  if (name === undefined) {
    name = computeLpAssetName(unitA, unitB);
    if (lpNames.size >= 10_000) lpNames.clear();
    lpNames.set(key, name);
  }
  return name;
}

function computeLpAssetName(unitA: Unit, unitB: Unit): string {
  const h = (u: Unit) => {
    const { policyId, assetName } = splitUnit(u);
    return sha3_256(hexToBytes(policyId + assetName));
  };
  const [a, b] = sortPair(unitA, unitB);
  return bytesToHex(sha3_256(new Uint8Array([...h(a), ...h(b)])));
}

function sortPair(a: Unit, b: Unit): [Unit, Unit] {
  const key = (u: Unit) => (u === LOVELACE ? '' : u);
  return key(a) <= key(b) ? [a, b] : [b, a];
}

// ---------------------------------------------------------------------------------------------------------------
// Pool

function decodePoolDatum(d: PlutusData): Omit<MinswapV2Pool, 'datum'> {
  const f = fieldsOf(d, 0, 10);
  const stake = fieldsOf(f[0], 0, 1)[0];
  const tokenA = asAssetClass(f[1]);
  const tokenB = asAssetClass(f[2]);
  const extra: MinswapV2PoolExtra = {
    batchingStakeCredential: asCredential(stake),
    baseFeeANumerator: asInt(f[6]),
    baseFeeBNumerator: asInt(f[7]),
    feeSharingNumerator: asOption(f[8] as PlutusData, asInt),
    allowDynamicFee: asBool(f[9]),
  };
  const lpName = minswapV2LpAssetName(tokenA, tokenB);
  return {
    dex: 'minswap-v2',
    poolId: lpName,
    curve: 'constant-product',
    tokenA,
    tokenB,
    reserveA: asInt(f[4]),
    reserveB: asInt(f[5]),
    lpToken: MINSWAP_V2.authenPolicy + lpName,
    totalLp: asInt(f[3]),
    fee: { aToB: extra.baseFeeANumerator, bToA: extra.baseFeeBNumerator, denominator: MINSWAP_V2.feeDenominator },
    extra,
  };
}

function isPoolOutput(output: TxOutput): boolean {
  return (
    paymentCredential(output.address) === MINSWAP_V2.poolScriptHash &&
    hasPolicyAsset(output.value, MINSWAP_V2.authenPolicy, MINSWAP_V2.poolNftName)
  );
}

function decodePool(output: TxOutput, datums?: DatumResolver): MinswapV2Pool | null {
  if (!isPoolOutput(output)) return null;
  const d = datumOf(output, datums);
  if (!d) return null;
  const pool = attempt(() => decodePoolDatum(d));
  // Zap artefacts (one side is an LP token of the DEX itself) are not tradable pairs.
  if (!pool || splitUnit(pool.tokenB).policyId === MINSWAP_V2.authenPolicy) return null;
  return { ...pool, datum: d };
}

function encodePoolDatum(p: MinswapV2Pool): string {
  const x = p.extra;
  return encodePlutusData(
    constr(
      0,
      constr(0, credentialData(x.batchingStakeCredential)),
      assetClassData(p.tokenA),
      assetClassData(p.tokenB),
      p.totalLp ?? 0n,
      p.reserveA,
      p.reserveB,
      x.baseFeeANumerator,
      x.baseFeeBNumerator,
      optionData(x.feeSharingNumerator, (n) => n),
      boolData(x.allowDynamicFee),
    ),
    { indefinite: true },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Orders

function readAmountOption(d: PlutusData | undefined): SwapAmountOption {
  const c = asConstr(d, undefined, 1);
  if (c.constr === 0) return { specific: asInt(c.fields[0]) };
  if (c.constr === 1) return { all: asInt(c.fields[0]) };
  throw new PlutusShapeError('unknown SwapAmountOption');
}
const amountOptionData = (o: SwapAmountOption): PlutusConstr =>
  'specific' in o ? constr(0, o.specific) : constr(1, o.all);

function readStep(d: PlutusData | undefined): MinswapV2Step {
  const c = asConstr(d);
  const f = c.fields;
  switch (c.constr) {
    case 0:
      return {
        type: 'swap-exact-in',
        aToB: asBool(f[0]),
        amount: readAmountOption(f[1]),
        minimumReceive: asInt(f[2]),
        killable: asBool(f[3]),
      };
    case 1:
      return { type: 'stop-loss', aToB: asBool(f[0]), amount: readAmountOption(f[1]), stopLossReceive: asInt(f[2]) };
    case 2:
      return {
        type: 'oco',
        aToB: asBool(f[0]),
        amount: readAmountOption(f[1]),
        minimumReceive: asInt(f[2]),
        stopLossReceive: asInt(f[3]),
      };
    case 3:
      return {
        type: 'swap-exact-out',
        aToB: asBool(f[0]),
        maximumAmount: readAmountOption(f[1]),
        expectedReceive: asInt(f[2]),
        killable: asBool(f[3]),
      };
    case 7:
      return {
        type: 'partial-swap',
        aToB: asBool(f[0]),
        totalSwapAmount: asInt(f[1]),
        ioRatioNumerator: asInt(f[2]),
        ioRatioDenominator: asInt(f[3]),
        hops: asInt(f[4]),
        minimumSwapAmountRequired: asInt(f[5]),
        maxBatcherFeeEachTime: asInt(f[6]),
      };
    case 9:
      return {
        type: 'multi-routing',
        routings: asList(f[0]).map((r) => {
          const [lp, dir] = fieldsOf(r, 0, 2);
          return { lpAsset: asAssetClass(lp), aToB: asBool(dir) };
        }),
        amount: readAmountOption(f[1]),
        minimumReceive: asInt(f[2]),
      };
    default:
      if (c.constr > 10) throw new PlutusShapeError(`unknown Minswap V2 order step ${c.constr}`);
      return { type: 'other', data: c };
  }
}

function stepData(s: MinswapV2Step): PlutusData {
  switch (s.type) {
    case 'swap-exact-in':
      return constr(0, boolData(s.aToB), amountOptionData(s.amount), s.minimumReceive, boolData(s.killable));
    case 'stop-loss':
      return constr(1, boolData(s.aToB), amountOptionData(s.amount), s.stopLossReceive);
    case 'oco':
      return constr(2, boolData(s.aToB), amountOptionData(s.amount), s.minimumReceive, s.stopLossReceive);
    case 'swap-exact-out':
      return constr(3, boolData(s.aToB), amountOptionData(s.maximumAmount), s.expectedReceive, boolData(s.killable));
    case 'partial-swap':
      return constr(
        7,
        boolData(s.aToB),
        s.totalSwapAmount,
        s.ioRatioNumerator,
        s.ioRatioDenominator,
        s.hops,
        s.minimumSwapAmountRequired,
        s.maxBatcherFeeEachTime,
      );
    case 'multi-routing':
      return constr(
        9,
        list(s.routings.map((r) => constr(0, assetClassData(r.lpAsset), boolData(r.aToB)))),
        amountOptionData(s.amount),
        s.minimumReceive,
      );
    case 'other':
      return s.data;
  }
}

function readExtraDatum(d: PlutusData | undefined): ExtraOrderDatum {
  const c = asConstr(d);
  if (c.constr === 0) return { type: 'none' };
  const hash = asHex(fieldsOf(c, c.constr, 1)[0]);
  if (c.constr === 1) return { type: 'hash', hash };
  if (c.constr === 2) return { type: 'inline', hash };
  throw new PlutusShapeError('unknown ExtraOrderDatum');
}
const extraDatumData = (e: ExtraOrderDatum): PlutusConstr =>
  e.type === 'none' ? constr(0) : constr(e.type === 'hash' ? 1 : 2, bytes(e.hash));

const KIND_OF_STEP: Record<number, OrderKind> = {
  4: 'deposit',
  5: 'withdraw',
  6: 'zap-out',
  8: 'withdraw',
  10: 'other',
};

function stepDirection(s: MinswapV2Step): boolean | null {
  return s.type === 'other' || s.type === 'multi-routing' ? null : s.aToB;
}

function decodeOrderDatum(d: PlutusData, output: TxOutput): MinswapV2Order {
  const f = fieldsOf(d, 0, 9);
  const network = networkOf(output.address);
  const canc = asConstr(f[0], undefined, 1);
  if (canc.constr > 3) throw new PlutusShapeError('unknown canceller');
  const step = readStep(f[6]);
  const expiry = asOption(f[8] as PlutusData, (e) => {
    const [t, tip] = asList(e);
    return { expiredTime: asInt(t), maxTip: asInt(tip) };
  });
  const extra: MinswapV2OrderExtra = {
    canceller: { method: canc.constr as 0 | 1 | 2 | 3, hash: asHex(canc.fields[0]) },
    refundReceiver: plutusAddressToBech32(f[1], network),
    refundReceiverDatum: readExtraDatum(f[2]),
    successReceiverDatum: readExtraDatum(f[4]),
    lpAsset: asAssetClass(f[5]),
    step,
    expiry,
  };
  const maxBatcherFee = asInt(f[7]);
  const aToB = stepDirection(step);
  // Without the pool, the input asset is only known from the order's own value: ADA when it holds no tokens,
  // the single token otherwise. `extractSwaps` replaces these with the pool's assets.
  const tokens = unitsOf(output.value).filter(([u, q]) => u !== LOVELACE && q > 0n);
  const tokenIn = tokens.length === 0 ? LOVELACE : tokens.length === 1 ? (tokens[0] as [Unit, bigint])[0] : null;
  let amountIn: bigint | null = null;
  let minAmountOut: bigint | null = null;
  if (
    step.type === 'swap-exact-in' ||
    step.type === 'stop-loss' ||
    step.type === 'oco' ||
    step.type === 'multi-routing'
  ) {
    amountIn =
      'specific' in step.amount
        ? step.amount.specific
        : tokenIn
          ? quantityOf(output.value, tokenIn) - step.amount.all
          : null;
    minAmountOut = step.type === 'stop-loss' ? null : step.minimumReceive;
  } else if (step.type === 'swap-exact-out') {
    amountIn = 'specific' in step.maximumAmount ? step.maximumAmount.specific : null;
    minAmountOut = step.expectedReceive;
  } else if (step.type === 'partial-swap') {
    amountIn = step.totalSwapAmount;
  }
  const lovelaceIn = tokenIn === LOVELACE && amountIn !== null ? amountIn : 0n;
  return {
    dex: 'minswap-v2',
    kind: step.type === 'other' ? (KIND_OF_STEP[step.data.constr] ?? 'other') : 'swap',
    owner: plutusAddressToBech32(f[3], network),
    poolId: splitUnit(extra.lpAsset).assetName,
    direction: aToB === null ? null : aToB ? 'aToB' : 'bToA',
    tokenIn: step.type === 'other' ? null : tokenIn,
    tokenOut: null,
    amountIn,
    minAmountOut,
    batcherFee: maxBatcherFee,
    deposit: output.value.ada.lovelace - maxBatcherFee - lovelaceIn,
    extra,
    datum: d,
  };
}

function isOrderOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === MINSWAP_V2.orderScriptHash;
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): MinswapV2Order | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeOrderDatum(d, output)) : null;
}

function encodeOrderDatum(o: MinswapV2Order): string {
  const x = o.extra;
  if (!o.owner) throw new Error('a Minswap V2 order needs a success receiver address');
  return encodePlutusData(
    constr(
      0,
      constr(x.canceller.method, bytes(x.canceller.hash)),
      bech32ToPlutusAddress(x.refundReceiver),
      extraDatumData(x.refundReceiverDatum),
      bech32ToPlutusAddress(o.owner),
      extraDatumData(x.successReceiverDatum),
      assetClassData(x.lpAsset),
      stepData(x.step),
      o.batcherFee ?? 0n,
      optionData(x.expiry, (e) => list([e.expiredTime, e.maxTip])),
    ),
    { indefinite: true },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Pricing

function feeFor(pool: MinswapV2Pool, aToB: boolean): bigint {
  return aToB ? pool.fee.aToB : pool.fee.bToA;
}

function amountOut(pool: MinswapV2Pool, tokenIn: Unit, amountIn: bigint): bigint | null {
  if (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB) return null;
  const aToB = tokenIn === pool.tokenA;
  const [rIn, rOut] = aToB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountOut(rIn, rOut, amountIn, feeFor(pool, aToB), MINSWAP_V2.feeDenominator);
}

function amountIn(pool: MinswapV2Pool, tokenOut: Unit, out: bigint): bigint | null {
  if (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB) return null;
  const aToB = tokenOut === pool.tokenB;
  const [rIn, rOut] = aToB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountIn(rIn, rOut, out, feeFor(pool, aToB), MINSWAP_V2.feeDenominator);
}

/**
 * The pool state after one SwapExactIn, exactly as `validate_swap_exact_in` requires it: the output side loses
 * `amountOut`; the input side gains the amount minus the protocol's fee share (which stays in the value but leaves
 * the datum reserve). `tradingFeeNumerator` = base fee (+ volatility fee when the pool allows dynamic fees).
 */
export function applyMinswapV2Swap(
  pool: MinswapV2Pool,
  aToB: boolean,
  swapAmount: bigint,
  tradingFeeNumerator: bigint = feeFor(pool, aToB),
): { pool: MinswapV2Pool; amountOut: bigint; earnedFeeIn: bigint } {
  const [rIn, rOut] = aToB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  const out = cpAmountOut(rIn, rOut, swapAmount, tradingFeeNumerator, MINSWAP_V2.feeDenominator);
  const share = pool.extra.feeSharingNumerator;
  const earnedFeeIn =
    share === null
      ? 0n
      : (swapAmount * tradingFeeNumerator * share) / (MINSWAP_V2.feeDenominator * MINSWAP_V2.feeDenominator);
  const next = aToB
    ? { reserveA: pool.reserveA + swapAmount - earnedFeeIn, reserveB: pool.reserveB - out }
    : { reserveA: pool.reserveA - out, reserveB: pool.reserveB + swapAmount - earnedFeeIn };
  return { pool: { ...pool, ...next }, amountOut: out, earnedFeeIn };
}

// ---------------------------------------------------------------------------------------------------------------
// Batches

interface BatchingRedeemer {
  ordersFee: bigint[];
  inputIndexes: number[];
  volFees: Array<bigint | null>;
}

function batchingRedeemer(tx: Transaction): BatchingRedeemer | null {
  for (const r of redeemersOf(tx)) {
    if (r.purpose !== 'withdraw' || !r.data) continue;
    const parsed = attempt(() => {
      const f = fieldsOf(r.data as PlutusData, 0, 5);
      return {
        ordersFee: asList(f[1]).map(asInt),
        inputIndexes: Array.from(hexToBytes(asHex(f[2]))),
        volFees: asList(f[4]).map((v) => asOption(v, asInt)),
      };
    });
    if (parsed) return parsed;
  }
  return null;
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  if (tx.spends !== 'inputs') return [];
  const poolOuts = new Map<string, MinswapV2Pool>();
  for (const o of tx.outputs) {
    const p = decodePool(o, (h) => tx.datums?.[h]);
    if (p) poolOuts.set(p.poolId, p);
  }
  if (poolOuts.size === 0) return [];
  const inputs = resolveInputs(tx, resolveInput);
  const orderInputs = inputs.filter((i) => i.output !== null && isOrderOutput(i.output));
  if (orderInputs.length === 0) return [];
  const redeemer = batchingRedeemer(tx);
  // The validator's order list is every non-pool, non-batcher input; with all of them resolved at the order script
  // that is `orderInputs`, and `input_indexes` gives the processing order. Otherwise keep ledger order.
  const ordered =
    redeemer &&
    redeemer.inputIndexes.length === orderInputs.length &&
    redeemer.inputIndexes.every((i) => i < orderInputs.length)
      ? redeemer.inputIndexes.map((i) => orderInputs[i] as (typeof orderInputs)[number])
      : orderInputs;
  const exactOrder = ordered !== orderInputs || orderInputs.length === 1;
  const usedOutputs = new Set<number>();
  const swaps: ExecutedSwap[] = [];
  let outCursor = 0;
  ordered.forEach((input, k) => {
    const output = input.output as TxOutput;
    const order = decodeOrder(output, (h) => tx.datums?.[h]);
    if (!order) return;
    const step = order.extra.step;
    if (step.type === 'other' && step.data.constr === 10) return; // Donation consumes no output
    // Result output: outputs[k] in processing order; fall back to the first unused output paying the receiver.
    let outIx = exactOrder ? outCursor : -1;
    outCursor++;
    const receiverMatches = (ix: number) =>
      tx.outputs[ix]?.address === order.owner || tx.outputs[ix]?.address === order.extra.refundReceiver;
    if (outIx < 0 || !receiverMatches(outIx))
      outIx = tx.outputs.findIndex((o, ix) => !usedOutputs.has(ix) && o.address === order.owner);
    if (outIx < 0) return;
    usedOutputs.add(outIx);
    if (order.kind !== 'swap') return;
    const tokens = swapTokens(order, poolOuts);
    if (!tokens) return;
    const result = tx.outputs[outIx] as TxOutput;
    const fee = redeemer?.ordersFee[k] ?? null;
    const feeIfAda = (u: Unit) => (u === LOVELACE ? (fee ?? 0n) : 0n);
    let amountInV =
      quantityOf(output.value, tokens.tokenIn) - quantityOf(result.value, tokens.tokenIn) - feeIfAda(tokens.tokenIn);
    let amountOutV =
      quantityOf(result.value, tokens.tokenOut) - quantityOf(output.value, tokens.tokenOut) + feeIfAda(tokens.tokenOut);
    if (fee === null) {
      // No redeemer to read the charged fee from: take the input from the datum and bound the fee by it.
      if (tokens.tokenIn === LOVELACE && order.amountIn !== null) amountInV = order.amountIn;
      if (tokens.tokenOut === LOVELACE) amountOutV += order.batcherFee ?? 0n;
    }
    if (amountInV <= 0n || amountOutV <= 0n) return; // killed/refunded: no trade
    swaps.push({
      dex: 'minswap-v2',
      txId: tx.id,
      orderRef: refString(input.ref),
      poolId: tokens.poolId,
      trader: order.owner,
      tokenIn: tokens.tokenIn,
      tokenOut: tokens.tokenOut,
      amountIn: amountInV,
      amountOut: amountOutV,
      side: sideOf(tokens.tokenIn, tokens.tokenOut),
      outputIndex: outIx,
      feeLovelace: chargedOrderFee(
        { ...tokens, amountIn: amountInV, amountOut: amountOutV },
        output.value.ada.lovelace,
        result.value.ada.lovelace,
        order.batcherFee,
      ),
    });
  });
  return swaps;
}

function swapTokens(
  order: MinswapV2Order,
  pools: Map<string, MinswapV2Pool>,
): { tokenIn: Unit; tokenOut: Unit; poolId: string } | null {
  const step = order.extra.step;
  if (step.type === 'multi-routing') {
    const first = step.routings[0];
    const last = step.routings[step.routings.length - 1];
    const p1 = first && pools.get(splitUnit(first.lpAsset).assetName);
    const p2 = last && pools.get(splitUnit(last.lpAsset).assetName);
    if (!first || !last || !p1 || !p2) return null;
    return {
      tokenIn: first.aToB ? p1.tokenA : p1.tokenB,
      tokenOut: last.aToB ? p2.tokenB : p2.tokenA,
      poolId: p1.poolId,
    };
  }
  const pool = order.poolId ? pools.get(order.poolId) : undefined;
  if (!pool || order.direction === null) return null;
  const aToB = order.direction === 'aToB';
  return { tokenIn: aToB ? pool.tokenA : pool.tokenB, tokenOut: aToB ? pool.tokenB : pool.tokenA, poolId: pool.poolId };
}

function isPoolCreation(tx: Transaction): boolean {
  return mintedQuantity(tx, MINSWAP_V2.authenPolicy, MINSWAP_V2.poolNftName) > 0n;
}

export const minswapV2: DexAdapter<MinswapV2PoolExtra, MinswapV2OrderExtra> = {
  name: 'minswap-v2',
  displayName: 'Minswap V2',
  poolScriptHashes: [MINSWAP_V2.poolScriptHash],
  orderScriptHashes: [MINSWAP_V2.orderScriptHash],
  poolIdentityPolicy: MINSWAP_V2.authenPolicy,
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

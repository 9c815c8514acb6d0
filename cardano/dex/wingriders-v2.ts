/**
 * WingRiders V2 (WingRiders/dex-v2-contracts @ 280a9e8: src/DEX/Types/{Pool,Request}.hs, Pool.hs,
 * Pool/ConstantProduct.hs, Pool/Util.hs).
 *
 * Pools: outputs at the CPMM or stableswap pool script holding the validity token `6fdc63a1…‖4c`; the pool also
 * holds its un-issued share tokens (i64::MAX − circulating). Reserves = value − treasury − project treasury −
 * reserve treasury, and on the ADA side also the 3 ADA pool oil.
 *
 * Swaps (pnewReserves): swapFee = ⌈lock·swap/basis⌉, protocol/project/reserve fees = ⌊lock·fee/basis⌋ each (they
 * move to the treasuries), newX = x + lock − protocol − project − reserve, newY = ⌈x·y / (x + lock − all fees)⌉,
 * out = y − newY.
 *
 * Batches: pool redeemer `Evolve C0[poolLocation, agentLocation, [C0[requestLocation, data]]]` (locations are
 * input indexes); outputs are the pool first, then one compensation per request in redeemer order. A request
 * provides its value minus `oil + agentFee` ADA; its compensation's ADA excludes the oil returned with it.
 */
import { chargedOrderFee } from './order-fee.js';
import type { Transaction, TxOutput } from '../chain/types.js';
import type { PlutusConstr, PlutusData } from './plutus-data.js';
import {
  LOVELACE,
  PlutusShapeError,
  asConstr,
  asHex,
  asInt,
  asList,
  asOption,
  bech32ToPlutusAddress,
  bytes,
  constr,
  encodePlutusData,
  fieldsOf,
  networkOf,
  optionData,
  plutusAddressToBech32,
  splitUnit,
  unitOf,
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
import type { ResolvedInput } from './utxo.js';
import {
  attempt,
  datumOf,
  divCeil,
  hasPolicyAsset,
  mintedQuantity,
  paymentCredential,
  quantityOf,
  redeemersOf,
  refString,
  resolveInputs,
  sideOf,
} from './utxo.js';

export const WINGRIDERS_V2 = {
  cpmmPoolScriptHash: 'af97793b8702f381976cec83e303e9ce17781458c73c4bb16fe02b83',
  stablePoolScriptHash: '946ae228430f2fc64aa8b3acb910ee27e9b3e47aa8f925fac27834a1',
  cpmmRequestScriptHash: 'c134d839a64a5dfb9b155869ef3f34280751a622f69958baa8ffd29c',
  stableRequestScriptHash: '23680ea6701b56f2c12ae79d8af94fd36f509b7b007029c7ce114840',
  /** Validity token and share tokens policy (shared by CPMM and stable pools). */
  dexPolicy: '6fdc63a1d71dc2c65502b79baae7fb543185702b12c3c5fb639ed737',
  validityTokenName: '4c', // "L"
  /** ADA kept in every pool UTxO, not part of the reserve. */
  poolOil: 3_000_000n,
  maxShares: 9223372036854775807n,
} as const;

export interface WingRidersV2PoolExtra {
  requestValidatorHash: string;
  swapFeeInBasis: bigint;
  protocolFeeInBasis: bigint;
  projectFeeInBasis: bigint;
  reserveFeeInBasis: bigint;
  feeBasis: bigint;
  /** Lovelace the agent (batcher) takes per request. */
  agentFeeAda: bigint;
  /** POSIX ms of the last pool evolution. */
  lastInteraction: bigint;
  treasuryA: bigint;
  treasuryB: bigint;
  projectTreasuryA: bigint;
  projectTreasuryB: bigint;
  reserveTreasuryA: bigint;
  reserveTreasuryB: bigint;
  /** `Maybe Address`, kept verbatim. */
  projectBeneficiary: PlutusData | null;
  reserveBeneficiary: PlutusData | null;
  /** Stableswap `C0[parameterD, scaleA, scaleB]`; null for CPMM (`C0[]`). */
  stable: { parameterD: bigint; scaleA: bigint; scaleB: bigint } | null;
}

export type WingRidersV2Action =
  | { type: 'swap'; aToB: boolean; minWanted: bigint }
  | { type: 'add-liquidity'; minShares: bigint }
  | { type: 'withdraw-liquidity'; minA: bigint; minB: bigint }
  /** Treasury extraction, staking rewards, zaps with data: kept verbatim. */
  | { type: 'other'; data: PlutusConstr };

export interface WingRidersV2OrderExtra {
  /** Lovelace returned with the compensation. */
  oil: bigint;
  /** Address allowed to reclaim the request (bech32). */
  ownerAddress: string;
  compensationDatum: PlutusData;
  /** No C0 | Hash C1 | Inline C2. */
  compensationDatumType: 0 | 1 | 2;
  /** POSIX ms. */
  deadline: bigint;
  assetA: Unit;
  assetB: Unit;
  action: WingRidersV2Action;
  aScale: bigint;
  bScale: bigint;
  stable: boolean;
}

export type WingRidersV2Pool = PoolState<WingRidersV2PoolExtra>;
export type WingRidersV2Order = Order<WingRidersV2OrderExtra>;

const POOL_SCRIPTS: readonly string[] = [WINGRIDERS_V2.cpmmPoolScriptHash, WINGRIDERS_V2.stablePoolScriptHash];
const REQUEST_SCRIPTS: readonly string[] = [WINGRIDERS_V2.cpmmRequestScriptHash, WINGRIDERS_V2.stableRequestScriptHash];

// ---------------------------------------------------------------------------------------------------------------
// Pool

function isPoolOutput(output: TxOutput): boolean {
  const cred = paymentCredential(output.address);
  return (
    cred !== null &&
    POOL_SCRIPTS.includes(cred) &&
    hasPolicyAsset(output.value, WINGRIDERS_V2.dexPolicy, WINGRIDERS_V2.validityTokenName)
  );
}

function shareTokenName(output: TxOutput): string | null {
  const assets = output.value[WINGRIDERS_V2.dexPolicy] ?? {};
  return Object.keys(assets).find((n) => n !== WINGRIDERS_V2.validityTokenName) ?? null;
}

function decodePool(output: TxOutput, datums?: DatumResolver): WingRidersV2Pool | null {
  if (!isPoolOutput(output)) return null;
  const d = datumOf(output, datums);
  const share = shareTokenName(output);
  if (!d || !share) return null;
  return attempt(() => {
    const f = fieldsOf(d, 0, 21);
    const tokenA = unitOf(asHex(f[1]), asHex(f[2]));
    const tokenB = unitOf(asHex(f[3]), asHex(f[4]));
    const specifics = asConstr(f[20], 0);
    const stable =
      specifics.fields.length === 3
        ? {
            parameterD: asInt(specifics.fields[0]),
            scaleA: asInt(specifics.fields[1]),
            scaleB: asInt(specifics.fields[2]),
          }
        : null;
    if (specifics.fields.length !== 0 && !stable) throw new PlutusShapeError('unknown pool specifics');
    const x: WingRidersV2PoolExtra = {
      requestValidatorHash: asHex(f[0]),
      swapFeeInBasis: asInt(f[5]),
      protocolFeeInBasis: asInt(f[6]),
      projectFeeInBasis: asInt(f[7]),
      reserveFeeInBasis: asInt(f[8]),
      feeBasis: asInt(f[9]),
      agentFeeAda: asInt(f[10]),
      lastInteraction: asInt(f[11]),
      treasuryA: asInt(f[12]),
      treasuryB: asInt(f[13]),
      projectTreasuryA: asInt(f[14]),
      projectTreasuryB: asInt(f[15]),
      reserveTreasuryA: asInt(f[16]),
      reserveTreasuryB: asInt(f[17]),
      projectBeneficiary: asOption(f[18] as PlutusData, (a) => a),
      reserveBeneficiary: asOption(f[19] as PlutusData, (a) => a),
      stable,
    };
    const oil = (u: Unit) => (u === LOVELACE ? WINGRIDERS_V2.poolOil : 0n);
    const totalFee = x.swapFeeInBasis + x.protocolFeeInBasis + x.projectFeeInBasis + x.reserveFeeInBasis;
    return {
      dex: 'wingriders-v2' as const,
      poolId: share,
      curve: stable ? ('stable' as const) : ('constant-product' as const),
      tokenA,
      tokenB,
      reserveA: quantityOf(output.value, tokenA) - x.treasuryA - x.projectTreasuryA - x.reserveTreasuryA - oil(tokenA),
      reserveB: quantityOf(output.value, tokenB) - x.treasuryB - x.projectTreasuryB - x.reserveTreasuryB - oil(tokenB),
      lpToken: WINGRIDERS_V2.dexPolicy + share,
      totalLp: WINGRIDERS_V2.maxShares - quantityOf(output.value, WINGRIDERS_V2.dexPolicy + share),
      fee: { aToB: totalFee, bToA: totalFee, denominator: x.feeBasis },
      extra: x,
      datum: d,
    };
  });
}

function encodePoolDatum(p: WingRidersV2Pool): string {
  const x = p.extra;
  const a = splitUnit(p.tokenA);
  const b = splitUnit(p.tokenB);
  return encodePlutusData(
    constr(
      0,
      bytes(x.requestValidatorHash),
      bytes(a.policyId),
      bytes(a.assetName),
      bytes(b.policyId),
      bytes(b.assetName),
      x.swapFeeInBasis,
      x.protocolFeeInBasis,
      x.projectFeeInBasis,
      x.reserveFeeInBasis,
      x.feeBasis,
      x.agentFeeAda,
      x.lastInteraction,
      x.treasuryA,
      x.treasuryB,
      x.projectTreasuryA,
      x.projectTreasuryB,
      x.reserveTreasuryA,
      x.reserveTreasuryB,
      optionData(x.projectBeneficiary, (v) => v),
      optionData(x.reserveBeneficiary, (v) => v),
      x.stable ? constr(0, x.stable.parameterD, x.stable.scaleA, x.stable.scaleB) : constr(0),
    ),
    { indefinite: true },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

function readAction(d: PlutusData | undefined): WingRidersV2Action {
  const c = asConstr(d);
  if (c.constr === 0) {
    const [dir, min] = fieldsOf(c, 0, 2);
    const dc = asConstr(dir);
    if (dc.constr > 1) throw new PlutusShapeError('unknown swap direction');
    return { type: 'swap', aToB: dc.constr === 0, minWanted: asInt(min) };
  }
  if (c.constr === 1) return { type: 'add-liquidity', minShares: asInt(fieldsOf(c, 1, 1)[0]) };
  if (c.constr === 2) {
    const [a, b] = fieldsOf(c, 2, 2);
    return { type: 'withdraw-liquidity', minA: asInt(a), minB: asInt(b) };
  }
  if (c.constr > 6) throw new PlutusShapeError(`unknown WingRiders V2 action ${c.constr}`);
  return { type: 'other', data: c };
}

function actionData(a: WingRidersV2Action): PlutusData {
  switch (a.type) {
    case 'swap':
      return constr(0, constr(a.aToB ? 0 : 1), a.minWanted);
    case 'add-liquidity':
      return constr(1, a.minShares);
    case 'withdraw-liquidity':
      return constr(2, a.minA, a.minB);
    case 'other':
      return a.data;
  }
}

const ACTION_KIND: Record<WingRidersV2Action['type'], OrderKind> = {
  swap: 'swap',
  'add-liquidity': 'deposit',
  'withdraw-liquidity': 'withdraw',
  other: 'other',
};

function isOrderOutput(output: TxOutput): boolean {
  const cred = paymentCredential(output.address);
  return cred !== null && REQUEST_SCRIPTS.includes(cred);
}

/**
 * `agentFee` comes from the pool datum; a request alone does not say it. Without the pool, the ADA offered by a
 * swap request is reported net of the oil only (`amountIn` then still includes the agent fee).
 */
function decodeRequest(output: TxOutput, d: PlutusData, agentFee: bigint | null): WingRidersV2Order {
  const f = fieldsOf(d, 0, 13);
  const network = networkOf(output.address);
  const cdt = asConstr(f[4]);
  if (cdt.constr > 2) throw new PlutusShapeError('unknown compensation datum type');
  const assetA = unitOf(asHex(f[6]), asHex(f[7]));
  const assetB = unitOf(asHex(f[8]), asHex(f[9]));
  const action = readAction(f[10]);
  const oil = asInt(f[0]);
  const swap = action.type === 'swap' ? action : null;
  const tokenIn = swap ? (swap.aToB ? assetA : assetB) : null;
  const amountIn =
    tokenIn === null ? null : quantityOf(output.value, tokenIn) - (tokenIn === LOVELACE ? oil + (agentFee ?? 0n) : 0n);
  return {
    dex: 'wingriders-v2',
    kind: ACTION_KIND[action.type],
    owner: attempt(() => plutusAddressToBech32(f[1], network)),
    poolId: null,
    direction: swap ? (swap.aToB ? 'aToB' : 'bToA') : null,
    tokenIn,
    tokenOut: swap ? (swap.aToB ? assetB : assetA) : null,
    amountIn,
    minAmountOut: swap ? swap.minWanted : null,
    batcherFee: agentFee,
    deposit: oil,
    extra: {
      oil,
      ownerAddress: plutusAddressToBech32(f[2], network),
      compensationDatum: f[3] as PlutusData,
      compensationDatumType: cdt.constr as 0 | 1 | 2,
      deadline: asInt(f[5]),
      assetA,
      assetB,
      action,
      aScale: asInt(f[11]),
      bScale: asInt(f[12]),
      stable: paymentCredential(output.address) === WINGRIDERS_V2.stableRequestScriptHash,
    },
    datum: d,
  };
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): WingRidersV2Order | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeRequest(output, d, null)) : null;
}

function encodeOrderDatum(o: WingRidersV2Order): string {
  const x = o.extra;
  const a = splitUnit(x.assetA);
  const b = splitUnit(x.assetB);
  return encodePlutusData(
    constr(
      0,
      x.oil,
      bech32ToPlutusAddress(o.owner ?? ''),
      bech32ToPlutusAddress(x.ownerAddress),
      x.compensationDatum,
      constr(x.compensationDatumType),
      x.deadline,
      bytes(a.policyId),
      bytes(a.assetName),
      bytes(b.policyId),
      bytes(b.assetName),
      actionData(x.action),
      x.aScale,
      x.bScale,
    ),
    { indefinite: true },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Pricing

/** One CPMM swap exactly as `pnewReserves`; returns the output and the fees that move to the treasuries. */
export function wingRidersV2Swap(
  pool: WingRidersV2Pool,
  aToB: boolean,
  lock: bigint,
): { out: bigint; protocolFee: bigint; projectFee: bigint; reserveFee: bigint } {
  const x = pool.extra;
  const [oldX, oldY] = aToB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  if (lock <= 0n || oldX <= 0n || oldY <= 0n) return { out: 0n, protocolFee: 0n, projectFee: 0n, reserveFee: 0n };
  const swapFee = divCeil(lock * x.swapFeeInBasis, x.feeBasis);
  const protocolFee = (lock * x.protocolFeeInBasis) / x.feeBasis;
  const projectFee = (lock * x.projectFeeInBasis) / x.feeBasis;
  const reserveFee = (lock * x.reserveFeeInBasis) / x.feeBasis;
  const denom = oldX + lock - swapFee - protocolFee - projectFee - reserveFee;
  const newY = divCeil(oldX * oldY, denom);
  return { out: oldY - newY, protocolFee, projectFee, reserveFee };
}

function amountOut(pool: WingRidersV2Pool, tokenIn: Unit, amount: bigint): bigint | null {
  if (pool.curve !== 'constant-product' || (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB)) return null;
  return wingRidersV2Swap(pool, tokenIn === pool.tokenA, amount).out;
}

/** The formula has ceilings on both fee and result, so the inverse is found by bisection over the monotone output. */
function amountIn(pool: WingRidersV2Pool, tokenOut: Unit, want: bigint): bigint | null {
  if (pool.curve !== 'constant-product' || (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB)) return null;
  const aToB = tokenOut === pool.tokenB;
  const reserveOut = aToB ? pool.reserveB : pool.reserveA;
  if (want <= 0n) return 0n;
  if (want >= reserveOut) return null;
  let lo = 1n;
  let hi = 1n;
  while (wingRidersV2Swap(pool, aToB, hi).out < want) {
    hi *= 2n;
    if (hi > 1n << 128n) return null;
  }
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (wingRidersV2Swap(pool, aToB, mid).out >= want) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------------------------
// Batches

/** Request input indexes from an `Evolve` redeemer, in processing order. */
function evolveOrder(d: PlutusData | null): number[] | null {
  if (!d) return null;
  return attempt(() => {
    const [, , reqs] = fieldsOf(d, 0, 3);
    return asList(reqs).map((r) => Number(asInt(fieldsOf(r, 0, 2)[0])));
  });
}

/** The pool after one CPMM swap: fees leave the input reserve for the treasuries, the output side pays `out`. */
export function applyWingRidersV2Swap(
  pool: WingRidersV2Pool,
  aToB: boolean,
  lock: bigint,
): { pool: WingRidersV2Pool; out: bigint } {
  const r = wingRidersV2Swap(pool, aToB, lock);
  const toTreasury = r.protocolFee + r.projectFee + r.reserveFee;
  const x = pool.extra;
  const next: WingRidersV2Pool = aToB
    ? {
        ...pool,
        reserveA: pool.reserveA + lock - toTreasury,
        reserveB: pool.reserveB - r.out,
        extra: {
          ...x,
          treasuryA: x.treasuryA + r.protocolFee,
          projectTreasuryA: x.projectTreasuryA + r.projectFee,
          reserveTreasuryA: x.reserveTreasuryA + r.reserveFee,
        },
      }
    : {
        ...pool,
        reserveA: pool.reserveA - r.out,
        reserveB: pool.reserveB + lock - toTreasury,
        extra: {
          ...x,
          treasuryB: x.treasuryB + r.protocolFee,
          projectTreasuryB: x.projectTreasuryB + r.projectFee,
          reserveTreasuryB: x.reserveTreasuryB + r.reserveFee,
        },
      };
  return { pool: next, out: r.out };
}

/**
 * The state before a swap, given the state after it: the unique `out` for which swapping `lock` from
 * (after − lock + fees, after + out) pays exactly `out` (the residual is decreasing in `out`, so bisect).
 */
function unapplySwap(
  after: WingRidersV2Pool,
  aToB: boolean,
  lock: bigint,
): { pool: WingRidersV2Pool; out: bigint } | null {
  const fees = wingRidersV2Swap(after, aToB, lock);
  const toTreasury = fees.protocolFee + fees.projectFee + fees.reserveFee;
  const before = (out: bigint): WingRidersV2Pool =>
    aToB
      ? { ...after, reserveA: after.reserveA - lock + toTreasury, reserveB: after.reserveB + out }
      : { ...after, reserveA: after.reserveA + out, reserveB: after.reserveB - lock + toTreasury };
  const residual = (out: bigint) => wingRidersV2Swap(before(out), aToB, lock).out - out;
  let lo = 0n;
  let hi = aToB ? after.reserveB + 1n : after.reserveA + 1n;
  if (residual(lo) < 0n) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (residual(mid) >= 0n) lo = mid;
    else hi = mid - 1n;
  }
  return residual(lo) === 0n ? { pool: before(lo), out: lo } : null;
}

interface ParsedRequest {
  input: ResolvedInput;
  req: WingRidersV2Order;
  outIx: number;
}

/**
 * Per-request pool outputs by replaying the batch with the validator's formula: forward from the spent pool when
 * it is known (and only if the replay lands exactly on the new pool), otherwise backward from the new pool. The
 * compensation itself can exceed the pool's output (the agent may return part of its fee), so it is only the
 * fallback for batches that are not all swaps.
 */
function replayOuts(pool: WingRidersV2Pool, before: WingRidersV2Pool | null, reqs: ParsedRequest[]): bigint[] | null {
  if (pool.curve !== 'constant-product' || reqs.some((r) => r.req.extra.action.type !== 'swap')) return null;
  const dir = (r: ParsedRequest) => r.req.direction === 'aToB';
  if (before) {
    let state = before;
    const outs: bigint[] = [];
    for (const r of reqs) {
      const step = applyWingRidersV2Swap(state, dir(r), r.req.amountIn ?? 0n);
      outs.push(step.out);
      state = step.pool;
    }
    if (state.reserveA === pool.reserveA && state.reserveB === pool.reserveB) return outs;
  }
  let state = pool;
  const outs: bigint[] = [];
  for (const r of [...reqs].reverse()) {
    const step = unapplySwap(state, dir(r), r.req.amountIn ?? 0n);
    if (!step) return null;
    outs.unshift(step.out);
    state = step.pool;
  }
  return outs;
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  if (tx.spends !== 'inputs') return [];
  const pool = tx.outputs[0] ? decodePool(tx.outputs[0], (h) => tx.datums?.[h]) : null;
  if (!pool) return [];
  const inputs = resolveInputs(tx, resolveInput);
  let order: number[] | null = null;
  for (const r of redeemersOf(tx)) if (r.purpose === 'spend' && (order = evolveOrder(r.data))) break;
  const requestInputs = order
    ? order.map((ix) => inputs[ix] ?? null)
    : inputs.filter((i) => i.output !== null && isOrderOutput(i.output));
  const parsed: ParsedRequest[] = [];
  const used = new Set<number>();
  requestInputs.forEach((input, k) => {
    if (!input?.output || !isOrderOutput(input.output)) return;
    const d = datumOf(input.output, (h) => tx.datums?.[h]);
    const req = d ? attempt(() => decodeRequest(input.output as TxOutput, d, pool.extra.agentFeeAda)) : null;
    if (!req) return;
    let outIx = order ? 1 + k : -1;
    if (outIx < 1 || tx.outputs[outIx]?.address !== req.owner)
      outIx = tx.outputs.findIndex((x, ix) => ix > 0 && !used.has(ix) && x.address === req.owner);
    used.add(outIx);
    parsed.push({ input, req, outIx });
  });
  // Replaying needs every request of the batch; with one unresolved, only the compensations are known.
  const complete = order !== null && parsed.length === order.length;
  const poolIn = inputs.find((i) => i.output && isPoolOutput(i.output));
  const before = poolIn?.output ? decodePool(poolIn.output) : null;
  const outs = complete ? replayOuts(pool, before && before.poolId === pool.poolId ? before : null, parsed) : null;
  const swaps: ExecutedSwap[] = [];
  parsed.forEach((p, k) => {
    const { req, outIx, input } = p;
    const comp = tx.outputs[outIx];
    if (req.extra.action.type !== 'swap' || !req.tokenIn || !req.tokenOut || req.amountIn === null || !comp) return;
    const paid = quantityOf(comp.value, req.tokenOut) - (req.tokenOut === LOVELACE ? req.extra.oil : 0n);
    const got = outs?.[k] ?? paid;
    if (req.amountIn <= 0n || got <= 0n) return;
    swaps.push({
      dex: 'wingriders-v2',
      txId: tx.id,
      orderRef: refString(input.ref),
      poolId: pool.poolId,
      trader: req.owner,
      tokenIn: req.tokenIn,
      tokenOut: req.tokenOut,
      amountIn: req.amountIn,
      amountOut: got,
      side: sideOf(req.tokenIn, req.tokenOut),
      outputIndex: outIx,
      feeLovelace: chargedOrderFee(
        { tokenIn: req.tokenIn, tokenOut: req.tokenOut, amountIn: req.amountIn, amountOut: got },
        (input.output as TxOutput).value.ada.lovelace,
        comp.value.ada.lovelace,
        req.batcherFee,
      ),
    });
  });
  return swaps;
}

function isPoolCreation(tx: Transaction): boolean {
  return mintedQuantity(tx, WINGRIDERS_V2.dexPolicy, WINGRIDERS_V2.validityTokenName) > 0n;
}

export const wingridersV2: DexAdapter<WingRidersV2PoolExtra, WingRidersV2OrderExtra> = {
  name: 'wingriders-v2',
  displayName: 'WingRiders V2',
  poolScriptHashes: POOL_SCRIPTS,
  orderScriptHashes: REQUEST_SCRIPTS,
  poolIdentityPolicy: WINGRIDERS_V2.dexPolicy,
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

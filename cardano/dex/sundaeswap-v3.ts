/**
 * SundaeSwap V3 (SundaeSwap-finance/sundae-contracts @ be33466: lib/types/{pool,order}.ak,
 * lib/calculation/{process,swap}.ak, validators/pool.ak).
 *
 * Pools: outputs at the pool script (which is also the NFT/LP minting policy) holding the CIP-68 (222) pool NFT
 * `000de140 ‖ ident`. Reserves are the UTxO value; on ADA pools the lovelace includes `protocol_fees` (collected
 * scooper fees awaiting withdrawal), which is not tradable. Fees: `bid` applies to A→B, `ask` to B→A, per 10,000.
 *
 * Scoops: the pool redeemer `PoolScoop{signatory_index, scooper_index, input_order: [(input index, strategy, _)]}`;
 * the new pool is `outputs[0]` and order k of `input_order` pays `outputs[1 + k]`. The order result value is
 * `input − gives − actual protocol fee + takes` (swap.ak), where the scooper may take a little less than the offer
 * when that buys the same output.
 */
import { chargedOrderFee } from './order-fee.js';
import type { Transaction, TxOutput } from '../chain/types.js';
import { cpAmountIn, cpAmountOut } from './cpmm.js';
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
  isConstr,
  list,
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
import {
  attempt,
  datumOf,
  paymentCredential,
  quantityOf,
  redeemersOf,
  refString,
  resolveInputs,
  sideOf,
} from './utxo.js';

export const SUNDAESWAP_V3 = {
  /** Pool spend validator = pool NFT/LP minting policy (one multi-validator). */
  poolScriptHash: 'e0302560ced2fdcbfcb2602697df970cd0d6a38f94b32703f51c312b',
  orderScriptHash: 'fa6a58bbe2d0ff05534431c8e2f0ef2cbdc1602a8456e4b13c8f3077',
  poolNftPrefix: '000de140', // CIP-68 (222)
  lpPrefix: '0014df10', // CIP-68 (333)
  referencePrefix: '000643b0', // CIP-68 (100)
  feeDenominator: 10000n,
  /**
   * An order's `max_protocol_fee`: the lovelace the scooper may take (it charges the settings' amortised base fee plus
   * the simple fee, about 0.5 ADA for a lone order, and returns the rest with the result).
   */
  maxProtocolFee: 1_000_000n,
} as const;

/** The LP token unit of the pool with `ident` (28 bytes, hex): the pool policy, CIP-68 (333), the ident. */
export const sundaeV3LpUnit = (ident: string): Unit => SUNDAESWAP_V3.poolScriptHash + SUNDAESWAP_V3.lpPrefix + ident;

export interface SundaeV3PoolExtra {
  /** `Option<MultisigScript>`, kept verbatim. */
  feeManager: PlutusData | null;
  /** POSIX ms before which the pool does not trade. */
  marketOpen: bigint;
  /** Lovelace held by the pool for the protocol (scooper fees), not part of the reserve. */
  protocolFees: bigint;
}

export type SundaeV3Details =
  | { type: 'swap'; offer: [Unit, bigint]; minReceived: [Unit, bigint] }
  | { type: 'deposit'; assets: [[Unit, bigint], [Unit, bigint]] }
  | { type: 'withdrawal'; amount: [Unit, bigint] }
  /** Strategy, Donation, Record: kept verbatim. */
  | { type: 'other'; data: PlutusConstr };

export interface SundaeV3OrderExtra {
  poolIdent: string | null;
  /** `MultisigScript` of who may cancel, kept verbatim (`Signature C0[pkh]` in practice). */
  ownerScript: PlutusData;
  /** Fixed destination datum (`NoDatum C0[]` | `DatumHash C1[B]` | `InlineDatum C2[data]`), or null for `Self`. */
  destinationDatum: PlutusData | null;
  details: SundaeV3Details;
  extension: PlutusData;
}

export type SundaeV3Pool = PoolState<SundaeV3PoolExtra>;
export type SundaeV3Order = Order<SundaeV3OrderExtra>;

// ---------------------------------------------------------------------------------------------------------------
// Pool

function poolNftName(output: TxOutput): string | null {
  const assets = output.value[SUNDAESWAP_V3.poolScriptHash];
  if (!assets) return null;
  const name = Object.keys(assets).find((n) => n.startsWith(SUNDAESWAP_V3.poolNftPrefix) && (assets[n] ?? 0n) > 0n);
  return name ?? null;
}

function isPoolOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === SUNDAESWAP_V3.poolScriptHash && poolNftName(output) !== null;
}

/** `[B(policy), B(name)]` (an Aiken tuple = Plutus list). */
function tupleAsset(d: PlutusData | undefined): Unit {
  const l = asList(d);
  if (l.length !== 2) throw new PlutusShapeError('expected an asset pair');
  const [p, n] = l;
  return unitOf(asHex(p), asHex(n));
}
const tupleAssetData = (u: Unit): PlutusData => {
  const { policyId, assetName } = splitUnit(u);
  return list([bytes(policyId), bytes(assetName)]);
};
/** SingletonValue `[B(policy), B(name), I(amount)]`. */
function singleton(d: PlutusData | undefined): [Unit, bigint] {
  const l = asList(d);
  if (l.length !== 3) throw new PlutusShapeError('expected (policy, name, amount)');
  return [unitOf(asHex(l[0]), asHex(l[1])), asInt(l[2])];
}
const singletonData = ([u, n]: [Unit, bigint]): PlutusData => {
  const { policyId, assetName } = splitUnit(u);
  return list([bytes(policyId), bytes(assetName), n]);
};

/** Pure pool-datum decoder (also used on datum-only vectors). */
export function decodeSundaeV3PoolDatum(d: PlutusData): {
  ident: string;
  tokenA: Unit;
  tokenB: Unit;
  circulatingLp: bigint;
  bidFee: bigint;
  askFee: bigint;
  extra: SundaeV3PoolExtra;
} {
  const f = fieldsOf(d, 0, 8);
  const assets = asList(f[1]);
  if (assets.length !== 2) throw new PlutusShapeError('expected two assets');
  return {
    ident: asHex(f[0]),
    tokenA: tupleAsset(assets[0]),
    tokenB: tupleAsset(assets[1]),
    circulatingLp: asInt(f[2]),
    bidFee: asInt(f[3]),
    askFee: asInt(f[4]),
    extra: { feeManager: asOption(f[5] as PlutusData, (x) => x), marketOpen: asInt(f[6]), protocolFees: asInt(f[7]) },
  };
}

function decodePool(output: TxOutput, datums?: DatumResolver): SundaeV3Pool | null {
  if (!isPoolOutput(output)) return null;
  const d = datumOf(output, datums);
  const p = d ? attempt(() => decodeSundaeV3PoolDatum(d)) : null;
  if (!d || !p) return null;
  const valueA = quantityOf(output.value, p.tokenA);
  return {
    dex: 'sundaeswap-v3',
    poolId: p.ident,
    curve: 'constant-product',
    tokenA: p.tokenA,
    tokenB: p.tokenB,
    reserveA: p.tokenA === LOVELACE ? valueA - p.extra.protocolFees : valueA,
    reserveB: quantityOf(output.value, p.tokenB),
    lpToken: sundaeV3LpUnit(p.ident),
    totalLp: p.circulatingLp,
    fee: { aToB: p.bidFee, bToA: p.askFee, denominator: SUNDAESWAP_V3.feeDenominator },
    extra: p.extra,
    datum: d,
  };
}

function encodePoolDatum(p: SundaeV3Pool): string {
  return encodePlutusData(
    constr(
      0,
      bytes(p.poolId),
      list([tupleAssetData(p.tokenA), tupleAssetData(p.tokenB)]),
      p.totalLp ?? 0n,
      p.fee.aToB,
      p.fee.bToA,
      optionData(p.extra.feeManager, (x) => x),
      p.extra.marketOpen,
      p.extra.protocolFees,
    ),
    { indefinite: true },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Orders

function readDetails(d: PlutusData | undefined): SundaeV3Details {
  const c = asConstr(d);
  switch (c.constr) {
    case 1: {
      const [offer, min] = fieldsOf(c, 1, 2);
      return { type: 'swap', offer: singleton(offer), minReceived: singleton(min) };
    }
    case 2: {
      const pair = asList(fieldsOf(c, 2, 1)[0]);
      if (pair.length !== 2) throw new PlutusShapeError('deposit needs two assets');
      return { type: 'deposit', assets: [singleton(pair[0]), singleton(pair[1])] };
    }
    case 3:
      return { type: 'withdrawal', amount: singleton(fieldsOf(c, 3, 1)[0]) };
    default:
      if (c.constr > 5) throw new PlutusShapeError(`unknown SundaeSwap V3 order ${c.constr}`);
      return { type: 'other', data: c };
  }
}

function detailsData(x: SundaeV3Details): PlutusData {
  switch (x.type) {
    case 'swap':
      return constr(1, singletonData(x.offer), singletonData(x.minReceived));
    case 'deposit':
      return constr(2, list([singletonData(x.assets[0]), singletonData(x.assets[1])]));
    case 'withdrawal':
      return constr(3, singletonData(x.amount));
    case 'other':
      return x.data;
  }
}

const KIND: Record<SundaeV3Details['type'], OrderKind> = {
  swap: 'swap',
  deposit: 'deposit',
  withdrawal: 'withdraw',
  other: 'other',
};

function isOrderOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === SUNDAESWAP_V3.orderScriptHash;
}

/** Pure order-datum decoder; `output` (when given) supplies the network and the deposit. */
export function decodeSundaeV3OrderDatum(d: PlutusData, output?: TxOutput): SundaeV3Order {
  const f = fieldsOf(d, 0, 6);
  const dest = asConstr(f[3]);
  let owner: string | null = null;
  let destinationDatum: PlutusData | null = null;
  if (dest.constr === 0) {
    const [addr, datum] = fieldsOf(dest, 0, 2);
    owner = attempt(() => plutusAddressToBech32(addr, output ? networkOf(output.address) : 'mainnet'));
    destinationDatum = datum as PlutusData;
  } else if (dest.constr !== 1) throw new PlutusShapeError('unknown destination');
  const details = readDetails(f[4]);
  const maxProtocolFee = asInt(f[2]);
  const swap = details.type === 'swap' ? details : null;
  const adaOffered = swap && swap.offer[0] === LOVELACE ? swap.offer[1] : 0n;
  return {
    dex: 'sundaeswap-v3',
    kind: KIND[details.type],
    owner,
    poolId: asOption(f[0] as PlutusData, asHex),
    direction: null,
    tokenIn: swap ? swap.offer[0] : null,
    tokenOut: swap ? swap.minReceived[0] : null,
    amountIn: swap ? swap.offer[1] : null,
    minAmountOut: swap ? swap.minReceived[1] : null,
    batcherFee: maxProtocolFee,
    deposit: output ? output.value.ada.lovelace - maxProtocolFee - adaOffered : null,
    extra: {
      poolIdent: asOption(f[0] as PlutusData, asHex),
      ownerScript: f[1] as PlutusData,
      destinationDatum,
      details,
      extension: f[5] as PlutusData,
    },
    datum: d,
  };
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): SundaeV3Order | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeSundaeV3OrderDatum(d, output)) : null;
}

function encodeOrderDatum(o: SundaeV3Order): string {
  const x = o.extra;
  const destination =
    x.destinationDatum === null ? constr(1) : constr(0, bech32ToPlutusAddress(o.owner ?? ''), x.destinationDatum);
  return encodePlutusData(
    constr(
      0,
      optionData(x.poolIdent, bytes),
      x.ownerScript,
      o.batcherFee ?? 0n,
      destination,
      detailsData(x.details),
      x.extension,
    ),
    { indefinite: true },
  );
}

export interface SundaeV3SwapParams {
  /** Bech32 address that receives the result (`Fixed` destination, no datum). */
  owner: string;
  /** Payment key hash that may cancel the order (`Signature` owner script). */
  ownerKeyHash: string;
  /** The pool the order names (28-byte ident, hex). */
  poolIdent: string;
  offer: [Unit, bigint];
  minReceived: [Unit, bigint];
  /** Lovelace the scooper may take at most (`max_protocol_fee`); the unused part comes back with the result. */
  maxProtocolFee: bigint;
  /** Lovelace locked besides the offer and the fee, returned with the result. */
  deposit: bigint;
}

/**
 * A swap order as SundaeSwap's own off-chain code writes it: one named pool, cancellable by the trader's payment
 * key, result to the trader's address with no datum, empty extension. Its datum is `encodeOrderDatum` of this.
 */
export function sundaeV3SwapOrder(p: SundaeV3SwapParams): SundaeV3Order {
  return {
    dex: 'sundaeswap-v3',
    kind: 'swap',
    owner: p.owner,
    poolId: p.poolIdent,
    direction: null,
    tokenIn: p.offer[0],
    tokenOut: p.minReceived[0],
    amountIn: p.offer[1],
    minAmountOut: p.minReceived[1],
    batcherFee: p.maxProtocolFee,
    deposit: p.deposit,
    extra: {
      poolIdent: p.poolIdent,
      ownerScript: constr(0, bytes(p.ownerKeyHash)),
      destinationDatum: constr(0),
      details: { type: 'swap', offer: p.offer, minReceived: p.minReceived },
      extension: constr(0),
    },
    datum: constr(0),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Pricing

function amountOut(pool: SundaeV3Pool, tokenIn: Unit, amountIn: bigint): bigint | null {
  if (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB) return null;
  const aToB = tokenIn === pool.tokenA;
  return aToB
    ? cpAmountOut(pool.reserveA, pool.reserveB, amountIn, pool.fee.aToB, pool.fee.denominator)
    : cpAmountOut(pool.reserveB, pool.reserveA, amountIn, pool.fee.bToA, pool.fee.denominator);
}

function amountIn(pool: SundaeV3Pool, tokenOut: Unit, out: bigint): bigint | null {
  if (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB) return null;
  return tokenOut === pool.tokenB
    ? cpAmountIn(pool.reserveA, pool.reserveB, out, pool.fee.aToB, pool.fee.denominator)
    : cpAmountIn(pool.reserveB, pool.reserveA, out, pool.fee.bToA, pool.fee.denominator);
}

// ---------------------------------------------------------------------------------------------------------------
// Scoops

/** `input_order` indexes from a PoolScoop redeemer (possibly wrapped in the multi-validator's spend constructor). */
function scoopOrder(d: PlutusData | null): number[] | null {
  if (!d || !isConstr(d)) return null;
  const read = (c: PlutusData) =>
    attempt(() => {
      const [, , orders] = fieldsOf(c, 0, 3);
      return asList(orders).map((t) => Number(asInt(asList(t)[0])));
    });
  return read(d) ?? (d.fields.length === 1 ? read(d.fields[0] as PlutusData) : null);
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  if (tx.spends !== 'inputs') return [];
  const poolOut = tx.outputs[0] ? decodePool(tx.outputs[0], (h) => tx.datums?.[h]) : null;
  if (!poolOut) return [];
  const inputs = resolveInputs(tx, resolveInput);
  const poolIn = inputs.find((i) => i.output && decodePool(i.output)?.poolId === poolOut.poolId);
  if (!poolIn) {
    // The scoop spends the pool it recreates; without that input, this output alone says nothing about orders.
    const spendsPool = inputs.some((i) => i.output === null);
    if (!spendsPool) return [];
  }
  let order: number[] | null = null;
  for (const r of redeemersOf(tx)) if (r.purpose === 'spend' && (order = scoopOrder(r.data))) break;
  const orderInputs = order
    ? order.map((ix) => inputs[ix] ?? null)
    : inputs.filter((i) => i.output !== null && isOrderOutput(i.output));
  const poolBefore = poolIn?.output ? decodePool(poolIn.output) : null;
  // Every order in a scoop pays the same amortised base fee + simple fee; the pool's protocol_fees grows by the sum.
  const feeEach =
    poolBefore && orderInputs.length > 0
      ? (poolOut.extra.protocolFees - poolBefore.extra.protocolFees) / BigInt(orderInputs.length)
      : null;
  const swaps: ExecutedSwap[] = [];
  orderInputs.forEach((input, k) => {
    if (!input?.output) return;
    const o = decodeOrder(input.output, (h) => tx.datums?.[h]);
    if (!o || o.extra.details.type !== 'swap') return;
    const { offer, minReceived } = o.extra.details;
    let outIx = order ? 1 + k : -1;
    if (outIx < 0 || tx.outputs[outIx]?.address !== o.owner)
      outIx = tx.outputs.findIndex((x, ix) => ix > 0 && x.address === o.owner);
    const result = tx.outputs[outIx];
    if (!result) return;
    const fee = feeEach ?? o.batcherFee ?? 0n;
    const [give, take] = [offer[0], minReceived[0]];
    let gives = quantityOf(input.output.value, give) - quantityOf(result.value, give);
    if (give === LOVELACE) {
      gives -= fee;
      // Without the pool's fee delta, the fee is bounded by the datum's maximum: never report more than offered.
      if (feeEach === null && gives > offer[1]) gives = offer[1];
    }
    const takes =
      quantityOf(result.value, take) - quantityOf(input.output.value, take) + (take === LOVELACE ? fee : 0n);
    if (gives <= 0n || takes <= 0n) return;
    swaps.push({
      dex: 'sundaeswap-v3',
      txId: tx.id,
      orderRef: refString(input.ref),
      poolId: poolOut.poolId,
      trader: o.owner,
      tokenIn: give,
      tokenOut: take,
      amountIn: gives,
      amountOut: takes,
      side: sideOf(give, take),
      outputIndex: outIx,
      feeLovelace: chargedOrderFee(
        { tokenIn: give, tokenOut: take, amountIn: gives, amountOut: takes },
        input.output.value.ada.lovelace,
        result.value.ada.lovelace,
        o.batcherFee,
      ),
    });
  });
  return swaps;
}

function isPoolCreation(tx: Transaction): boolean {
  const minted = tx.mint?.[SUNDAESWAP_V3.poolScriptHash];
  return !!minted && Object.entries(minted).some(([n, q]) => n.startsWith(SUNDAESWAP_V3.poolNftPrefix) && q > 0n);
}

export const sundaeswapV3: DexAdapter<SundaeV3PoolExtra, SundaeV3OrderExtra> = {
  name: 'sundaeswap-v3',
  displayName: 'SundaeSwap V3',
  poolScriptHashes: [SUNDAESWAP_V3.poolScriptHash],
  orderScriptHashes: [SUNDAESWAP_V3.orderScriptHash],
  poolIdentityPolicy: SUNDAESWAP_V3.poolScriptHash,
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

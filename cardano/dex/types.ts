/**
 * The contract every DEX parser implements. Adapters are pure: they read Ogmios-shaped outputs and transactions
 * (activities/chain/types.ts) and never do I/O; whatever they need from earlier blocks (the outputs a transaction
 * spends, datums known only by hash) is passed in as a resolver.
 *
 * Units: assets are named by `unit` (`lovelace`, or policy id hex + asset name hex); every amount is a bigint
 * in base units (lovelace, token base units), exactly as on chain.
 */
import type { OutputReference, Transaction, TxOutput } from '../chain/types.js';
import type { PlutusData } from './plutus-data.js';

export type DexName =
  | 'minswap-v2'
  | 'minswap-v1'
  | 'sundaeswap-v3'
  | 'sundaeswap-v1'
  | 'wingriders-v2'
  | 'wingriders-v1'
  | 'splash'
  | 'muesliswap';

export type Unit = string;

/** The CBOR hex of a datum known by its hash (the spending tx's witness set `datums`, or a datum store). */
export type DatumResolver = (datumHash: string) => string | undefined;

/** The output an input spends, or null when it was created before the indexed range (unknown, never guessed). */
export type InputResolver = (ref: OutputReference) => TxOutput | null;

/** How the pool prices: constant product (x·y = k), a Curve-style stableswap, or Balancer-style weights. */
export type Curve = 'constant-product' | 'stable' | 'weighted';

/**
 * Total fee charged on the input of a swap, as `numerator / denominator`, per direction (A→B and B→A differ on
 * Minswap V2, SundaeSwap V3 and Splash bidirectional pools). Includes the protocol/treasury part.
 */
export interface PoolFees {
  aToB: bigint;
  bToA: bigint;
  denominator: bigint;
}

export interface PoolState<X = unknown> {
  dex: DexName;
  /** The DEX's own pool identifier (pool NFT name, identity token, LP asset name, 28-byte ident …). */
  poolId: string;
  curve: Curve;
  tokenA: Unit;
  tokenB: Unit;
  /** Tradable reserves per the DEX's rules (treasuries, protocol fees, oil and min-ADA already removed). */
  reserveA: bigint;
  reserveB: bigint;
  lpToken: Unit | null;
  /** LP tokens in circulation, or null when the DEX does not say. */
  totalLp: bigint | null;
  fee: PoolFees;
  /**
   * Balancer-style weights of tokenA and tokenB (`curve: 'weighted'`, Splash 20/80 pools: 1 and 4): the spot price
   * of tokenB in tokenA is (reserveA / a) / (reserveB / b), not the reserve ratio. Absent on every other curve.
   */
  weights?: { a: bigint; b: bigint };
  /** DEX-specific datum fields: what `amountOut` needs beyond the common fields and what the encoder writes back. */
  extra: X;
  /** The decoded datum, or null when the datum was only a hash that could not be resolved. */
  datum: PlutusData | null;
}

export type OrderKind = 'swap' | 'deposit' | 'withdraw' | 'zap-in' | 'zap-out' | 'limit' | 'other';

export interface Order<X = unknown> {
  dex: DexName;
  kind: OrderKind;
  /** Who receives the result (bech32, from the datum); null when the datum's address cannot be a real one. */
  owner: string | null;
  /** The pool the order targets when the datum names one. */
  poolId: string | null;
  direction: 'aToB' | 'bToA' | null;
  tokenIn: Unit | null;
  tokenOut: Unit | null;
  /** Amount offered, from the datum, or from the order's value minus fees/deposit where the datum does not say. */
  amountIn: bigint | null;
  minAmountOut: bigint | null;
  /** Maximum fee the batcher/executor may take, in lovelace. */
  batcherFee: bigint | null;
  /** Lovelace locked only to keep the UTxO (returned with the result). */
  deposit: bigint | null;
  extra: X;
  datum: PlutusData;
}

/** One order executed by a batch/settlement transaction. */
export interface ExecutedSwap {
  dex: DexName;
  txId: string;
  /** `txId#index` of the spent order output. */
  orderRef: string;
  poolId: string | null;
  trader: string | null;
  tokenIn: Unit;
  tokenOut: Unit;
  /** Amount of tokenIn that went into the pool(s) for this order (fees to the batcher excluded). */
  amountIn: bigint;
  /** Amount of tokenOut paid to the trader in this transaction. */
  amountOut: bigint;
  /** Relative to ADA when one side is ADA: `buy` = ADA in, token out; `sell` = token in, ADA out. */
  side: 'buy' | 'sell' | null;
  /** Index of the output that pays the trader, when one was identified. */
  outputIndex: number | null;
  /** Lovelace the batcher/executor took for this order (cardano/dex/order-fee.ts); null when it cannot be told. */
  feeLovelace: bigint | null;
}

/**
 * Method syntax on purpose: it keeps adapters with their own `extra` types assignable to `DexAdapter` (parameter
 * bivariance), so the registry can hold them all.
 */
export interface DexAdapter<P = unknown, O = unknown> {
  readonly name: DexName;
  readonly displayName: string;
  /** Payment credentials (script hashes) of pool outputs. */
  readonly poolScriptHashes: readonly string[];
  readonly orderScriptHashes: readonly string[];
  /** Policy of the pool identity token (validity NFT), or null when every pool has its own policy (Splash). */
  readonly poolIdentityPolicy: string | null;

  /** Pays to a pool script and carries the pool identity token. */
  isPoolOutput(output: TxOutput): boolean;
  isOrderOutput(output: TxOutput): boolean;
  decodePool(output: TxOutput, datums?: DatumResolver): PoolState<P> | null;
  decodeOrder(output: TxOutput, datums?: DatumResolver): Order<O> | null;
  /** Exact integer output of swapping `amountIn` of `tokenIn`; null when the pool's curve is not supported here. */
  amountOut(pool: PoolState<P>, tokenIn: Unit, amountIn: bigint): bigint | null;
  /** Smallest input that yields at least `amountOut`; null when unsupported or when the pool cannot pay it. */
  amountIn(pool: PoolState<P>, tokenOut: Unit, amountOut: bigint): bigint | null;
  /** Orders executed by a batch/settlement transaction (empty for anything else). */
  extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[];
  /** The transaction mints a pool identity token of this DEX. */
  isPoolCreation(tx: Transaction): boolean;
  /** CBOR hex of the pool datum exactly as the DEX writes it on chain. */
  encodePoolDatum(state: PoolState<P>): string;
  /** CBOR hex of the order datum exactly as the DEX's off-chain code writes it. */
  encodeOrderDatum(order: Order<O>): string;
}

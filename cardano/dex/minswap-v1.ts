/**
 * Minswap V1 (minswap/sdk @ aa3eac1 src/types/{constants,pool,order}.ts; dexter src/dex/minswap.ts).
 *
 * Pools: at the V1 pool script holding the factory token `MINSWAP`; pool id = pool NFT name (policy 0be55d26…),
 * LP asset = LP policy ‖ pool id. The datum is a hash (witness set), `C0[assetA, assetB, total_liquidity,
 * root_k_last, fee_sharing]`; reserves are the UTxO value (ADA pools: all the lovelace). Fee 0.3%.
 * Orders: `C0[sender, receiver, receiverDatumHash?, step, batcherFee, depositADA]`; results are matched to the
 * receiver (the V1 output ordering is not documented).
 */
import type { Transaction, TxOutput } from '../chain/types.js';
import { receiverMatchedSwaps, sortUnits } from './batch.js';
import { cpAmountIn, cpAmountOut } from './cpmm.js';
import type { PlutusConstr, PlutusData } from './plutus-data.js';
import {
  LOVELACE,
  PlutusShapeError,
  asAssetClass,
  asConstr,
  asHex,
  asInt,
  asOption,
  assetClassData,
  bech32ToPlutusAddress,
  bytes,
  constr,
  encodePlutusData,
  fieldsOf,
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
import { attempt, datumOf, hasPolicyAsset, mintedQuantity, paymentCredential, quantityOf, unitsOf } from './utxo.js';

export const MINSWAP_V1 = {
  poolScriptHash: 'e1317b152faac13426e6a83e06ff88a4d62cce3c1634ab0a5ec13309',
  orderScriptHash: 'a65ca58a4e9c755fa830173d2a5caed458ac0c73f97db7faae2e7e3b',
  factoryPolicy: '13aa2accf2e1561723aa26871e071fdf32c867cff7e7d50ad470d62f',
  factoryName: '4d494e53574150', // "MINSWAP"
  poolNftPolicy: '0be55d262b29f564998ff81efe21bdc0022621c12f15af08d0f2ddb1',
  lpPolicy: 'e4214b7cce62ac6fbba385d164df48e157eae5863521b4b67ca71d86',
  feeNumerator: 30n,
  feeDenominator: 10000n,
} as const;

export interface MinswapV1PoolExtra {
  rootKLast: bigint | null;
  /** `Option<…>` fee-sharing receiver, kept verbatim. */
  feeSharing: PlutusData | null;
}

export type MinswapV1Step =
  | { type: 'swap-exact-in'; desired: Unit; minimumReceive: bigint }
  | { type: 'swap-exact-out'; desired: Unit; expectedReceive: bigint }
  | { type: 'deposit'; minimumLp: bigint }
  | { type: 'withdraw'; minimumA: bigint; minimumB: bigint }
  | { type: 'zap-in'; desired: Unit; minimumLp: bigint };

export interface MinswapV1OrderExtra {
  sender: string | null;
  receiverDatumHash: string | null;
  step: MinswapV1Step;
  /** Raw address data, so synthetic datums with short key hashes still re-encode. */
  senderData: PlutusData;
  receiverData: PlutusData;
}

export type MinswapV1Pool = PoolState<MinswapV1PoolExtra>;
export type MinswapV1Order = Order<MinswapV1OrderExtra>;

function isPoolOutput(output: TxOutput): boolean {
  return (
    paymentCredential(output.address) === MINSWAP_V1.poolScriptHash &&
    hasPolicyAsset(output.value, MINSWAP_V1.factoryPolicy, MINSWAP_V1.factoryName)
  );
}

function decodePool(output: TxOutput, datums?: DatumResolver): MinswapV1Pool | null {
  if (!isPoolOutput(output)) return null;
  const nft = Object.keys(output.value[MINSWAP_V1.poolNftPolicy] ?? {})[0];
  if (!nft) return null;
  const lp = MINSWAP_V1.lpPolicy + nft;
  const d = datumOf(output, datums);
  const fromDatum = d
    ? attempt(() => {
        const f = fieldsOf(d, 0, 5);
        return {
          tokenA: asAssetClass(f[0]),
          tokenB: asAssetClass(f[1]),
          totalLp: asInt(f[2]),
          extra: { rootKLast: asInt(f[3]), feeSharing: asOption(f[4] as PlutusData, (x) => x) },
        };
      })
    : null;
  let tokenA: Unit;
  let tokenB: Unit;
  if (fromDatum) [tokenA, tokenB] = [fromDatum.tokenA, fromDatum.tokenB];
  else {
    // Datum hash not resolvable: the pair is what the value holds besides the pool's own tokens.
    const own: string[] = [MINSWAP_V1.factoryPolicy, MINSWAP_V1.poolNftPolicy];
    const units = unitsOf(output.value)
      .filter(([u, q]) => q > 0n && u !== lp && !own.includes(u.slice(0, 56)))
      .map(([u]) => u);
    const pair = units.length === 2 ? units : units.length === 3 && units[0] === LOVELACE ? units.slice(1) : null;
    if (!pair) return null;
    [tokenA, tokenB] = sortUnits(pair[0] as Unit, pair[1] as Unit);
  }
  // Zap artefacts: a "pool" whose second asset is a Minswap LP token is not a tradable pair.
  if (splitUnit(tokenB).policyId === MINSWAP_V1.lpPolicy) return null;
  return {
    dex: 'minswap-v1',
    poolId: nft,
    curve: 'constant-product',
    tokenA,
    tokenB,
    reserveA: quantityOf(output.value, tokenA),
    reserveB: quantityOf(output.value, tokenB),
    lpToken: lp,
    totalLp: fromDatum?.totalLp ?? null,
    fee: { aToB: MINSWAP_V1.feeNumerator, bToA: MINSWAP_V1.feeNumerator, denominator: MINSWAP_V1.feeDenominator },
    extra: fromDatum?.extra ?? { rootKLast: null, feeSharing: null },
    datum: d,
  };
}

function encodePoolDatum(p: MinswapV1Pool): string {
  return encodePlutusData(
    constr(
      0,
      assetClassData(p.tokenA),
      assetClassData(p.tokenB),
      p.totalLp ?? 0n,
      p.extra.rootKLast ?? 0n,
      optionData(p.extra.feeSharing, (x) => x),
    ),
    { indefinite: true },
  );
}

function readStep(d: PlutusData | undefined): MinswapV1Step {
  const c = asConstr(d);
  const f = c.fields;
  switch (c.constr) {
    case 0:
      return { type: 'swap-exact-in', desired: asAssetClass(f[0]), minimumReceive: asInt(f[1]) };
    case 1:
      return { type: 'swap-exact-out', desired: asAssetClass(f[0]), expectedReceive: asInt(f[1]) };
    case 2:
      return { type: 'deposit', minimumLp: asInt(f[0]) };
    case 3:
      return { type: 'withdraw', minimumA: asInt(f[0]), minimumB: asInt(f[1]) };
    case 4:
      return { type: 'zap-in', desired: asAssetClass(f[0]), minimumLp: asInt(f[1]) };
    default:
      throw new PlutusShapeError(`unknown Minswap V1 step ${c.constr}`);
  }
}

function stepData(s: MinswapV1Step): PlutusConstr {
  switch (s.type) {
    case 'swap-exact-in':
      return constr(0, assetClassData(s.desired), s.minimumReceive);
    case 'swap-exact-out':
      return constr(1, assetClassData(s.desired), s.expectedReceive);
    case 'deposit':
      return constr(2, s.minimumLp);
    case 'withdraw':
      return constr(3, s.minimumA, s.minimumB);
    case 'zap-in':
      return constr(4, assetClassData(s.desired), s.minimumLp);
  }
}

const KIND: Record<MinswapV1Step['type'], OrderKind> = {
  'swap-exact-in': 'swap',
  'swap-exact-out': 'swap',
  deposit: 'deposit',
  withdraw: 'withdraw',
  'zap-in': 'zap-in',
};

function isOrderOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === MINSWAP_V1.orderScriptHash;
}

/** Decodes an order datum; `output` (when given) supplies the network and the offered amount. */
export function decodeMinswapV1OrderDatum(d: PlutusData, output?: TxOutput): MinswapV1Order {
  const f = fieldsOf(d, 0, 6);
  const network = output ? networkOf(output.address) : 'mainnet';
  const step = readStep(f[3]);
  const batcherFee = asInt(f[4]);
  const deposit = asInt(f[5]);
  const desired = 'desired' in step ? step.desired : null;
  // The offered asset is the one the order holds besides ADA for fees (ADA itself when it holds no token).
  const held = output ? unitsOf(output.value).filter(([u, q]) => u !== LOVELACE && q > 0n && u !== desired) : [];
  const tokenIn =
    step.type === 'swap-exact-in' || step.type === 'swap-exact-out'
      ? held.length === 1
        ? (held[0] as [Unit, bigint])[0]
        : desired === LOVELACE
          ? null
          : LOVELACE
      : null;
  const amountIn =
    tokenIn && output ? quantityOf(output.value, tokenIn) - (tokenIn === LOVELACE ? batcherFee + deposit : 0n) : null;
  return {
    dex: 'minswap-v1',
    kind: KIND[step.type],
    owner: attempt(() => plutusAddressToBech32(f[1], network)),
    poolId: null,
    direction: null,
    tokenIn,
    tokenOut: desired,
    amountIn,
    minAmountOut:
      step.type === 'swap-exact-in'
        ? step.minimumReceive
        : step.type === 'swap-exact-out'
          ? step.expectedReceive
          : null,
    batcherFee,
    deposit,
    extra: {
      sender: attempt(() => plutusAddressToBech32(f[0], network)),
      receiverDatumHash: asOption(f[2] as PlutusData, asHex),
      step,
      senderData: f[0] as PlutusData,
      receiverData: f[1] as PlutusData,
    },
    datum: d,
  };
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): MinswapV1Order | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeMinswapV1OrderDatum(d, output)) : null;
}

function encodeOrderDatum(o: MinswapV1Order): string {
  const x = o.extra;
  const addr = (bech: string | null, raw: PlutusData) => (bech ? bech32ToPlutusAddress(bech) : raw);
  return encodePlutusData(
    constr(
      0,
      addr(x.sender, x.senderData),
      addr(o.owner, x.receiverData),
      optionData(x.receiverDatumHash, bytes),
      stepData(x.step),
      o.batcherFee ?? 0n,
      o.deposit ?? 0n,
    ),
    { indefinite: true },
  );
}

function amountOut(pool: MinswapV1Pool, tokenIn: Unit, amount: bigint): bigint | null {
  if (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB) return null;
  const [rIn, rOut] = tokenIn === pool.tokenA ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountOut(rIn, rOut, amount, MINSWAP_V1.feeNumerator, MINSWAP_V1.feeDenominator);
}

function amountIn(pool: MinswapV1Pool, tokenOut: Unit, out: bigint): bigint | null {
  if (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB) return null;
  const [rIn, rOut] = tokenOut === pool.tokenB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountIn(rIn, rOut, out, MINSWAP_V1.feeNumerator, MINSWAP_V1.feeDenominator);
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  return receiverMatchedSwaps<MinswapV1PoolExtra, MinswapV1OrderExtra>(
    {
      dex: 'minswap-v1',
      decodePool,
      decodeOrder,
      resolveSwap: (o, input, pool) => {
        const out = o.tokenOut;
        if (!out || (out !== pool.tokenA && out !== pool.tokenB)) return null;
        const tokenIn = out === pool.tokenA ? pool.tokenB : pool.tokenA;
        const amount =
          quantityOf(input.value, tokenIn) - (tokenIn === LOVELACE ? (o.batcherFee ?? 0n) + (o.deposit ?? 0n) : 0n);
        return { tokenIn, tokenOut: out, amountIn: amount };
      },
      adaReturned: (o) => o.deposit ?? 0n,
      // SwapExactOut locks the most the trader will pay; the batcher returns what the pool did not take with the
      // bought tokens (and the deposit, when the change is ADA).
      changeOf: (o, result, tokenIn) => {
        if (o.extra.step.type !== 'swap-exact-out') return 0n;
        const change = quantityOf(result.value, tokenIn) - (tokenIn === LOVELACE ? (o.deposit ?? 0n) : 0n);
        return change > 0n ? change : 0n;
      },
    },
    tx,
    resolveInput,
  );
}

function isPoolCreation(tx: Transaction): boolean {
  return mintedQuantity(tx, MINSWAP_V1.factoryPolicy, MINSWAP_V1.factoryName) > 0n;
}

export const minswapV1: DexAdapter<MinswapV1PoolExtra, MinswapV1OrderExtra> = {
  name: 'minswap-v1',
  displayName: 'Minswap V1',
  poolScriptHashes: [MINSWAP_V1.poolScriptHash],
  orderScriptHashes: [MINSWAP_V1.orderScriptHash],
  poolIdentityPolicy: MINSWAP_V1.poolNftPolicy,
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

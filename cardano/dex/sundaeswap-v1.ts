/**
 * SundaeSwap V1 (legacy Plutus V1; dexter src/dex/sundaeswap-v1.ts + definitions, sundae-sdk Contract.v1.ts).
 *
 * Pools: at the V1 pool script holding the pool NFT `7020 ‖ ident` (policy 0029cb7c…; LP = `6c7020 ‖ ident`);
 * datum (by hash) `C0[ C0[assetA, assetB], ident, total_lp, C0[feeNum, feeDen] ]`; reserves = UTxO value.
 * Orders: `C0[ ident, C0[ C0[Address, Option<datumHash>], Option<alternate> ], scooperFee, action ]`, swap action
 * `C0[ C0[] (gives A) | C1[] (gives B), amountIn, Option<minReceive> ]`.
 * Swap rounding follows dexter's estimate (fee = ⌈in·num/den⌉, out = rOut − ⌈rIn·rOut/(rIn + in − fee)⌉); the
 * on-chain V1 rounding was not re-derived from the Plutus source.
 */
import type { Transaction, TxOutput } from '../chain/types.js';
import { receiverMatchedSwaps } from './batch.js';
import { cpCeilAmountIn, cpCeilAmountOut } from './cpmm.js';
import type { PlutusConstr, PlutusData } from './plutus-data.js';
import {
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
} from './plutus-data.js';
import type { DatumResolver, DexAdapter, ExecutedSwap, InputResolver, Order, PoolState, Unit } from './types.js';
import { attempt, datumOf, paymentCredential, quantityOf } from './utxo.js';

export const SUNDAESWAP_V1 = {
  poolScriptHash: '4020e7fc2de75a0729c3cc3af715b34d98381e0cdbcfa99c950bc3ac',
  orderScriptHash: 'ba158766c1bae60e2117ee8987621441fac66a5e0fb9c7aca58cf20a',
  policy: '0029cb7c88c7567b63d1a512c0ed626aa169688ec980730c0473b913',
  poolNftPrefix: '7020', // "p "
  lpPrefix: '6c7020', // "lp "
  /** Lovelace every order locks to be returned with the result. */
  deposit: 2_000_000n,
} as const;

export type SundaeV1PoolExtra = Record<string, never>;

export type SundaeV1Action =
  | { type: 'swap'; givesA: boolean; amount: bigint; minReceive: bigint | null }
  | { type: 'withdraw'; lp: bigint }
  | { type: 'deposit'; data: PlutusConstr };

export interface SundaeV1OrderExtra {
  ident: string;
  receiverDatumHash: string | null;
  alternate: string | null;
  scooperFee: bigint;
  action: SundaeV1Action;
  receiverData: PlutusData;
}

export type SundaeV1Pool = PoolState<SundaeV1PoolExtra>;
export type SundaeV1Order = Order<SundaeV1OrderExtra>;

function poolNft(output: TxOutput): string | null {
  const names = Object.keys(output.value[SUNDAESWAP_V1.policy] ?? {});
  return names.find((n) => n.startsWith(SUNDAESWAP_V1.poolNftPrefix)) ?? null;
}

function isPoolOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === SUNDAESWAP_V1.poolScriptHash && poolNft(output) !== null;
}

function decodePool(output: TxOutput, datums?: DatumResolver): SundaeV1Pool | null {
  if (!isPoolOutput(output)) return null;
  const d = datumOf(output, datums);
  if (!d) return null;
  return attempt(() => {
    const f = fieldsOf(d, 0, 4);
    const [a, b] = fieldsOf(f[0], 0, 2);
    const tokenA = asAssetClass(a);
    const tokenB = asAssetClass(b);
    const ident = asHex(f[1]);
    const [num, den] = fieldsOf(f[3], 0, 2).map(asInt) as [bigint, bigint];
    return {
      dex: 'sundaeswap-v1' as const,
      poolId: ident,
      curve: 'constant-product' as const,
      tokenA,
      tokenB,
      reserveA: quantityOf(output.value, tokenA),
      reserveB: quantityOf(output.value, tokenB),
      lpToken: SUNDAESWAP_V1.policy + SUNDAESWAP_V1.lpPrefix + ident,
      totalLp: asInt(f[2]),
      fee: { aToB: num, bToA: num, denominator: den },
      extra: {},
      datum: d,
    };
  });
}

function encodePoolDatum(p: SundaeV1Pool): string {
  return encodePlutusData(
    constr(
      0,
      constr(0, assetClassData(p.tokenA), assetClassData(p.tokenB)),
      bytes(p.poolId),
      p.totalLp ?? 0n,
      constr(0, p.fee.aToB, p.fee.denominator),
    ),
    { indefinite: true },
  );
}

function readAction(d: PlutusData | undefined): SundaeV1Action {
  const c = asConstr(d);
  if (c.constr === 0) {
    const [coin, amount, min] = fieldsOf(c, 0, 3);
    const side = asConstr(coin);
    if (side.constr > 1) throw new PlutusShapeError('unknown coin');
    return {
      type: 'swap',
      givesA: side.constr === 0,
      amount: asInt(amount),
      minReceive: asOption(min as PlutusData, asInt),
    };
  }
  if (c.constr === 1) return { type: 'withdraw', lp: asInt(fieldsOf(c, 1, 1)[0]) };
  if (c.constr === 2) return { type: 'deposit', data: c };
  throw new PlutusShapeError(`unknown SundaeSwap V1 action ${c.constr}`);
}

function actionData(a: SundaeV1Action): PlutusData {
  if (a.type === 'swap')
    return constr(
      0,
      constr(a.givesA ? 0 : 1),
      a.amount,
      optionData(a.minReceive, (n) => n),
    );
  if (a.type === 'withdraw') return constr(1, a.lp);
  return a.data;
}

function isOrderOutput(output: TxOutput): boolean {
  return paymentCredential(output.address) === SUNDAESWAP_V1.orderScriptHash;
}

export function decodeSundaeV1OrderDatum(d: PlutusData, output?: TxOutput): SundaeV1Order {
  const f = fieldsOf(d, 0, 4);
  const [dest, alternate] = fieldsOf(f[1], 0, 2);
  const [addr, dh] = fieldsOf(dest, 0, 2);
  const action = readAction(f[3]);
  const scooperFee = asInt(f[2]);
  return {
    dex: 'sundaeswap-v1',
    kind: action.type,
    owner: attempt(() => plutusAddressToBech32(addr, output ? networkOf(output.address) : 'mainnet')),
    poolId: asHex(f[0]),
    direction: action.type === 'swap' ? (action.givesA ? 'aToB' : 'bToA') : null,
    tokenIn: null,
    tokenOut: null,
    amountIn: action.type === 'swap' ? action.amount : null,
    minAmountOut: action.type === 'swap' ? action.minReceive : null,
    batcherFee: scooperFee,
    deposit: SUNDAESWAP_V1.deposit,
    extra: {
      ident: asHex(f[0]),
      receiverDatumHash: asOption(dh as PlutusData, asHex),
      alternate: asOption(alternate as PlutusData, asHex),
      scooperFee,
      action,
      receiverData: addr as PlutusData,
    },
    datum: d,
  };
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): SundaeV1Order | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeSundaeV1OrderDatum(d, output)) : null;
}

function encodeOrderDatum(o: SundaeV1Order): string {
  const x = o.extra;
  return encodePlutusData(
    constr(
      0,
      bytes(x.ident),
      constr(
        0,
        constr(0, o.owner ? bech32ToPlutusAddress(o.owner) : x.receiverData, optionData(x.receiverDatumHash, bytes)),
        optionData(x.alternate, bytes),
      ),
      x.scooperFee,
      actionData(x.action),
    ),
    { indefinite: true },
  );
}

function amountOut(pool: SundaeV1Pool, tokenIn: Unit, amount: bigint): bigint | null {
  if (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB) return null;
  const [rIn, rOut] = tokenIn === pool.tokenA ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpCeilAmountOut(rIn, rOut, amount, pool.fee.aToB, pool.fee.denominator);
}

function amountIn(pool: SundaeV1Pool, tokenOut: Unit, want: bigint): bigint | null {
  if (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB) return null;
  const [rIn, rOut] = tokenOut === pool.tokenB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpCeilAmountIn(rIn, rOut, want, pool.fee.aToB, pool.fee.denominator);
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  return receiverMatchedSwaps<SundaeV1PoolExtra, SundaeV1OrderExtra>(
    {
      dex: 'sundaeswap-v1',
      decodePool,
      decodeOrder,
      resolveSwap: (o, _input, pool) => {
        const a = o.extra.action;
        if (a.type !== 'swap') return null;
        const [tokenIn, tokenOut] = a.givesA ? [pool.tokenA, pool.tokenB] : [pool.tokenB, pool.tokenA];
        return { tokenIn, tokenOut, amountIn: a.amount };
      },
      adaReturned: (o) => o.deposit ?? 0n,
    },
    tx,
    resolveInput,
  );
}

function isPoolCreation(tx: Transaction): boolean {
  const minted = tx.mint?.[SUNDAESWAP_V1.policy] ?? {};
  return Object.entries(minted).some(([n, q]) => n.startsWith(SUNDAESWAP_V1.poolNftPrefix) && q > 0n);
}

export const sundaeswapV1: DexAdapter<SundaeV1PoolExtra, SundaeV1OrderExtra> = {
  name: 'sundaeswap-v1',
  displayName: 'SundaeSwap V1',
  poolScriptHashes: [SUNDAESWAP_V1.poolScriptHash],
  orderScriptHashes: [SUNDAESWAP_V1.orderScriptHash],
  poolIdentityPolicy: SUNDAESWAP_V1.policy,
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

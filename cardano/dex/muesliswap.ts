/**
 * MuesliSwap AMM pools and order-book orders (dexter src/dex/muesliswap.ts + definitions; iris
 * src/dex/MuesliSwapAnalyzer.ts for the order addresses).
 *
 * Pools: at one of the two AMM pool scripts holding the validity token `de9b7567…‖"MuesliSwap_AMM"` (concentrated
 * pools carry "MuesliSwap_cLP" under another policy and are not constant-product: skipped); pool id = pool NFT
 * name; reserves = UTxO value; datum `C0[assetA, assetB, totalLp, lpFeeBps]`, or the 7-field variant
 * `C0[assetA, assetB, totalLp, _, _, lpFeeBps, _]` seen on chain (fields not modelled are kept in `extra.raw`).
 * Orders: `C0[C0[creator, buyPolicy, buyName, sellPolicy, sellName, buyAmount, allowPartial, feesAndDeposit]]`
 * (older versions put the fee before the Bool); the offered asset is what the order holds beyond the fees.
 * Order-book matches (order against order, no pool) are not swaps against a pool and are not extracted here.
 */
import type { Transaction, TxOutput } from '../chain/types.js';
import { receiverMatchedSwaps } from './batch.js';
import { cpAmountIn, cpAmountOut } from './cpmm.js';
import type { PlutusData } from './plutus-data.js';
import {
  LOVELACE,
  PlutusShapeError,
  asAssetClass,
  asBool,
  asHex,
  asInt,
  assetClassData,
  bech32ToPlutusAddress,
  boolData,
  bytes,
  constr,
  encodePlutusData,
  fieldsOf,
  isConstr,
  networkOf,
  plutusAddressToBech32,
  splitUnit,
  unitOf,
} from './plutus-data.js';
import type { DatumResolver, DexAdapter, ExecutedSwap, InputResolver, Order, PoolState, Unit } from './types.js';
import { attempt, datumOf, hasPolicyAsset, mintedQuantity, paymentCredential, quantityOf, unitsOf } from './utxo.js';

export const MUESLISWAP = {
  poolScriptHashes: [
    '7045237d1eb0199c84dffe58fe6df7dc5d255eb4d418e4146d5721f8',
    'e8baad9288dc9abdc099b46f2ac006b1a82c7df4996e067f00c04e8d',
  ],
  factoryPolicy: 'de9b756719341e79785aa13c164e7fe68c189ed04d61c9876b2fe53f',
  factoryName: '4d7565736c69537761705f414d4d', // "MuesliSwap_AMM"
  poolNftPolicies: [
    '909133088303c49f3a30f1cc8ed553a73857a29779f6c6561cd8093f',
    '7a8041a0693e6605d010d5185b034d55c79eaf7ef878aae3bdcdbf67',
  ],
  lpPolicy: 'af3d70acf4bd5b3abb319a7d75c89fb3e56eafcdd46b2e9b57a2557f',
  /** Order-book and AMM order scripts (iris ORDER_ADDRESSES) and the batch-order (deposit/withdraw) script. */
  orderScriptHashes: [
    'ea184d0a7e640c4b5daa3f2cef851e75477729c2fd89f6ffbed7874c',
    '15b95fdaceeb507073a1bd198803373beeafbd82560fbf8abe9073ff',
    'f1ec90d33208778214cdc7fa90858ac5620253d99f84c10335928cab',
    'fea3f75281aa7f3f9f1a488030006cecd96290e9d3e7921a6b10c903',
    '00fb107bfbd51b3a5638867d3688e986ba38ff34fb738f5bd42b20d5',
  ],
  batchOrderScriptHash: '73ede893f547edbd25da6953fda33caacd01f44047922bf7c5ceb951',
  feeDenominator: 10000n,
} as const;

export interface MuesliPoolExtra {
  /** The datum fields after `totalLp` exactly as on chain (fee included), for re-encoding. */
  raw: PlutusData[];
}

export interface MuesliOrderExtra {
  creatorData: PlutusData;
  allowPartial: boolean;
  feesAndDeposit: bigint;
  /** Older orders put the fee before the Bool. */
  feeFirst: boolean;
}

export type MuesliPool = PoolState<MuesliPoolExtra>;
export type MuesliOrder = Order<MuesliOrderExtra>;

function isPoolOutput(output: TxOutput): boolean {
  const cred = paymentCredential(output.address);
  return (
    cred !== null &&
    (MUESLISWAP.poolScriptHashes as readonly string[]).includes(cred) &&
    hasPolicyAsset(output.value, MUESLISWAP.factoryPolicy, MUESLISWAP.factoryName)
  );
}

function decodePool(output: TxOutput, datums?: DatumResolver): MuesliPool | null {
  if (!isPoolOutput(output)) return null;
  const nftPolicy = MUESLISWAP.poolNftPolicies.find((p) => output.value[p]);
  const nft = nftPolicy ? Object.keys(output.value[nftPolicy] ?? {})[0] : undefined;
  const d = datumOf(output, datums);
  if (!nft || !d) return null;
  return attempt(() => {
    const f = fieldsOf(d, 0);
    if (f.length !== 4 && f.length !== 7) throw new PlutusShapeError(`MuesliSwap pool datum with ${f.length} fields`);
    const tokenA = asAssetClass(f[0]);
    const tokenB = asAssetClass(f[1]);
    const fee = asInt(f.length === 4 ? f[3] : f[5]);
    return {
      dex: 'muesliswap' as const,
      poolId: nft,
      curve: 'constant-product' as const,
      tokenA,
      tokenB,
      reserveA: quantityOf(output.value, tokenA),
      reserveB: quantityOf(output.value, tokenB),
      lpToken: MUESLISWAP.lpPolicy + nft,
      totalLp: asInt(f[2]),
      fee: { aToB: fee, bToA: fee, denominator: MUESLISWAP.feeDenominator },
      extra: { raw: f.slice(3) },
      datum: d,
    };
  });
}

function encodePoolDatum(p: MuesliPool): string {
  const rest =
    p.extra.raw.length === 4 ? [...p.extra.raw.slice(0, 2), p.fee.aToB, p.extra.raw[3] as PlutusData] : [p.fee.aToB];
  return encodePlutusData(constr(0, assetClassData(p.tokenA), assetClassData(p.tokenB), p.totalLp ?? 0n, ...rest), {
    indefinite: true,
  });
}

function isOrderOutput(output: TxOutput): boolean {
  const cred = paymentCredential(output.address);
  return cred !== null && (MUESLISWAP.orderScriptHashes as readonly string[]).includes(cred);
}

export function decodeMuesliOrderDatum(d: PlutusData, output?: TxOutput): MuesliOrder {
  const [inner] = fieldsOf(d, 0, 1);
  const f = fieldsOf(inner, 0, 8);
  const feeFirst = !isConstr(f[6] as PlutusData);
  const allowPartial = asBool(feeFirst ? f[7] : f[6]);
  const feesAndDeposit = asInt(feeFirst ? f[6] : f[7]);
  const tokenOut = unitOf(asHex(f[1]), asHex(f[2]));
  const sell = unitOf(asHex(f[3]), asHex(f[4]));
  // Some orders leave the sell asset empty; then the offered asset is the one token the order holds, else ADA.
  const held = output ? unitsOf(output.value).filter(([u, q]) => u !== LOVELACE && q > 0n && u !== tokenOut) : [];
  const tokenIn = sell !== LOVELACE ? sell : held.length === 1 ? (held[0] as [Unit, bigint])[0] : LOVELACE;
  return {
    dex: 'muesliswap',
    kind: 'swap',
    owner: attempt(() => plutusAddressToBech32(f[0], output ? networkOf(output.address) : 'mainnet')),
    poolId: null,
    direction: null,
    tokenIn,
    tokenOut,
    amountIn: output ? quantityOf(output.value, tokenIn) - (tokenIn === LOVELACE ? feesAndDeposit : 0n) : null,
    minAmountOut: asInt(f[5]),
    batcherFee: null,
    deposit: null,
    extra: { creatorData: f[0] as PlutusData, allowPartial, feesAndDeposit, feeFirst },
    datum: d,
  };
}

function decodeOrder(output: TxOutput, datums?: DatumResolver): MuesliOrder | null {
  if (!isOrderOutput(output)) return null;
  const d = datumOf(output, datums);
  return d ? attempt(() => decodeMuesliOrderDatum(d, output)) : null;
}

function encodeOrderDatum(o: MuesliOrder): string {
  const x = o.extra;
  const buy = splitUnit(o.tokenOut ?? LOVELACE);
  const sell = splitUnit(o.tokenIn ?? LOVELACE);
  const tail = x.feeFirst ? [x.feesAndDeposit, boolData(x.allowPartial)] : [boolData(x.allowPartial), x.feesAndDeposit];
  return encodePlutusData(
    constr(
      0,
      constr(
        0,
        o.owner ? bech32ToPlutusAddress(o.owner) : x.creatorData,
        bytes(buy.policyId),
        bytes(buy.assetName),
        bytes(sell.policyId),
        bytes(sell.assetName),
        o.minAmountOut ?? 0n,
        ...tail,
      ),
    ),
    { indefinite: true },
  );
}

function amountOut(pool: MuesliPool, tokenIn: Unit, amount: bigint): bigint | null {
  if (tokenIn !== pool.tokenA && tokenIn !== pool.tokenB) return null;
  const [rIn, rOut] = tokenIn === pool.tokenA ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountOut(rIn, rOut, amount, pool.fee.aToB, pool.fee.denominator);
}

function amountIn(pool: MuesliPool, tokenOut: Unit, out: bigint): bigint | null {
  if (tokenOut !== pool.tokenA && tokenOut !== pool.tokenB) return null;
  const [rIn, rOut] = tokenOut === pool.tokenB ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  return cpAmountIn(rIn, rOut, out, pool.fee.aToB, pool.fee.denominator);
}

function extractSwaps(tx: Transaction, resolveInput: InputResolver): ExecutedSwap[] {
  return receiverMatchedSwaps<MuesliPoolExtra, MuesliOrderExtra>(
    {
      dex: 'muesliswap',
      decodePool,
      decodeOrder,
      resolveSwap: (o, _input, pool) => {
        if (!o.tokenIn || !o.tokenOut || o.amountIn === null) return null;
        const pair = new Set([pool.tokenA, pool.tokenB]);
        return pair.has(o.tokenIn) && pair.has(o.tokenOut)
          ? { tokenIn: o.tokenIn, tokenOut: o.tokenOut, amountIn: o.amountIn }
          : null;
      },
      // The fee/deposit split of `feesAndDeposit` is not in the datum; the returned ADA is bounded by it.
      adaReturned: (o) => o.extra.feesAndDeposit,
    },
    tx,
    resolveInput,
  );
}

function isPoolCreation(tx: Transaction): boolean {
  return mintedQuantity(tx, MUESLISWAP.factoryPolicy, MUESLISWAP.factoryName) > 0n;
}

export const muesliswap: DexAdapter<MuesliPoolExtra, MuesliOrderExtra> = {
  name: 'muesliswap',
  displayName: 'MuesliSwap',
  poolScriptHashes: MUESLISWAP.poolScriptHashes,
  orderScriptHashes: MUESLISWAP.orderScriptHashes,
  poolIdentityPolicy: MUESLISWAP.factoryPolicy,
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

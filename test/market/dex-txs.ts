/**
 * DEX transactions in the real on-chain formats, built with the adapters' own encoders: Minswap V2 pool creation,
 * order placement, batches (the validator's processing order and `order value − fee − in + out` results, amounts
 * from `applyMinswapV2Swap`) and cancels; a SundaeSwap V3 pool creation; a CIP-68 (333) token mint with its (100)
 * reference datum. Pool templates are the real ADA/SNEK pools of mainnet block 12069665 and 11322286.
 */
import { baseAddress } from '../../cardano/address.js';
import type { Transaction, TxOutput, Value } from '../../cardano/chain/types.js';
import {
  MINSWAP_V2,
  applyMinswapV2Swap,
  minswapV2,
  minswapV2LpAssetName,
  type MinswapV2Order,
  type MinswapV2Pool,
} from '../../cardano/dex/minswap-v2.js';
import { SUNDAESWAP_V3, sundaeswapV3, type SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import { bytes, constr, encodePlutusData, list, optionData, type PlutusData } from '../../cardano/dex/plutus-data.js';
import { quantityOf, sortedInputs, unitsOf } from '../../cardano/dex/utxo.js';
import { block12069665, realTx } from '../dex/fixtures.js';
import { h, type ChainBuilder } from './chain.js';

export const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
export const USDM = 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d';
export const ORDER_ADDRESS = 'addr1w8p79rpkcdz8x9d6tft0x0dx5mwuzac2sa4gm8cvkw5hcnqst2ctf';
export const BATCHER_FEE = 2_000_000n;
const DEPOSIT = 2_000_000n;

/** The real ADA/SNEK pool output of block 12069665 (tx 6, output 1). */
export const realSnekPool = () => {
  const tx = block12069665()[6] as Transaction;
  return { ref: `${tx.id}#1`, out: tx.outputs[1] as TxOutput };
};
const template = () => minswapV2.decodePool(realSnekPool().out) as MinswapV2Pool;

/** Wallets with stake keys (makers are stake addresses). */
export const wallet = (i: number): string =>
  baseAddress('mainnet', h(`pay-${i}`).slice(0, 56), h(`stake-${i}`).slice(0, 56));

export function valueOf(entries: Array<[string, bigint]>): Value {
  const v: Value = { ada: { lovelace: 0n } };
  for (const [unit, q] of entries) {
    if (q === 0n) continue;
    if (unit === 'lovelace') v.ada.lovelace += q;
    else {
      const p = (v[unit.slice(0, 56)] ??= {});
      p[unit.slice(56)] = (p[unit.slice(56)] ?? 0n) + q;
    }
  }
  return v;
}

const utf8hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

/** Mints `qty` of `policy.(333)name` and its (100) reference NFT, whose output carries the metadata datum. */
export function mintCip68(
  b: ChainBuilder,
  policy: string,
  name: string,
  qty: bigint,
  meta: { name: string; ticker: string; decimals: number; description: string; url: string; logo: string },
): Transaction {
  const suffix = utf8hex(name);
  const fields: Array<[PlutusData, PlutusData]> = [
    [bytes(utf8hex('name')), bytes(utf8hex(meta.name))],
    [bytes(utf8hex('ticker')), bytes(utf8hex(meta.ticker))],
    [bytes(utf8hex('decimals')), BigInt(meta.decimals)],
    [bytes(utf8hex('description')), bytes(utf8hex(meta.description))],
    [bytes(utf8hex('url')), bytes(utf8hex(meta.url))],
    // A long URI split into byte-string chunks, as CIP-25/68 allow.
    [bytes(utf8hex('logo')), list([bytes(utf8hex(meta.logo.slice(0, 20))), bytes(utf8hex(meta.logo.slice(20)))])],
  ];
  const datum = encodePlutusData(constr(0, { map: fields }, 1n, constr(0)));
  return {
    id: b.txId(),
    spends: 'inputs',
    inputs: [b.outsideInput()],
    outputs: [
      {
        address: wallet(90),
        value: valueOf([
          ['lovelace', 2_000_000n],
          [`${policy}000643b0${suffix}`, 1n],
        ]),
        datum,
      },
      {
        address: wallet(0),
        value: valueOf([
          ['lovelace', 2_000_000n],
          [`${policy}0014df10${suffix}`, qty],
        ]),
      },
    ],
    mint: { [policy]: { [`0014df10${suffix}`]: qty, [`000643b0${suffix}`]: 1n } },
  };
}

/** A Minswap V2 pool creation: mints the MSP validity NFT and the LP supply, pays the pool output. */
export function createMinswapPool(
  b: ChainBuilder,
  token: string,
  ada: bigint,
  tok: bigint,
): { tx: Transaction; pool: MinswapV2Pool } {
  const t = template();
  const lpName = minswapV2LpAssetName('lovelace', token);
  const totalLp = sqrt(ada * tok);
  const pool: MinswapV2Pool = {
    ...t,
    poolId: lpName,
    tokenA: 'lovelace',
    tokenB: token,
    reserveA: ada,
    reserveB: tok,
    lpToken: MINSWAP_V2.authenPolicy + lpName,
    totalLp,
  };
  const out: TxOutput = {
    address: realSnekPool().out.address,
    value: valueOf([
      ['lovelace', ada + 4_500_000n],
      [MINSWAP_V2.authenPolicy + MINSWAP_V2.poolNftName, 1n],
      [MINSWAP_V2.authenPolicy + lpName, MINSWAP_V2.maxLp - totalLp],
      [token, tok],
    ]),
    datum: minswapV2.encodePoolDatum(pool),
  };
  const tx: Transaction = {
    id: b.txId(),
    spends: 'inputs',
    inputs: [b.outsideInput()],
    outputs: [
      out,
      {
        address: wallet(0),
        value: valueOf([
          ['lovelace', 2_000_000n],
          [MINSWAP_V2.authenPolicy + lpName, totalLp],
        ]),
      },
    ],
    mint: { [MINSWAP_V2.authenPolicy]: { [MINSWAP_V2.poolNftName]: 1n, [lpName]: MINSWAP_V2.maxLp } },
  };
  return { tx, pool };
}

function sqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

export interface OrderSpec {
  owner: string;
  /** The pool's LP asset name (Minswap V2 pool id) and its token. */
  poolId: string;
  token: string;
  buy: boolean;
  amount: bigint;
}

function orderDatum(o: OrderSpec): string {
  const order: MinswapV2Order = {
    dex: 'minswap-v2',
    kind: 'swap',
    owner: o.owner,
    poolId: o.poolId,
    direction: o.buy ? 'aToB' : 'bToA',
    tokenIn: o.buy ? 'lovelace' : o.token,
    tokenOut: null,
    amountIn: o.amount,
    minAmountOut: 1n,
    batcherFee: BATCHER_FEE,
    deposit: DEPOSIT,
    extra: {
      canceller: { method: 0, hash: h(`canceller-${o.owner}`).slice(0, 56) },
      refundReceiver: o.owner,
      refundReceiverDatum: { type: 'none' },
      successReceiverDatum: { type: 'none' },
      lpAsset: MINSWAP_V2.authenPolicy + o.poolId,
      step: { type: 'swap-exact-in', aToB: o.buy, amount: { specific: o.amount }, minimumReceive: 1n, killable: false },
      expiry: null,
    },
    datum: constr(0),
  };
  return minswapV2.encodeOrderDatum(order);
}

/** One transaction placing Minswap V2 swap orders (one output each, in the given order). */
export function placeOrders(b: ChainBuilder, orders: OrderSpec[]): Transaction {
  return {
    id: b.txId(),
    spends: 'inputs',
    inputs: [b.outsideInput()],
    outputs: orders.map((o) => ({
      address: ORDER_ADDRESS,
      value: o.buy
        ? valueOf([['lovelace', o.amount + BATCHER_FEE + DEPOSIT]])
        : valueOf([
            ['lovelace', BATCHER_FEE + DEPOSIT],
            [o.token, o.amount],
          ]),
      datum: orderDatum(o),
    })),
  };
}

export interface ExpectedSwap {
  orderRef: string;
  owner: string;
  buy: boolean;
  amountIn: bigint;
  amountOut: bigint;
}

/**
 * A Minswap V2 batch of `orderRefs` against the pool at `poolRef`: orders processed in ledger order (redeemer
 * `input_indexes` = identity), order k paid by outputs[k], the pool output last, fees = the full batcher fee.
 */
export function batch(
  b: ChainBuilder,
  poolRef: string,
  orderRefs: string[],
): { tx: Transaction; swaps: ExpectedSwap[]; after: MinswapV2Pool } {
  const poolOut = b.utxos.get(poolRef) as TxOutput;
  let pool = minswapV2.decodePool(poolOut) as MinswapV2Pool;
  const refOf = (s: string) => {
    const [id, ix] = s.split('#') as [string, string];
    return { transaction: { id }, index: Number(ix) };
  };
  const ordered = sortedInputs({ inputs: orderRefs.map(refOf) } as Transaction).map(
    (r) => `${r.transaction.id}#${r.index}`,
  );
  const swaps: ExpectedSwap[] = [];
  const outputs: TxOutput[] = [];
  let poolValue = unitsOf(poolOut.value);
  const move = (unit: string, delta: bigint) => {
    const i = poolValue.findIndex(([u]) => u === unit);
    poolValue = poolValue.map((e, j) => (j === i ? [e[0], e[1] + delta] : e));
  };
  for (const ref of ordered) {
    const out = b.utxos.get(ref) as TxOutput;
    const o = minswapV2.decodeOrder(out) as MinswapV2Order;
    const buy = o.direction === 'aToB';
    const amountIn = o.amountIn as bigint;
    const s = applyMinswapV2Swap(pool, buy, amountIn);
    pool = s.pool;
    const [tokIn, tokOut] = buy ? [pool.tokenA, pool.tokenB] : [pool.tokenB, pool.tokenA];
    const result = unitsOf(out.value).map(([u, q]): [string, bigint] => [u, u === 'lovelace' ? q - BATCHER_FEE : q]);
    result.push([tokIn, -amountIn], [tokOut, s.amountOut]);
    outputs.push({ address: o.owner as string, value: valueOf(result) });
    move(tokIn, amountIn);
    move(tokOut, -s.amountOut);
    swaps.push({ orderRef: ref, owner: o.owner as string, buy, amountIn, amountOut: s.amountOut });
  }
  outputs.push({ address: poolOut.address, value: valueOf(poolValue), datum: minswapV2.encodePoolDatum(pool) });
  const redeemer = encodePlutusData(
    constr(
      0,
      0n,
      list(ordered.map(() => BATCHER_FEE)),
      bytes(ordered.map((_, i) => i.toString(16).padStart(2, '0')).join('')),
      optionData(null, (x: string) => bytes(x)),
      list(ordered.map(() => constr(1))),
    ),
    { indefinite: true },
  );
  const tx: Transaction = {
    id: b.txId(),
    spends: 'inputs',
    inputs: [poolRef, ...ordered].map(refOf),
    outputs,
    withdrawals: { stake17y02a946720zw6pw50upt2arvxsvvpvaghjtl054h0f0gjsfyjz59: { ada: { lovelace: 0n } } },
    redeemers: [{ validator: { index: 0, purpose: 'withdraw' }, redeemer }],
  };
  return { tx, swaps, after: pool };
}

/** The owner takes an order back: its value returns to the owner, no swap. */
export function cancel(b: ChainBuilder, orderRef: string): Transaction {
  const out = b.utxos.get(orderRef) as TxOutput;
  const o = minswapV2.decodeOrder(out) as MinswapV2Order;
  const [id, ix] = orderRef.split('#') as [string, string];
  return {
    id: b.txId(),
    spends: 'inputs',
    inputs: [{ transaction: { id }, index: Number(ix) }],
    outputs: [
      {
        address: o.owner as string,
        value: valueOf(unitsOf(out.value).map(([u, q]) => [u, u === 'lovelace' ? q - 200_000n : q])),
      },
    ],
  };
}

/** A SundaeSwap V3 pool creation for ADA/`token` (pool NFT minted), from the real ADA/TRUMP pool's datum fields. */
export function createSundaePool(
  b: ChainBuilder,
  ident: string,
  token: string,
  ada: bigint,
  tok: bigint,
): { tx: Transaction; pool: SundaeV3Pool } {
  const real = realTx(11322286, 34).outputs[0] as TxOutput;
  const t = sundaeswapV3.decodePool(real) as SundaeV3Pool;
  const pool: SundaeV3Pool = {
    ...t,
    poolId: ident,
    tokenA: 'lovelace',
    tokenB: token,
    reserveA: ada,
    reserveB: tok,
    totalLp: sqrt(ada * tok),
  };
  const nft = `000de140${ident}`;
  const out: TxOutput = {
    address: real.address,
    value: valueOf([
      ['lovelace', ada + t.extra.protocolFees],
      [SUNDAESWAP_V3.poolScriptHash + nft, 1n],
      [token, tok],
    ]),
    datum: sundaeswapV3.encodePoolDatum(pool),
  };
  const tx: Transaction = {
    id: b.txId(),
    spends: 'inputs',
    inputs: [b.outsideInput()],
    outputs: [out],
    mint: { [SUNDAESWAP_V3.poolScriptHash]: { [nft]: 1n } },
  };
  return { tx, pool };
}

export { quantityOf };

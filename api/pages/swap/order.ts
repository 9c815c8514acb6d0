/**
 * Builds a Minswap V2 or SundaeSwap V3 swap order transaction from a CIP-30 wallet's UTxOs: one payment to the
 * DEX's order script (the trader's stake key as its stake part, as wallets build it) carrying the inline order datum
 * written by the project's own encoder of that DEX (cardano/dex/minswap-v2.ts, cardano/dex/sundaeswap-v3.ts: the
 * formats the market sync parses), and the change back to the wallet. Pure and isomorphic: the swap page runs it in
 * the browser (bundled by esbuild), the tests run the very same code in Node. The service never calls it: it builds, signs and submits nothing.
 *
 * Amounts are integers in base units (lovelace, token base units). The fee is the linear minimum of the signed
 * size (`FEE_CONSTANT + FEE_PER_BYTE × bytes`, mainnet's parameters, which the devnet uses too), computed with a
 * placeholder witness per signing key so the signed transaction is never below it.
 */
import { bech32, hex } from '@scure/base';
import { baseAddress, enterpriseAddress, parseAddress } from '../../../cardano/address.js';
import { decodeCbor, encodeCbor, type Cbor } from '../../../cardano/dex/cbor.js';
import { MINSWAP_V2, minswapV2, minswapV2LpAssetName, type MinswapV2Order } from '../../../cardano/dex/minswap-v2.js';
import { constr } from '../../../cardano/dex/plutus-data.js';
import { SUNDAESWAP_V3, sundaeV3LpUnit, sundaeV3SwapOrder, sundaeswapV3 } from '../../../cardano/dex/sundaeswap-v3.js';

export const FEE_CONSTANT = 155_381n;
export const FEE_PER_BYTE = 44n;
/** Lovelace per byte of the Babbage min-UTxO rule ((160 + size) × this). */
export const COINS_PER_UTXO_BYTE = 4_310n;
/** Lovelace a Minswap V2 or SundaeSwap V3 order locks besides its input and fee, returned with its result. */
export const ORDER_DEPOSIT = 2_000_000n;
export const LOVELACE = 'lovelace';

export type Assets = Map<string, bigint>; // unit → quantity
export interface WalletUtxo {
  txId: string;
  index: number;
  address: string;
  coin: bigint;
  assets: Assets;
}

/** Where the order goes: Minswap V2 finds its pool from the pair; a SundaeSwap V3 order names its pool's ident. */
export type OrderVenue = { dex: 'minswap-v2' } | { dex: 'sundaeswap-v3'; poolIdent: string };

export interface OrderRequest {
  venue: OrderVenue;
  /** CIP-30 `getUtxos()` answers: hex CBOR of [input, output]. */
  utxos: string[];
  /** CIP-30 `getChangeAddress()`: hex address bytes. */
  changeAddress: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  /** Smallest output the order accepts (the quote less the slippage tolerance). */
  minOut: bigint;
}

export interface ReviewOutput {
  role: 'order' | 'change';
  address: string;
  lovelace: bigint;
  assets: [string, bigint][];
  datum: string | null;
}

export interface BuiltOrder {
  /** Unsigned transaction for `signTx` (empty witness set), hex. */
  txHex: string;
  /** The body exactly as it will be submitted (the witness set is spliced in beside it), hex. */
  bodyHex: string;
  fee: bigint;
  inputs: WalletUtxo[];
  outputs: ReviewOutput[];
  orderAddress: string;
  /** The LP token of the pool the order trades on (Minswap V2: derived from the pair; SundaeSwap V3: the ident's). */
  lpAsset: string;
  /** Lovelace the batcher may take at most; the order also locks ORDER_DEPOSIT, returned with the result. */
  batcherFee: bigint;
}

const int = (v: bigint | number): Cbor => ({ t: 'int', v: BigInt(v) });
const bytes = (h: string | Uint8Array): Cbor => ({ t: 'bytes', v: typeof h === 'string' ? hex.decode(h) : h });
const arr = (v: Cbor[]): Cbor => ({ t: 'array', v, indef: false });
const map = (v: Array<[Cbor, Cbor]>): Cbor => ({ t: 'map', v, indef: false });

export function addressFromHex(h: string): string {
  const b = hex.decode(h);
  const header = b[0] ?? 0;
  const prefix = (header >> 4 >= 14 ? 'stake' : 'addr') + ((header & 0x0f) === 1 ? '' : '_test');
  return bech32.encode(prefix, bech32.toWords(b), 1023);
}
const addressBytes = (a: string) => bech32.fromWords(bech32.decode(a as `${string}1${string}`, 1023).words);

function need<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new Error(`wallet UTxO: ${what}`);
  return v;
}

/** One CIP-30 UTxO (hex CBOR [input, output]). */
export function decodeWalletUtxo(h: string): WalletUtxo {
  const c = decodeCbor(h);
  if (c.t !== 'array') throw new Error('wallet UTxO: not an array');
  const [input, output] = c.v;
  if (input?.t !== 'array' || output === undefined) throw new Error('wallet UTxO: malformed');
  const [txId, index] = input.v;
  let addr: Cbor | undefined;
  let value: Cbor | undefined;
  if (output.t === 'array') [addr, value] = output.v;
  else if (output.t === 'map')
    for (const [k, v] of output.v) {
      if (k.t === 'int' && k.v === 0n) addr = v;
      if (k.t === 'int' && k.v === 1n) value = v;
    }
  const assets: Assets = new Map();
  let coin: bigint;
  const v = need(value, 'no value');
  if (v.t === 'int') coin = v.v;
  else if (v.t === 'array' && v.v[0]?.t === 'int' && v.v[1]?.t === 'map') {
    coin = v.v[0].v;
    for (const [p, names] of v.v[1].v)
      if (p.t === 'bytes' && names.t === 'map')
        for (const [n, q] of names.v)
          if (n.t === 'bytes' && q.t === 'int') assets.set(hex.encode(p.v) + hex.encode(n.v), q.v);
  } else throw new Error('wallet UTxO: unreadable value');
  if (txId?.t !== 'bytes' || index?.t !== 'int' || addr?.t !== 'bytes') throw new Error('wallet UTxO: malformed');
  return {
    txId: hex.encode(txId.v),
    index: Number(index.v),
    address: addressFromHex(hex.encode(addr.v)),
    coin,
    assets,
  };
}

function valueCbor(coin: bigint, assets: Assets): Cbor {
  const units = [...assets.entries()].filter(([, q]) => q > 0n).sort(([a], [b]) => (a < b ? -1 : 1));
  if (!units.length) return int(coin);
  const byPolicy = new Map<string, [string, bigint][]>();
  for (const [u, q] of units) {
    const list = byPolicy.get(u.slice(0, 56)) ?? [];
    list.push([u.slice(56), q]);
    byPolicy.set(u.slice(0, 56), list);
  }
  return arr([
    int(coin),
    map([...byPolicy].map(([p, names]) => [bytes(p), map(names.map(([n, q]) => [bytes(n), int(q)]))])),
  ]);
}

function outputCbor(address: string, coin: bigint, assets: Assets, datum: string | null): Cbor {
  const fields: Array<[Cbor, Cbor]> = [
    [int(0), bytes(addressBytes(address))],
    [int(1), valueCbor(coin, assets)],
  ];
  if (datum) fields.push([int(2), arr([int(1), { t: 'tag', tag: 24n, v: bytes(datum) }])]);
  return map(fields);
}

/** Babbage min-UTxO of an output: (160 + its serialized size) × coins per byte. */
export function minUtxo(address: string, assets: Assets, datum: string | null): bigint {
  // The coin's own width varies; 9 bytes is its widest encoding, so the estimate never falls short.
  const size = encodeCbor(outputCbor(address, 0xffffffffffn, assets, datum)).length;
  return (160n + BigInt(size)) * COINS_PER_UTXO_BYTE;
}

const sortPair = (a: string, b: string): [string, string] => {
  const key = (u: string) => (u === LOVELACE ? '' : u);
  return key(a) <= key(b) ? [a, b] : [b, a];
};

const ORDER_SCRIPTS: Record<OrderVenue['dex'], string> = {
  'minswap-v2': MINSWAP_V2.orderScriptHash,
  'sundaeswap-v3': SUNDAESWAP_V3.orderScriptHash,
};

/**
 * The smallest output an order accepts: the quoted output `amountOut` (base units) less a slippage tolerance given as
 * the percent text the trader typed (`1`, `0.5`, `.25`), exactly: ⌊amountOut × (100 − slippage) / 100⌋ in integers.
 * Never rounded to basis points first: 0.505 % rounded to 51 bp accepted 0.005 % less than the trader allowed, and
 * 99.996 % rounded to 10,000 bp set the minimum to 0 (any price). null when the text is not a percentage from 0 up to
 * (not including) 100.
 */
export function minReceived(amountOut: bigint, slippagePercent: string): bigint | null {
  const m = /^([0-9]*)(?:\.([0-9]*))?$/.exec(slippagePercent.trim());
  if (!m || (!m[1] && !m[2])) return null;
  const fraction = m[2] ?? '';
  const whole = 100n * 10n ** BigInt(fraction.length); // 100 % at the text's precision
  const slippage = BigInt((m[1] || '0') + fraction);
  if (slippage >= whole) return null;
  return (amountOut * (whole - slippage)) / whole;
}

/** An order's address: the DEX's order script with the trader's stake key (enterprise when none). */
export function orderAddressFor(owner: string, dex: OrderVenue['dex'] = 'minswap-v2'): string {
  const a = parseAddress(owner);
  const script = ORDER_SCRIPTS[dex];
  return a.stakeCred
    ? baseAddress('mainnet', script, a.stakeCred, true, a.stakeScript)
    : enterpriseAddress('mainnet', script, true);
}

/** The inline datum of a swap-exact-in order of `amountIn` paying at least `minOut` to `owner`. */
export function orderDatum(owner: string, tokenIn: string, tokenOut: string, amountIn: bigint, minOut: bigint) {
  const [tokenA, tokenB] = sortPair(tokenIn, tokenOut);
  const lpAsset = MINSWAP_V2.authenPolicy + minswapV2LpAssetName(tokenA, tokenB);
  const aToB = tokenIn === tokenA;
  const paymentCred = parseAddress(owner).paymentCred as string;
  const order: MinswapV2Order = {
    dex: 'minswap-v2',
    kind: 'swap',
    owner,
    poolId: lpAsset.slice(56),
    direction: aToB ? 'aToB' : 'bToA',
    tokenIn,
    tokenOut,
    amountIn,
    minAmountOut: minOut,
    batcherFee: MINSWAP_V2.batcherFee,
    deposit: ORDER_DEPOSIT,
    extra: {
      canceller: { method: 0, hash: paymentCred },
      refundReceiver: owner,
      refundReceiverDatum: { type: 'none' },
      successReceiverDatum: { type: 'none' },
      lpAsset,
      step: { type: 'swap-exact-in', aToB, amount: { specific: amountIn }, minimumReceive: minOut, killable: true },
      expiry: null,
    },
    datum: constr(0),
  };
  return { datum: minswapV2.encodeOrderDatum(order), lpAsset };
}

/**
 * The inline datum of a SundaeSwap V3 swap of `amountIn` on pool `poolIdent` paying at least `minOut` to `owner`
 * (cancellable by the owner's payment key), and that pool's LP token.
 */
export function sundaeOrderDatum(
  owner: string,
  poolIdent: string,
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  minOut: bigint,
) {
  if (!/^[0-9a-f]{56}$/.test(poolIdent)) throw new Error('a SundaeSwap V3 pool ident is 28 bytes of hex');
  const order = sundaeV3SwapOrder({
    owner,
    ownerKeyHash: parseAddress(owner).paymentCred as string,
    poolIdent,
    offer: [tokenIn, amountIn],
    minReceived: [tokenOut, minOut],
    maxProtocolFee: SUNDAESWAP_V3.maxProtocolFee,
    deposit: ORDER_DEPOSIT,
  });
  return {
    datum: sundaeswapV3.encodeOrderDatum(order),
    lpAsset: sundaeV3LpUnit(poolIdent),
  };
}

export function buildOrderTx(req: OrderRequest): BuiltOrder {
  if (req.amountIn <= 0n) throw new Error('the amount must be positive');
  if (req.tokenIn === req.tokenOut) throw new Error('input and output tokens must differ');
  const owner = addressFromHex(req.changeAddress);
  const utxos = req.utxos.map(decodeWalletUtxo);
  const v = req.venue;
  const { datum, lpAsset, batcherFee } =
    v.dex === 'sundaeswap-v3'
      ? {
          ...sundaeOrderDatum(owner, v.poolIdent, req.tokenIn, req.tokenOut, req.amountIn, req.minOut),
          batcherFee: SUNDAESWAP_V3.maxProtocolFee,
        }
      : {
          ...orderDatum(owner, req.tokenIn, req.tokenOut, req.amountIn, req.minOut),
          batcherFee: MINSWAP_V2.batcherFee,
        };
  const orderAddress = orderAddressFor(owner, v.dex);
  const orderAssets: Assets = new Map(req.tokenIn === LOVELACE ? [] : [[req.tokenIn, req.amountIn]]);
  const orderCoin = ORDER_DEPOSIT + batcherFee + (req.tokenIn === LOVELACE ? req.amountIn : 0n);

  // Coin selection: UTxOs holding the input token first (largest first), then ADA-only ones, then the rest.
  const holds = (u: WalletUtxo) => (req.tokenIn === LOVELACE ? 0n : (u.assets.get(req.tokenIn) ?? 0n));
  const ordered = [...utxos].sort((a, b) => {
    const d = Number(holds(b) - holds(a));
    if (d) return d;
    if (a.assets.size !== b.assets.size) return a.assets.size - b.assets.size;
    return a.coin > b.coin ? -1 : a.coin < b.coin ? 1 : 0;
  });
  const selected: WalletUtxo[] = [];
  let build: { body: Cbor; fee: bigint; change: { coin: bigint; assets: Assets } } | null = null;
  for (const u of ordered) {
    selected.push(u);
    build = attempt(selected, owner, orderAddress, orderCoin, orderAssets, datum);
    if (build) break;
  }
  if (!build) {
    const locked = Number(ORDER_DEPOSIT + batcherFee) / 1e6;
    throw new Error(`the wallet does not hold enough for this order (amount, ${locked} ADA deposit and fees)`);
  }
  const bodyHex = hex.encode(encodeCbor(build.body));
  const outputs: ReviewOutput[] = [
    { role: 'order', address: orderAddress, lovelace: orderCoin, assets: [...orderAssets], datum },
    { role: 'change', address: owner, lovelace: build.change.coin, assets: [...build.change.assets], datum: null },
  ];
  return {
    txHex: `84${bodyHex}a0f5f6`,
    bodyHex,
    fee: build.fee,
    inputs: selected,
    outputs,
    orderAddress,
    lpAsset,
    batcherFee,
  };
}

function attempt(
  inputs: WalletUtxo[],
  owner: string,
  orderAddress: string,
  orderCoin: bigint,
  orderAssets: Assets,
  datum: string,
): { body: Cbor; fee: bigint; change: { coin: bigint; assets: Assets } } | null {
  let coin = -orderCoin;
  const assets: Assets = new Map();
  for (const u of inputs) {
    coin += u.coin;
    for (const [unit, q] of u.assets) assets.set(unit, (assets.get(unit) ?? 0n) + q);
  }
  for (const [unit, q] of orderAssets) {
    const left = (assets.get(unit) ?? 0n) - q;
    if (left < 0n) return null;
    if (left === 0n) assets.delete(unit);
    else assets.set(unit, left);
  }
  const signers = new Set(inputs.map((u) => parseAddress(u.address).paymentCred)).size;
  const sorted = [...inputs].sort((a, b) => (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : a.index - b.index));
  const body = (fee: bigint, changeCoin: bigint): Cbor =>
    map([
      [int(0), { t: 'tag', tag: 258n, v: arr(sorted.map((u) => arr([bytes(u.txId), int(u.index)]))) }],
      [
        int(1),
        arr([outputCbor(orderAddress, orderCoin, orderAssets, datum), outputCbor(owner, changeCoin, assets, null)]),
      ],
      [int(2), int(fee)],
    ]);
  // Signed size: 1 (array head) + body + witness set (map head, key, set, per key [vkey 32 + sig 64]) + 2.
  let fee = FEE_CONSTANT;
  for (let i = 0; i < 3; i++) {
    const size = 1 + encodeCbor(body(fee, coin - fee)).length + 6 + signers * 101 + 2;
    fee = FEE_CONSTANT + FEE_PER_BYTE * BigInt(size);
  }
  const changeCoin = coin - fee;
  if (changeCoin < minUtxo(owner, assets, null)) return null;
  return { body: body(fee, changeCoin), fee, change: { coin: changeCoin, assets } };
}

/** The signed transaction: the unsigned body beside the wallet's witness set (CIP-30 `signTx` answer). */
export function spliceWitnesses(bodyHex: string, witnessSetHex: string): string {
  return `84${bodyHex}${witnessSetHex}f5f6`;
}

/**
 * The swap page's order builder (api/pages/swap/order.ts) without a devnet: the transaction it hands the wallet is
 * read back from its CBOR body the way a node reads it (outputs decoded by cardano/dex/output-cbor.ts, not by the
 * builder), and the order output is decoded by the market sync's own DEX decoders and, for SundaeSwap V3, checked
 * field by field against the order datum layout of the reference (dex-nft-handles.md §2.4).
 */
import assert from 'node:assert/strict';
import { hex } from '@scure/base';
import { baseAddress, parseAddress } from '../../cardano/address.js';
import { decodeCbor, encodeCbor, encodeCborHex, type Cbor } from '../../cardano/dex/cbor.js';
import { MINSWAP_V2, minswapV2 } from '../../cardano/dex/minswap-v2.js';
import { decodeTxOutputCbor } from '../../cardano/dex/output-cbor.js';
import { asConstr, asHex, asInt, asList, decodePlutusData } from '../../cardano/dex/plutus-data.js';
import { SUNDAESWAP_V3, sundaeswapV3 } from '../../cardano/dex/sundaeswap-v3.js';
import type { TxOutput } from '../../cardano/chain/types.js';
import { buildOrderTx, minReceived, type OrderRequest } from '../../api/pages/swap/order.js';

const ADA = 1_000_000n;
const PAYMENT = '11'.repeat(28);
const STAKE = '22'.repeat(28);
const OWNER = baseAddress('mainnet', PAYMENT, STAKE);
const OWNER_HEX = hex.encode(
  new Uint8Array([0x01, ...hex.decode(PAYMENT), ...hex.decode(STAKE)]), // base address, key/key, mainnet
);
// SNEK (mainnet policy and name) and a 28-byte SundaeSwap V3 pool ident.
const TOKEN = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f' + '534e454b';
const IDENT = 'ab'.repeat(28);

const int = (v: bigint): Cbor => ({ t: 'int', v });
const bytes = (h: string): Cbor => ({ t: 'bytes', v: hex.decode(h) });
const arr = (v: Cbor[]): Cbor => ({ t: 'array', v, indef: false });
const map = (v: Array<[Cbor, Cbor]>): Cbor => ({ t: 'map', v, indef: false });

/** A CIP-30 `getUtxos()` entry: [input, {0: address, 1: value}]. */
function utxo(txByte: string, coin: bigint, tokens = 0n): string {
  const value =
    tokens > 0n
      ? arr([int(coin), map([[bytes(TOKEN.slice(0, 56)), map([[bytes(TOKEN.slice(56)), int(tokens)]])]])])
      : int(coin);
  const output = map([
    [int(0n), bytes(OWNER_HEX)],
    [int(1n), value],
  ]);
  return hex.encode(encodeCbor(arr([arr([bytes(txByte.repeat(32)), int(0n)]), output])));
}

/** The transaction body's outputs and fee, read from the unsigned transaction's CBOR. */
function bodyOf(txHex: string): { outputs: TxOutput[]; fee: bigint } {
  const tx = decodeCbor(txHex);
  assert.ok(tx.t === 'array' && tx.v[0]?.t === 'map');
  const field = (k: bigint) =>
    (tx.v[0] as { v: Array<[Cbor, Cbor]> }).v.find(([key]) => key.t === 'int' && key.v === k)?.[1];
  const outs = field(1n);
  const fee = field(2n);
  assert.ok(outs?.t === 'array' && fee?.t === 'int');
  return { outputs: outs.v.map((o) => decodeTxOutputCbor(encodeCborHex(o))), fee: fee.v };
}

const lovelaceOf = (o: TxOutput) => o.value.ada.lovelace;
const tokenOf = (o: TxOutput) => o.value[TOKEN.slice(0, 56)]?.[TOKEN.slice(56)] ?? 0n;

const request = (over: Partial<OrderRequest>): OrderRequest => ({
  venue: { dex: 'sundaeswap-v3', poolIdent: IDENT },
  utxos: [utxo('a1', 500n * ADA), utxo('b2', 5n * ADA, 9_000_000n)],
  changeAddress: OWNER_HEX,
  tokenIn: 'lovelace',
  tokenOut: TOKEN,
  amountIn: 100n * ADA,
  minOut: 123_456_789n,
  ...over,
});

describe('swap page order builder', () => {
  it('a SundaeSwap V3 ADA → token order decodes to the owner, pool, amount and minimum', () => {
    const built = buildOrderTx(request({}));
    const { outputs, fee } = bodyOf(built.txHex);
    assert.equal(outputs.length, 2);
    const [order, change] = outputs as [TxOutput, TxOutput];

    const addr = parseAddress(order.address);
    assert.equal(addr.paymentCred, SUNDAESWAP_V3.orderScriptHash, 'pays the SundaeSwap V3 order script');
    assert.equal(addr.stakeCred, STAKE, "with the trader's stake key");
    // 100 ADA offered + 1 ADA max protocol (scooper) fee + 2 ADA deposit.
    assert.equal(lovelaceOf(order), 103n * ADA);

    const o = sundaeswapV3.decodeOrder(order);
    assert.ok(o, 'the market sync reads it as a SundaeSwap V3 order');
    assert.equal(o.kind, 'swap');
    assert.equal(o.owner, OWNER);
    assert.equal(o.poolId, IDENT);
    assert.equal(o.tokenIn, 'lovelace');
    assert.equal(o.tokenOut, TOKEN);
    assert.equal(o.amountIn, 100n * ADA);
    assert.equal(o.minAmountOut, 123_456_789n);
    assert.equal(o.batcherFee, 1n * ADA);
    assert.equal(o.deposit, 2n * ADA);

    // Nothing is created or lost: inputs = order + change + fee.
    assert.equal(lovelaceOf(order) + lovelaceOf(change) + fee, 500n * ADA);
    assert.equal(change.address, OWNER);
    assert.equal(fee, built.fee);
    assert.equal(built.lpAsset, SUNDAESWAP_V3.poolScriptHash + '0014df10' + IDENT);
  });

  it('its datum has the on-chain SundaeSwap V3 order layout', () => {
    const order = bodyOf(buildOrderTx(request({})).txHex).outputs[0] as TxOutput;
    assert.ok(order.datum, 'inline datum');
    const d = asConstr(decodePlutusData(order.datum), 0);
    assert.equal(d.fields.length, 6);
    const [ident, owner, maxFee, destination, details, extension] = d.fields;
    // pool_ident: Some(ident) = C0[B]
    assert.equal(asHex(asConstr(ident, 0).fields[0]), IDENT);
    // owner: Signature C0[B pkh]
    assert.equal(asHex(asConstr(owner, 0).fields[0]), PAYMENT);
    assert.equal(asInt(maxFee), 1n * ADA);
    // destination: Fixed C0[address, NoDatum C0[]]; the address's payment credential is the key C0[B]
    const dest = asConstr(destination, 0);
    const address = asConstr(dest.fields[0], 0);
    assert.equal(asHex(asConstr(address.fields[0], 0).fields[0]), PAYMENT);
    assert.deepEqual(asConstr(dest.fields[1], 0).fields, []);
    // details: Swap C1[offer [p, n, amt], min_received [p, n, amt]]
    const swap = asConstr(details, 1);
    const [offer, min] = swap.fields.map(asList) as [ReturnType<typeof asList>, ReturnType<typeof asList>];
    assert.deepEqual([asHex(offer[0]), asHex(offer[1]), asInt(offer[2])], ['', '', 100n * ADA]);
    assert.deepEqual([asHex(min[0]) + asHex(min[1]), asInt(min[2])], [TOKEN, 123_456_789n]);
    assert.equal(asConstr(extension).constr, 0);
  });

  it('a SundaeSwap V3 token → ADA order locks the tokens, and the fee and deposit in ADA', () => {
    const built = buildOrderTx(request({ tokenIn: TOKEN, tokenOut: 'lovelace', amountIn: 7_000_000n, minOut: 1n }));
    const { outputs, fee } = bodyOf(built.txHex);
    const [order, change] = outputs as [TxOutput, TxOutput];
    assert.equal(lovelaceOf(order), 3n * ADA);
    assert.equal(tokenOf(order), 7_000_000n);
    assert.equal(tokenOf(change), 2_000_000n, 'the rest of the tokens come back');
    // The token UTxO alone (5 ADA) pays the 3 ADA locked, the fee and the change's min-UTxO.
    assert.equal(built.inputs.length, 1);
    assert.equal(lovelaceOf(order) + lovelaceOf(change) + fee, 5n * ADA);
    const o = sundaeswapV3.decodeOrder(order);
    assert.ok(o);
    assert.deepEqual([o.tokenIn, o.tokenOut, o.amountIn, o.minAmountOut], [TOKEN, 'lovelace', 7_000_000n, 1n]);
    assert.equal(o.deposit, 2n * ADA);
  });

  it('a Minswap V2 order still goes to the Minswap V2 order script', () => {
    const built = buildOrderTx(request({ venue: { dex: 'minswap-v2' } }));
    const order = bodyOf(built.txHex).outputs[0] as TxOutput;
    assert.equal(parseAddress(order.address).paymentCred, MINSWAP_V2.orderScriptHash);
    assert.equal(sundaeswapV3.decodeOrder(order), null);
    const o = minswapV2.decodeOrder(order);
    assert.ok(o);
    assert.deepEqual([o.owner, o.amountIn, o.minAmountOut], [OWNER, 100n * ADA, 123_456_789n]);
  });

  it('refuses a SundaeSwap V3 order without a 28-byte pool ident, and one the wallet cannot fund', () => {
    assert.throws(() => buildOrderTx(request({ venue: { dex: 'sundaeswap-v3', poolIdent: 'abcd' } })), /ident/);
    assert.throws(() => buildOrderTx(request({ amountIn: 600n * ADA })), /does not hold enough.*3 ADA deposit/);
  });
});

describe('swap page: the minimum received of an order (the quote less the slippage typed)', () => {
  it('is ⌊quote × (100 − slippage) / 100⌋ exactly, for any number of decimals typed', () => {
    assert.equal(minReceived(1_000_000n, '1'), 990_000n);
    assert.equal(minReceived(1_000_000n, '0.5'), 995_000n);
    assert.equal(minReceived(1_000_000n, '.25'), 997_500n);
    assert.equal(minReceived(1_000_000n, '5.'), 950_000n);
    assert.equal(minReceived(1_000_000n, '0'), 1_000_000n);
    // 0.505 % was rounded to 51 bp: the order accepted 994,900, 50 base units below what the trader allowed.
    assert.equal(minReceived(1_000_000n, '0.505'), 994_950n);
    // Rounded down, never up: 1 − 0.333 % of 1,000 base units is 996.67.
    assert.equal(minReceived(1_000n, '0.333'), 996n);
    // Beyond 2^53 base units (a 0-decimal token), no digit is lost.
    assert.equal(minReceived(2n ** 64n - 1n, '1'), ((2n ** 64n - 1n) * 99n) / 100n);
  });

  it('never falls to 0 below 100 %: 99.996 % was rounded to 10,000 bp, an order accepting any price', () => {
    assert.equal(minReceived(1_000_000n, '99.996'), 40n);
    assert.equal(minReceived(1_000_000n, '99.9999999'), 0n); // 0.001 base units, rounded down
  });

  it('refuses what is not a percentage from 0 up to 100 (null: nothing to sign)', () => {
    for (const bad of ['', '.', '100', '250', '-1', '1e-3', 'abc', '1,5', '0x10'])
      assert.equal(minReceived(1_000_000n, bad), null, bad);
  });
});

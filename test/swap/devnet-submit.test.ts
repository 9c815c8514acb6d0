/**
 * The devnet's Ogmios `submitTransaction`: a Minswap V2 order built by the swap page's own builder
 * (api/pages/swap/order.ts) and signed with a real Ed25519 key is validated, included in the next block, and
 * executed by the devnet's batcher at the pool's exact price; forged, unsigned and double-spending submissions are
 * refused with Ogmios error codes.
 */
import assert from 'node:assert/strict';
import type { TxOutput } from '../../cardano/chain/types.js';
import { MINSWAP_V2, minswapV2, type MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { parseAddress } from '../../cardano/address.js';
import { buildOrderTx, orderAddressFor, spliceWitnesses } from '../../api/pages/swap/order.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import type { Utxo } from '../../devnet/ledger.js';
import { DevnetWallet } from './wallet.js';

const ADA = 1_000_000n;
const asOutput = (u: Utxo): TxOutput => ({
  address: u.address,
  value: { ada: { lovelace: u.value.coin }, ...u.value.assets },
  ...(u.datum ? { datum: u.datum } : {}),
});

function minswapAdaPool(devnet: Devnet): { utxo: Utxo; state: MinswapV2Pool } {
  for (const u of devnet.ledger.utxos.values()) {
    const a = parseAddress(u.address);
    if (a.paymentCred !== MINSWAP_V2.poolScriptHash || !u.datum) continue;
    const state = minswapV2.decodePool(asOutput(u));
    if (state && state.tokenA === 'lovelace' && state.reserveA > 100_000n * ADA) return { utxo: u, state };
  }
  throw new Error('no Minswap V2 ADA pool on the devnet');
}

describe('devnet: submitTransaction and the batcher', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let wallet: DevnetWallet;
  before(async () => {
    devnet = await startDevnet({ seed: 'swap-submit', backfillHours: 2, blockMs: 0, forkRate: 0 });
    wallet = new DevnetWallet(devnet);
    devnet.fund(wallet.address, 1_000n * ADA);
    devnet.step();
  });
  after(async () => devnet?.close());

  it('funds the wallet from the faucet in the next block', () => {
    assert.equal(devnet.ledger.coinAt(wallet.address), 1_000n * ADA);
  });

  it('refuses unsigned, forged and double-spending transactions', async () => {
    const { state } = minswapAdaPool(devnet);
    const built = buildOrderTx({
      utxos: wallet.utxos(),
      changeAddress: wallet.addressHex,
      tokenIn: 'lovelace',
      tokenOut: state.tokenB,
      amountIn: 10n * ADA,
      minOut: 1n,
    });
    await assert.rejects(wallet.submitTx(built.txHex), /\(3100\).*missing signature/);
    const ws = wallet.signTx(built.txHex);
    const forged = ws.slice(0, -2) + (ws.endsWith('00') ? '01' : '00');
    await assert.rejects(wallet.submitTx(spliceWitnesses(built.bodyHex, forged)), /\(3101\)/);
    const other = new DevnetWallet(devnet, 'someone-else');
    await assert.rejects(wallet.submitTx(spliceWitnesses(built.bodyHex, other.signTx(built.txHex))), /\(3100\)/);
    assert.equal(devnet.ledger.coinAt(wallet.address), 1_000n * ADA, 'nothing queued');
  });

  it('includes a signed order, and the batcher executes it at the pool price', async () => {
    const { state } = minswapAdaPool(devnet);
    const amountIn = 100n * ADA;
    const expected = minswapV2.amountOut(state, 'lovelace', amountIn) as bigint;
    const minOut = (expected * 97n) / 100n;
    const built = buildOrderTx({
      utxos: wallet.utxos(),
      changeAddress: wallet.addressHex,
      tokenIn: 'lovelace',
      tokenOut: state.tokenB,
      amountIn,
      minOut,
    });
    assert.equal(built.outputs[0]!.address, orderAddressFor(wallet.address));
    assert.equal(built.lpAsset, state.lpToken);
    const signed = spliceWitnesses(built.bodyHex, wallet.signTx(built.txHex));
    const id = await wallet.submitTx(signed);
    await assert.rejects(wallet.submitTx(signed), /\(3117\).*already spent/);

    devnet.step();
    const order = devnet.ledger.utxos.get(`${id}#0`);
    assert.ok(order, 'the order output is on chain');
    assert.equal(order.value.coin, amountIn + 3n * ADA);
    const minFee = 155_381n + 44n * BigInt(signed.length / 2);
    assert.equal(devnet.ledger.coinAt(wallet.address), 1_000n * ADA - amountIn - 3n * ADA - built.fee);
    assert.ok(built.fee >= minFee && built.fee < minFee + 1_000n, `fee ${built.fee} ≈ minimum ${minFee}`);
    const blocks = devnet.events();
    const last = blocks[blocks.length - 1]!;
    assert.ok(last.kind === 'forward' && devnet.blockJson(last).includes(`"id":"${id}"`));

    devnet.step();
    assert.equal(devnet.ledger.utxos.get(`${id}#0`), undefined, 'the batcher spent the order');
    const policy = state.tokenB.slice(0, 56);
    const name = state.tokenB.slice(56);
    let got = 0n;
    for (const u of devnet.ledger.utxosAt(wallet.address)) got += u.value.assets[policy]?.[name] ?? 0n;
    assert.ok(got >= minOut, `received ${got} ≥ minimum ${minOut}`);
    assert.ok(got <= expected, `received ${got} ≤ quoted ${expected}`);
  });
});

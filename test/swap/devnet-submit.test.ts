/**
 * The devnet's Ogmios `submitTransaction`: a Minswap V2 and a SundaeSwap V3 order built by the swap page's own
 * builder (api/pages/swap/order.ts) and signed with a real Ed25519 key are validated, included in the next block,
 * and executed by the devnet's batchers at the pool's exact price; forged, unsigned and double-spending submissions
 * are refused with Ogmios error codes. The devnet is synced by the service (test/md/stack.ts), so the wallet's
 * trades on REST show the SundaeSwap V3 order pending, then complete with what the ledger paid the wallet.
 */
import assert from 'node:assert/strict';
import type { TxOutput } from '../../cardano/chain/types.js';
import { MINSWAP_V2, minswapV2, type MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { parseAddress } from '../../cardano/address.js';
import { SUNDAESWAP_V3, sundaeswapV3, type SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import { buildOrderTx, orderAddressFor, spliceWitnesses } from '../../api/pages/swap/order.js';
import type { Devnet } from '../../devnet/index.js';
import type { Utxo } from '../../devnet/ledger.js';
import { startStack, type Stack } from '../md/stack.js';
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

/** The deepest SundaeSwap V3 ADA pool on the devnet ledger, read with the market sync's decoder. */
function sundaeAdaPool(devnet: Devnet): { utxo: Utxo; state: SundaeV3Pool } {
  let best: { utxo: Utxo; state: SundaeV3Pool } | null = null;
  for (const u of devnet.ledger.utxos.values()) {
    if (parseAddress(u.address).paymentCred !== SUNDAESWAP_V3.poolScriptHash || !u.datum) continue;
    const state = sundaeswapV3.decodePool(asOutput(u));
    if (state?.tokenA === 'lovelace' && (!best || state.reserveA > best.state.reserveA)) best = { utxo: u, state };
  }
  if (!best) throw new Error('no SundaeSwap V3 ADA pool on the devnet');
  return best;
}

const tokenAt = (devnet: Devnet, address: string, unit: string) => {
  let q = 0n;
  for (const u of devnet.ledger.utxosAt(address)) q += u.value.assets[unit.slice(0, 56)]?.[unit.slice(56)] ?? 0n;
  return q;
};

/** Base units → the decimal text the REST API would print (no float on the way). */
const decimalText = (q: bigint, decimals: number) => {
  if (!decimals) return q.toString();
  const s = q.toString().padStart(decimals + 1, '0');
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '');
};

interface Trade {
  txHash: string;
  dex: string;
  status: string;
  amountIn: number;
  amountOut: number | null;
  tokenIn: { unit: string };
  tokenOut: { unit: string; decimals: number };
}

describe('devnet: submitTransaction and the batcher', function () {
  this.timeout(240_000);
  let stack: Stack;
  let devnet: Devnet;
  let wallet: DevnetWallet;
  before(async () => {
    stack = await startStack({ seed: 'swap-submit', hours: 2 });
    devnet = stack.devnet;
    wallet = new DevnetWallet(devnet);
    devnet.fund(wallet.address, 1_000n * ADA);
    devnet.step();
  });
  after(async () => stack?.close());

  it('funds the wallet from the faucet in the next block', () => {
    assert.equal(devnet.ledger.coinAt(wallet.address), 1_000n * ADA);
  });

  it('refuses unsigned, forged and double-spending transactions', async () => {
    const { state } = minswapAdaPool(devnet);
    const built = buildOrderTx({
      venue: { dex: 'minswap-v2' },
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
      venue: { dex: 'minswap-v2' },
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

  it('includes a signed SundaeSwap V3 order, the scooper executes it at the pool price, and the trade completes', async () => {
    const { state } = sundaeAdaPool(devnet);
    const token = state.tokenB;
    const amountIn = 120n * ADA;
    const quoted = sundaeswapV3.amountOut(state, 'lovelace', amountIn) as bigint;
    const minOut = (quoted * 97n) / 100n;
    const coinBefore = devnet.ledger.coinAt(wallet.address);
    const tokenBefore = tokenAt(devnet, wallet.address, token);
    const built = buildOrderTx({
      venue: { dex: 'sundaeswap-v3', poolIdent: state.poolId },
      utxos: wallet.utxos(),
      changeAddress: wallet.addressHex,
      tokenIn: 'lovelace',
      tokenOut: token,
      amountIn,
      minOut,
    });
    assert.equal(built.outputs[0]!.address, orderAddressFor(wallet.address, 'sundaeswap-v3'));
    const id = await wallet.submitTx(spliceWitnesses(built.bodyHex, wallet.signTx(built.txHex)));

    // Included: the order output on the ledger is what the market sync reads as this wallet's SundaeSwap V3 swap.
    devnet.step();
    const placed = devnet.ledger.utxos.get(`${id}#0`);
    assert.ok(placed, 'the order output is on chain');
    assert.equal(parseAddress(placed.address).paymentCred, SUNDAESWAP_V3.orderScriptHash);
    assert.equal(parseAddress(placed.address).stakeCred, parseAddress(wallet.address).stakeCred);
    assert.equal(placed.value.coin, amountIn + 3n * ADA, '120 ADA + 1 ADA max scooper fee + 2 ADA deposit');
    const order = sundaeswapV3.decodeOrder(asOutput(placed));
    assert.ok(order);
    assert.deepEqual(
      [order.kind, order.owner, order.poolId, order.tokenIn, order.tokenOut, order.amountIn, order.minAmountOut],
      ['swap', wallet.address, state.poolId, 'lovelace', token, amountIn, minOut],
    );
    assert.equal(devnet.ledger.coinAt(wallet.address), coinBefore - amountIn - 3n * ADA - built.fee);
    await stack.syncToTip();
    const trades = async () =>
      (
        (await (await fetch(`${stack.url}/api/v1/wallet/${wallet.address}/trades?limit=50`)).json()) as {
          items: Trade[];
        }
      ).items.filter((t) => t.dex === 'sundaeswap-v3');
    const pending = await trades();
    assert.equal(pending.length, 1, JSON.stringify(pending));
    assert.equal(pending[0]!.status, 'pending');
    assert.equal(pending[0]!.amountIn, 120);

    // Executed in the next block. Oracle: replay the scoop the block carries (its pool input and its order inputs
    // in ledger order, as they stood before it) with SundaeSwap V3's pool arithmetic, and read what the ledger
    // paid the wallet.
    const before = new Map(devnet.ledger.utxos);
    devnet.step();
    assert.equal(devnet.ledger.utxos.get(`${id}#0`), undefined, 'the scooper spent the order');
    const events = devnet.events();
    const last = events[events.length - 1]!;
    assert.ok(last.kind === 'forward');
    const block = JSON.parse(devnet.blockJson(last)) as {
      transactions: { id: string; inputs: { transaction: { id: string }; index: number }[] }[];
    };
    const refs = (t: (typeof block.transactions)[number]) => t.inputs.map((i) => `${i.transaction.id}#${i.index}`);
    const scoop = block.transactions.find((t) => refs(t).includes(`${id}#0`));
    assert.ok(scoop, 'a transaction of the block spends the order');
    const spent = refs(scoop).map((r) => before.get(r)!);
    const poolIn = spent.find((u) => sundaeswapV3.decodePool(asOutput(u))?.poolId === state.poolId);
    assert.ok(poolIn, 'the scoop spends the pool');
    let pool = sundaeswapV3.decodePool(asOutput(poolIn))!;
    const orderIns = spent
      .filter((u) => parseAddress(u.address).paymentCred === SUNDAESWAP_V3.orderScriptHash)
      .sort((a, b) => (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : a.index - b.index));
    let ours: bigint | null = null;
    for (const u of orderIns) {
      const o = sundaeswapV3.decodeOrder(asOutput(u))!;
      const out = sundaeswapV3.amountOut(pool, o.tokenIn!, o.amountIn!)!;
      const aToB = o.tokenIn === pool.tokenA;
      pool = aToB
        ? { ...pool, reserveA: pool.reserveA + o.amountIn!, reserveB: pool.reserveB - out }
        : { ...pool, reserveA: pool.reserveA - out, reserveB: pool.reserveB + o.amountIn! };
      if (u.txId === id) ours = out;
    }
    assert.ok(ours !== null && ours >= minOut, `replayed ${ours} ≥ minimum ${minOut}`);
    const received = tokenAt(devnet, wallet.address, token) - tokenBefore;
    assert.equal(received, ours, 'the wallet received exactly what the pool arithmetic gives');
    const poolAfter = [...devnet.ledger.utxos.values()].find(
      (u) => u.txId === scoop.id && sundaeswapV3.decodePool(asOutput(u))?.poolId === state.poolId,
    );
    assert.ok(poolAfter);
    assert.equal(sundaeswapV3.decodePool(asOutput(poolAfter))!.reserveB, pool.reserveB, 'the pool paid it out');
    // The result returns the 2 ADA deposit and the unused part of the 1 ADA max fee (a scoop charges ≤ 0.5 ADA).
    const result = [...devnet.ledger.utxosAt(wallet.address)].find((u) => u.txId === scoop.id);
    assert.ok(result && result.value.coin >= 2_500_000n && result.value.coin < 3n * ADA, `${result?.value.coin}`);

    await stack.syncToTip();
    const done = await trades();
    assert.equal(done.length, 1, JSON.stringify(done));
    assert.equal(done[0]!.status, 'complete');
    assert.equal(done[0]!.tokenOut.unit, token);
    assert.equal(done[0]!.amountOut, Number(decimalText(received, done[0]!.tokenOut.decimals)));
  });
});

// The swap page: a live quote from /api/v1/swap/quote, a CIP-30 wallet, and a Minswap V2 or SundaeSwap V3 order
// transaction built here in the browser (order.ts, bundled with the project's own CBOR and DEX encoders): the venue
// is whichever of the two DEXes' direct pools the quote ranks first (what it leaves once the batcher fee is paid).
// The wallet signs (signTx, partial) and submits (submitTx); the page splices its witness set beside the unchanged
// body. The site never sees the transaction. Every value from the server is written with textContent.
/* global document, window, fetch, URLSearchParams, setInterval, setTimeout, clearTimeout, console */
import { buildOrderTx, spliceWitnesses, addressFromHex, minReceived, LOVELACE } from './order.js';
import { quoteTimeText } from './quote-time.js';

const $ = (id) => document.getElementById(id);
const QUOTE_EVERY_MS = 10_000;
/** The DEXes whose orders order.ts builds. */
const VENUES = { 'minswap-v2': 'Minswap V2', 'sundaeswap-v3': 'SundaeSwap V3' };

const state = { quote: null, venueRoute: null, api: null, address: null, built: null, timer: null };

const fmt = (n, digits = 6) =>
  n === null || n === undefined ? '—' : Number(n).toLocaleString('en-US', { maximumFractionDigits: digits });
const pct = (f) => (f === null || f === undefined ? '—' : `${(f * 100).toFixed(3)} %`);
const ada = (lovelace) => fmt(Number(lovelace) / 1e6);

function showError(where, message) {
  const el = $(where);
  el.textContent = message;
  el.hidden = !message;
}

/** The slippage tolerance in percent: a number from 0 up to (not including) 100, else NaN. */
function slippageOf(text) {
  const t = text.trim();
  const v = /^[0-9]+(\.[0-9]*)?$|^\.[0-9]+$/.test(t) ? Number(t) : NaN;
  return v < 100 ? v : NaN;
}

function params() {
  return {
    in: $('in').value.trim(),
    out: $('out').value.trim(),
    amount: $('amount').value.trim(),
    slippage: slippageOf($('slippage').value),
  };
}

/**
 * No quote for the form as it stands (a field left empty, a quote the service refused, a bad slippage): nothing of an
 * earlier quote stays on screen and no order built from it can be signed.
 */
function clearQuote(message) {
  state.quote = null;
  state.venueRoute = null;
  state.built = null;
  $('quote-table').hidden = true;
  $('quote-time').textContent = '';
  if ($('status').hidden) $('review').hidden = true;
  showError('quote-error', message);
}

/** A base-unit quantity as a decimal amount with `decimals` digits, exact (thousands grouped, no trailing zeros). */
function fromBase(quantity, decimals) {
  const s = quantity.toString().padStart(decimals + 1, '0');
  const whole = BigInt(s.slice(0, s.length - decimals)).toLocaleString('en-US');
  const fraction = s.slice(s.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

async function getJson(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

const poolCache = new Map();
/** One pool of the route (its TVL, and its identifier: a SundaeSwap V3 order names its pool's ident). */
function pool(id) {
  if (!poolCache.has(id)) {
    const p = getJson(`/api/v1/pools/${id}?logos=url`);
    p.catch(() => poolCache.delete(id));
    poolCache.set(id, p);
  }
  return poolCache.get(id);
}
const poolTvl = (id) => pool(id).then((p) => p.tvlAda ?? null);

const sameRoute = (a, b) => !!a && !!b && a.hops.map((h) => h.poolId).join() === b.hops.map((h) => h.poolId).join();

/**
 * The route the page builds an order for: the first direct (one-pool) route on a DEX it builds orders for. Routes come
 * best first, ranked by what they leave the trader once the DEX's batcher fee is paid (a DEX whose fee is unknown at
 * the highest known one), so a pool paying a little more whose order costs more is not the one signed for.
 */
function venueRoute(q) {
  return q.routes.find((r) => r.hops.length === 1 && VENUES[r.hops[0].dex]) ?? null;
}

async function refreshQuote() {
  const p = params();
  if (!p.in || !p.out || !p.amount) return clearQuote('');
  if (Number.isNaN(p.slippage)) return clearQuote('Slippage must be a percentage from 0 up to 100, e.g. 1 or 0.5.');
  try {
    const q = await getJson(
      `/api/v1/swap/quote?${new URLSearchParams({ in: p.in, out: p.out, amount: p.amount, logos: 'url' })}`,
    );
    state.quote = q;
    state.venueRoute = venueRoute(q);
    showError('quote-error', '');
    const best = q.best;
    $('quote-table').hidden = false;
    // The time of the pool states the quote was computed on (its asOf), not of this fetch.
    $('quote-time').textContent = quoteTimeText(q.asOf, Date.now());
    $('q-in').textContent = `${fmt(q.amountIn)} ${q.tokenIn.displayName}`;
    if (!best) {
      // The quote's own reason (no pool of the pair, a curve it does not quote, or an amount too small to buy one
      // base unit): "no pool trades this pair" would be false for a dust amount.
      $('q-out').textContent = q.note ?? 'No route for this pair and amount.';
      for (const id of ['q-min', 'q-route', 'q-impact', 'q-fees', 'q-batcher', 'q-liquidity', 'q-venue'])
        $(id).textContent = '—';
      // No route: an order built for an earlier pair or amount does not stay up for signing.
      if (state.api && $('status').hidden) await reviewOrHide();
      return;
    }
    const usd = q.adaUsd && q.tokenOut.unit === LOVELACE ? ` (≈ ${fmt(best.amountOut * q.adaUsd, 2)} USD)` : '';
    $('q-out').textContent = `${fmt(best.amountOut)} ${q.tokenOut.displayName}${usd}`;
    $('q-route').textContent = best.hops
      .map((h) => `${h.dex} pool ${h.poolId}${h.exact ? '' : ' (approximate)'}`)
      .join(' → ');
    $('q-impact').textContent = pct(best.priceImpact);
    $('q-fees').textContent = best.fees
      .map(
        (f) =>
          `${fmt(f.amount)} ${f.unit === q.tokenIn.unit ? q.tokenIn.displayName : f.unit === LOVELACE ? 'ADA' : q.tokenOut.displayName} (${fmt(f.percent, 3)} %)`,
      )
      .join(', ');
    // What the route's orders likely cost (each DEX's median over the last 24 h, one order per hop); the ranking of
    // the routes counts it, the output above does not.
    $('q-batcher').textContent =
      best.batcherFee === null
        ? 'unknown'
        : `≈ ${fmt(best.batcherFee)} ADA (${best.hops.length === 1 ? 'one order' : `${best.hops.length} orders`})`;
    const tvls = await Promise.all(best.hops.map((h) => poolTvl(h.poolId)));
    const known = tvls.filter((t) => t !== null);
    $('q-liquidity').textContent = known.length ? `${fmt(Math.min(...known), 0)} ADA` : '—';
    const v = state.venueRoute;
    const minOut = v ? minOutOf(v) : null;
    $('q-min').textContent = v ? `${fmt(Number(minOut) / 10 ** q.tokenOut.decimals)} ${q.tokenOut.displayName}` : '—';
    $('q-venue').textContent = v
      ? `${VENUES[v.hops[0].dex]} pool ${v.hops[0].poolId}: ${fmt(v.amountOut)} ${q.tokenOut.displayName}${sameRoute(v, best) ? ' (the best route)' : ''}`
      : 'this page builds Minswap V2 and SundaeSwap V3 orders; no pool of theirs trades this pair directly';
  } catch (e) {
    return clearQuote(`Quote failed: ${e.message}`);
  }
  // The order under review follows the quote shown (amount, slippage, a moved pool) until it is submitted.
  if (state.api && $('status').hidden) await reviewOrHide();
}

/** Rebuilds the order for the current quote; when none can be built, none stays up for signing. */
function reviewOrHide() {
  return review().catch((err) => {
    state.built = null;
    $('review').hidden = true;
    showError('error', `Order: ${err.message}`);
  });
}

/** The order's minimum: the venue route's exact output less the slippage tolerance as typed (order.ts, exact). */
function minOutOf(route) {
  return minReceived(BigInt(route.amountOutRaw), $('slippage').value);
}

/**
 * One button per CIP-30 wallet found. Called again once extensions have injected themselves: buttons already listed
 * stay the same elements, so a click landing while the list is refreshed still connects.
 */
function listWallets() {
  const box = $('wallets');
  const found = Object.entries(window.cardano || {}).filter(([, w]) => w && typeof w.enable === 'function');
  $('no-wallet').hidden = found.length > 0;
  const listed = new Set([...box.querySelectorAll('button')].map((b) => b.dataset.wallet));
  for (const [key, w] of found) {
    if (listed.has(key)) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.wallet = key;
    b.textContent = `Connect ${w.name || key}`;
    b.addEventListener('click', () =>
      connect(key).catch((e) => showError('error', `Wallet: ${e.message || e.info || e}`)),
    );
    box.appendChild(b);
  }
}

async function connect(key) {
  const api = await window.cardano[key].enable();
  const network = await api.getNetworkId();
  if (network !== 1) throw new Error('switch the wallet to mainnet (this service indexes mainnet-style addresses)');
  state.api = api;
  state.address = addressFromHex(await api.getChangeAddress());
  $('wallet-address').textContent = state.address;
  $('connected').hidden = false;
  showError('error', '');
  await review();
}

async function review() {
  const q = state.quote;
  if (!state.api || !q) return;
  const v = state.venueRoute;
  if (!v) throw new Error('no Minswap V2 or SundaeSwap V3 pool for this pair: the page cannot build the order');
  const dex = v.hops[0].dex;
  const venue =
    dex === 'sundaeswap-v3' ? { dex, poolIdent: (await pool(v.hops[0].poolId)).identifier } : { dex: 'minswap-v2' };
  const minOut = minOutOf(v);
  if (minOut === null) throw new Error('slippage must be a percentage from 0 up to 100, e.g. 1 or 0.5');
  const built = buildOrderTx({
    venue,
    utxos: (await state.api.getUtxos()) || [],
    changeAddress: await state.api.getChangeAddress(),
    tokenIn: q.tokenIn.unit,
    tokenOut: q.tokenOut.unit,
    // The route's exact base units: the quote's decimal `amountIn` is a JSON number, which loses digits past 2^53.
    amountIn: BigInt(v.hops[0].amountInRaw),
    minOut,
  });
  state.built = built;
  // Outputs hold base units: the pair's tokens are shown in their own units, any other token as base units.
  const known = new Map([q.tokenIn, q.tokenOut].map((a) => [a.unit, a]));
  const tokenText = (unit, qty) => {
    const a = known.get(unit);
    return a ? `${fromBase(qty, a.decimals)} ${a.displayName}` : `${qty} base units of ${unit}`;
  };
  $('r-fee').textContent = ada(built.fee);
  $('r-inputs').textContent = String(built.inputs.length);
  const body = $('outputs').querySelector('tbody');
  body.textContent = '';
  built.outputs.forEach((o, i) => {
    const tr = document.createElement('tr');
    tr.dataset.role = o.role;
    const cells = [
      String(i),
      o.role === 'order' ? `${VENUES[dex]} order (script)` : 'change (your wallet)',
      o.address,
      ada(o.lovelace),
      o.assets.map(([u, qty]) => tokenText(u, qty)).join(', ') || '—',
      o.datum ? `inline order datum (${o.datum.length / 2} bytes)` : '—',
    ];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
  $('review').hidden = false;
  showError('error', '');
}

/** The wallet's latest trades (newest first). */
const walletTrades = () => getJson(`/api/v1/wallet/${state.address}/trades?limit=50&logos=url`);

async function signAndSubmit() {
  const b = state.built;
  if (!b || !state.api) return;
  $('sign').disabled = true;
  try {
    // The wallet's trades before this order: none of them can be its trade.
    const before = await walletTrades().then(
      (t) => new Set(t.items.map((x) => x.id)),
      () => null,
    );
    const witnesses = await state.api.signTx(b.txHex, true);
    const txId = await state.api.submitTx(spliceWitnesses(b.bodyHex, witnesses));
    $('status').hidden = false;
    $('tx-id').textContent = txId;
    $('status-text').textContent = 'Submitted by your wallet. Waiting for the order to reach the chain…';
    watchTrade(txId, before, state.quote);
  } catch (e) {
    showError('error', `Not submitted: ${e.message || e.info || e}`);
    $('sign').disabled = false;
  }
}

/**
 * Polls the wallet's trades until the order shows up and the batcher completes or refunds it. A pending trade is
 * listed under the order's transaction; once executed or cancelled, under that transaction instead, so the trade is
 * followed by its id. If the order was executed before the page ever saw it pending, its trade is the wallet's one of
 * this pair that was not there `before` submission. Nothing else is: the wallet's earlier trades are not this order.
 */
function watchTrade(txId, before, quote) {
  let tries = 0;
  let tradeId = null;
  const isNew = (x) =>
    before !== null &&
    !before.has(x.id) &&
    x.tokenIn.unit === quote.tokenIn.unit &&
    x.tokenOut.unit === quote.tokenOut.unit;
  const poll = async () => {
    tries++;
    try {
      const t = await walletTrades();
      const mine = t.items.find((x) => (tradeId !== null ? x.id === tradeId : x.txHash === txId || isNew(x)));
      if (mine) {
        tradeId = mine.id;
        const el = $('trade-status');
        el.textContent = `Trade ${mine.status}: ${fmt(mine.amountIn)} ${mine.tokenIn.displayName} → ${fmt(mine.amountOut)} ${mine.tokenOut.displayName}`;
        el.className = mine.status === 'complete' ? 'ok' : mine.status === 'cancelled' ? 'error' : '';
        el.dataset.status = mine.status;
        if (mine.status !== 'pending') {
          $('status-text').textContent = 'Done.';
          return;
        }
      }
    } catch (e) {
      console.warn(e);
    }
    if (tries < 180) setTimeout(poll, 2000);
  };
  void poll();
}

function init() {
  const q = new URLSearchParams(window.location.search);
  $('in').value = q.get('in') || LOVELACE;
  $('out').value = q.get('out') || '';
  $('amount').value = q.get('amount') || '';
  let debounce = null;
  $('pair').addEventListener('submit', (e) => {
    e.preventDefault();
    poolCache.clear();
    // A new pair, amount or slippage: the order under review is rebuilt from the fresh quote (refreshQuote).
    void refreshQuote();
  });
  for (const id of ['amount', 'slippage'])
    $(id).addEventListener('input', () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => void refreshQuote(), 400);
    });
  $('sign').addEventListener('click', () => void signAndSubmit());
  listWallets();
  // Wallet extensions inject themselves a little after load.
  setTimeout(listWallets, 500);
  void refreshQuote();
  state.timer = setInterval(() => void refreshQuote(), QUOTE_EVERY_MS);
}

init();

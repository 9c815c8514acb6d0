/**
 * The swap page in headless Chromium (Debian's `chromium`, driven by playwright-core) against a devnet-synced
 * service: a CIP-30 wallet holding a real Ed25519 devnet key is injected (its UTxOs are the devnet ledger's, it signs
 * in the test process and submits through the devnet's Ogmios `submitTransaction`). From a quote's `link` the page
 * shows the live quote, picks the venue (the Minswap V2 or SundaeSwap V3 direct pool the quote ranks first: what it
 * leaves once the DEX's batcher fee is paid), connects,
 * builds that DEX's order, shows every output, gets it signed and submitted; the devnet includes it, its batcher
 * executes it, and /api/v1/wallet/{address}/trades shows the trade pending, then complete. Run once for a pair whose
 * better-ranked direct pool is on Minswap V2 and once for one on SundaeSwap V3, then for a wallet with an earlier trade (the
 * page must report its own order, not the wallet's latest trade) and for a token sold (its review in the token's
 * units). The oracle is the devnet ledger: the order output at that DEX's order script, the tokens received.
 * Screenshots land in test/swap/artifacts/ (gitignored).
 * Skips visibly when /usr/bin/chromium is missing.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { MINSWAP_V2 } from '../../cardano/dex/minswap-v2.js';
import { SUNDAESWAP_V3 } from '../../cardano/dex/sundaeswap-v3.js';
import { parseAddress } from '../../cardano/address.js';
import { startStack, type Stack } from '../md/stack.js';
import { buildOrderTx, spliceWitnesses } from '../../api/pages/swap/order.js';
import { DevnetWallet } from './wallet.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADA = 1_000_000n;

interface Trade {
  txHash: string;
  dex: string;
  status: string;
  amountIn: number;
  amountOut: number;
  tokenIn: { unit: string };
  tokenOut: { unit: string; decimals: number };
}

interface Route {
  hops: { dex: string; poolId: number }[];
  amountOutRaw: string;
  batcherFeeLovelace: string | null;
}

const CASES = [
  { dex: 'minswap-v2', name: 'Minswap V2', orderScript: MINSWAP_V2.orderScriptHash, wallet: 'swap-test-wallet' },
  { dex: 'sundaeswap-v3', name: 'SundaeSwap V3', orderScript: SUNDAESWAP_V3.orderScriptHash, wallet: 'swap-sundae' },
] as const;

/** Base units → the decimal text the REST API prints. */
const decimalText = (q: bigint, decimals: number) => {
  if (!decimals) return q.toString();
  const s = q.toString().padStart(decimals + 1, '0');
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
};

/**
 * The direct route on Minswap V2 or SundaeSwap V3 the quote ranks first: routes come best first by what they leave
 * once the batcher fee is paid, so not always the largest output (a Minswap V2 pool paying a little more at 1 ADA per
 * order ranks below a SundaeSwap V3 one at 0.5 ADA on a small amount).
 */
function directVenue(routes: Route[]): Route | null {
  return routes.find((r) => r.hops.length === 1 && ['minswap-v2', 'sundaeswap-v3'].includes(r.hops[0]!.dex)) ?? null;
}

/**
 * Waits for `selector`; when it does not show, the failure carries what the page said instead (its text, its errors)
 * and a screenshot, so a failure in CI can be read without rerunning it.
 */
async function shown(page: Page, selector: string, problems: string[]) {
  await page.waitForSelector(selector).catch(async (e: Error) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'swap-failed.png'), fullPage: true });
    throw new Error(`${e.message}\n${await page.textContent('main')}\n${problems.join('\n')}`);
  });
}

/** A devnet wallet holding 2,000 ADA, the service synced to the block that paid it. */
async function fundedWallet(s: Stack, name: string): Promise<DevnetWallet> {
  const wallet = new DevnetWallet(s.devnet, name);
  s.devnet.fund(wallet.address, 2_000n * ADA);
  s.devnet.step();
  await s.syncToTip();
  return wallet;
}

/** The unit of the token whose ADA pool on Minswap V2 is the deepest (REST /pools). */
async function deepestMinswapToken(s: Stack): Promise<string> {
  const pools = (await (await fetch(`${s.url}/api/v1/pools?pageSize=200&logos=url`)).json()) as {
    items: { dex: string; tokenA: { unit: string }; tokenB: { unit: string }; tvlAda: number | null }[];
  };
  return pools.items
    .filter((p) => p.dex === 'minswap-v2' && p.tokenA.unit === 'lovelace')
    .sort((a, b) => (b.tvlAda ?? 0) - (a.tvlAda ?? 0))[0]!.tokenB.unit;
}

describe('swap page in a browser: quote, CIP-30 wallet, sign, submit, executed on the devnet', function () {
  this.timeout(300_000);
  let context: BrowserContext | null = null;
  let profile = '';
  let stack: Stack | null = null;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`skipped: ${CHROMIUM} not installed (apt-get install chromium)`);
      this.skip();
    }
    stack = await startStack({ seed: 'swap-browser', hours: 3 });
    profile = mkdtempSync(join(tmpdir(), 'swap-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1100, height: 1300 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  });
  after(async () => {
    await context?.close();
    await stack?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** A page with a CIP-30 wallet injected: its UTxOs, signatures and submissions are `wallet`'s (test process). */
  async function walletPage(wallet: DevnetWallet) {
    const page = await context!.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    let submitted = '';
    await page.exposeFunction('__walletUtxos', () => wallet.utxos());
    await page.exposeFunction('__walletSign', (tx: string) => wallet.signTx(tx));
    await page.exposeFunction('__walletSubmit', async (tx: string) => (submitted = await wallet.submitTx(tx)));
    await page.addInitScript({
      content: `
      window.cardano = Object.assign(window.cardano || {}, {
        devnetwallet: {
          name: 'Devnet Wallet',
          apiVersion: '1',
          icon: '',
          isEnabled: async () => true,
          enable: async () => ({
            getNetworkId: async () => 1,
            getUtxos: () => window.__walletUtxos(),
            getChangeAddress: async () => ${JSON.stringify(wallet.addressHex)},
            getUsedAddresses: async () => [${JSON.stringify(wallet.addressHex)}],
            getRewardAddresses: async () => [],
            signTx: (tx, partial) => window.__walletSign(tx),
            submitTx: (tx) => window.__walletSubmit(tx),
          }),
        },
      });`,
    });
    return { page, problems, submitted: () => submitted };
  }

  for (const c of CASES)
    it(`opens /swap from a quote link, signs and submits a ${c.name} order, and sees the trade complete`, async () => {
      const s = stack!;
      const wallet = new DevnetWallet(s.devnet, c.wallet);
      s.devnet.fund(wallet.address, 2_000n * ADA);
      s.devnet.step();
      await s.syncToTip();

      // A token with an ADA pool on this case's DEX, the deepest first, whose better-ranked direct pool for 150 ADA
      // (Minswap V2 or SundaeSwap V3, in the quote's order) is that one.
      const pools = (await (await fetch(`${s.url}/api/v1/pools?pageSize=200&logos=url`)).json()) as {
        items: { id: number; dex: string; tokenA: { unit: string }; tokenB: { unit: string }; tvlAda: number | null }[];
      };
      const candidates = pools.items
        .filter((p) => p.dex === c.dex && p.tokenA.unit === 'lovelace')
        .sort((a, b) => (b.tvlAda ?? 0) - (a.tvlAda ?? 0));
      let pool: (typeof candidates)[number] | null = null;
      let quote: { link: string; routes: Route[] } | null = null;
      for (const p of candidates) {
        const q = (await (
          await fetch(`${s.url}/api/v1/swap/quote?in=lovelace&out=${p.tokenB.unit}&amount=150&logos=url`)
        ).json()) as { link: string; routes: Route[] };
        if (directVenue(q.routes)?.hops[0]!.poolId === p.id) {
          [pool, quote] = [p, q];
          break;
        }
      }
      assert.ok(pool && quote, `a token whose better direct pool is on ${c.name}`);
      assert.ok(quote.link.startsWith(`${s.url}/swap?`), quote.link);

      const { page, problems, submitted: submittedTx } = await walletPage(wallet);
      await page.goto(quote.link);
      await page.waitForSelector('#quote-table:not([hidden])');
      await shown(page, '#q-route:text-matches("pool [0-9]+")', problems);
      assert.match((await page.textContent('#q-in'))!, /^150 ADA$/);
      assert.match((await page.textContent('#q-liquidity'))!, /^[\d,]+ ADA$/);
      assert.match((await page.textContent('#q-impact'))!, /%$/);
      assert.match((await page.textContent('#q-venue'))!, new RegExp(`^${c.name} pool ${pool.id}: `));

      await page.click('button[data-wallet="devnetwallet"]');
      await shown(page, '#review:not([hidden])', problems);
      const rows = await page.$$eval('#outputs tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
      assert.equal(rows.length, 2, 'order and change');
      const orderRow = rows[0]!;
      assert.equal(orderRow[1], `${c.name} order (script)`);
      assert.equal(parseAddress(orderRow[2]!).paymentCred, c.orderScript, `pays the ${c.name} order script`);
      assert.equal(orderRow[3], '153', '150 ADA + 2 ADA deposit + 1 ADA batcher (scooper) fee at most');
      assert.match(orderRow[5]!, /inline order datum/);
      assert.equal(rows[1]![2], wallet.address, 'change back to the wallet');

      await page.click('#sign');
      await page.waitForSelector('#tx-id:text-matches("^[0-9a-f]{64}$")');
      assert.equal(wallet.signed, 1);
      const txId = (await page.textContent('#tx-id'))!;
      assert.equal(txId, submittedTx());

      // The devnet includes the order: the trade is pending on REST.
      s.devnet.step();
      await s.syncToTip();
      const order = s.devnet.ledger.utxos.get(`${txId}#0`);
      assert.ok(order, 'the order output is on the devnet ledger');
      const trades = async () =>
        (
          (await (await fetch(`${s.url}/api/v1/wallet/${wallet.address}/trades?logos=url`)).json()) as {
            items: Trade[];
          }
        ).items;
      const pending = await trades();
      assert.equal(pending.length, 1, JSON.stringify(pending));
      assert.equal(pending[0]!.status, 'pending');
      assert.equal(pending[0]!.dex, c.dex);
      assert.equal(pending[0]!.amountIn, 150);
      const mdWallet = async () => (await fetch(`${s.url}/api/md/wallet/${wallet.address}`)).text();
      assert.match(
        await mdWallet(),
        /\| 150 ADA \| — \| [^|]+ \| [^|]+ \| pending \|/,
        'the Markdown wallet view shows it pending',
      );

      // The batcher executes it in the next block: complete, with the tokens the ledger shows received.
      s.devnet.step();
      await s.syncToTip();
      assert.equal(s.devnet.ledger.utxos.get(`${txId}#0`), undefined, 'the batcher spent the order');
      const [policy, name] = [pool.tokenB.unit.slice(0, 56), pool.tokenB.unit.slice(56)];
      let received = 0n;
      for (const u of s.devnet.ledger.utxosAt(wallet.address)) received += u.value.assets[policy]?.[name] ?? 0n;
      assert.ok(received > 0n);
      const done = await trades();
      assert.equal(done.length, 1);
      assert.equal(done[0]!.status, 'complete');
      assert.equal(done[0]!.tokenOut.unit, pool.tokenB.unit);
      assert.equal(
        done[0]!.amountOut,
        Number(decimalText(received, done[0]!.tokenOut.decimals)),
        'what the ledger paid',
      );
      assert.match(await mdWallet(), /\| 150 ADA \| [\d.,]+ \S+ \| [^|]+ \| [^|]+ \| complete \|/, 'and complete');

      await page.waitForSelector('#trade-status[data-status="complete"]', { timeout: 30_000 });
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `swap-${c.dex}.png`), fullPage: true });
      assert.deepEqual(problems, []);
    });

  it('the venue is the direct pool the quote ranks first: one paying a little more whose order costs more is not the one signed for', async () => {
    const s = stack!;
    const pools = (await (await fetch(`${s.url}/api/v1/pools?pageSize=200&logos=url`)).json()) as {
      items: { dex: string; tokenA: { unit: string }; tokenB: { unit: string } }[];
    };
    const units = [...new Set(pools.items.filter((p) => p.tokenA.unit === 'lovelace').map((p) => p.tokenB.unit))];
    // Oracle: the REST quote of 10 ADA (routes best first by output less batcher fee): a token whose first-ranked
    // Minswap V2 or SundaeSwap V3 direct route pays less than the other DEX's, which its order's fee outweighs.
    let found: { unit: string; first: Route; most: Route } | null = null;
    for (const unit of units) {
      const q = (await (
        await fetch(`${s.url}/api/v1/swap/quote?in=lovelace&out=${unit}&amount=10&logos=url`)
      ).json()) as {
        routes: Route[];
      };
      const direct = q.routes.filter((r) => r.hops.length === 1 && CASES.some((c) => c.dex === r.hops[0]!.dex));
      const most = direct.reduce<Route | null>(
        (m, r) => (!m || BigInt(r.amountOutRaw) > BigInt(m.amountOutRaw) ? r : m),
        null,
      );
      if (direct[0] && most && direct[0] !== most) {
        found = { unit, first: direct[0], most };
        break;
      }
    }
    assert.ok(found, 'a pair whose first-ranked buildable pool is not the one paying most');
    const { unit, first, most } = found;
    assert.ok(BigInt(first.batcherFeeLovelace!) < BigInt(most.batcherFeeLovelace!), 'its order costs less');
    const name = CASES.find((c) => c.dex === first.hops[0]!.dex)!.name;
    const page = await context!.newPage();
    await page.goto(`${s.url}/swap?in=lovelace&out=${unit}&amount=10`);
    await page.waitForSelector('#q-route:text-matches("pool [0-9]+")');
    assert.match((await page.textContent('#q-venue'))!, new RegExp(`^${name} pool ${first.hops[0]!.poolId}: `));
    await page.close();
  });

  it('the quote and the order follow the form: the quote is /swap/quote’s, a new amount rebuilds the order, a refused amount or a bad slippage leaves nothing to sign', async () => {
    const s = stack!;
    const wallet = await fundedWallet(s, 'swap-form');
    const unit = await deepestMinswapToken(s);
    // Oracle: the REST quote of the same pair and amount (the devnet does not move between the two reads).
    const quote = (await (await fetch(`${s.url}/api/v1/swap/quote?in=lovelace&out=${unit}&amount=150`)).json()) as {
      tokenOut: { displayName: string; decimals: number };
      best: { amountOut: number; batcherFee: number | null };
      routes: Route[];
    };
    const venue = directVenue(quote.routes)!;
    const text = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 6 });
    const name = quote.tokenOut.displayName;

    const { page, problems } = await walletPage(wallet);
    await page.goto(`${s.url}/swap?in=lovelace&out=${unit}&amount=150`);
    await page.waitForSelector('#q-route:text-matches("pool [0-9]+")');
    assert.equal(await page.textContent('#q-out'), `${text(quote.best.amountOut)} ${name}`);
    // The best route's batcher fee (one order: ADA → token is one hop), which its ranking counted.
    const fee = quote.best.batcherFee;
    assert.equal(await page.textContent('#q-batcher'), fee === null ? 'unknown' : `≈ ${text(fee)} ADA (one order)`);
    // 1 % slippage: the order's minimum, ⌊quote × 99 / 100⌋.
    const min = (BigInt(venue.amountOutRaw) * 9_900n) / 10_000n;
    assert.equal(await page.textContent('#q-min'), `${text(Number(min) / 10 ** quote.tokenOut.decimals)} ${name}`);
    await page.click('button[data-wallet="devnetwallet"]');
    await shown(page, '#review:not([hidden])', problems);
    const orderAda = () => page.textContent('#outputs tbody tr[data-role="order"] td:nth-child(4)');
    assert.equal(await orderAda(), '153');

    // A new amount typed in: the order under review is rebuilt for it (150 → 200 ADA, + 3 ADA deposit and fee).
    await page.fill('#amount', '200');
    await page.waitForSelector('#outputs tbody tr[data-role="order"] td:nth-child(4):text-is("203")', {
      timeout: 15_000,
    });
    assert.match((await page.textContent('#q-in'))!, /^200 ADA$/);

    // A slippage that is no percentage: no quote shown, no order to sign.
    for (const bad of ['-5', '100', 'abc']) {
      await page.fill('#slippage', bad);
      await page.waitForSelector('#review[hidden]', { state: 'attached', timeout: 15_000 });
      await page.waitForSelector('#quote-table[hidden]', { state: 'attached' });
      assert.match((await page.textContent('#quote-error'))!, /^Slippage must be a percentage/, bad);
      await page.fill('#slippage', '1');
      await page.waitForSelector('#review:not([hidden])', { timeout: 15_000 });
    }

    // An amount the service refuses: its error, and nothing of the earlier quote or order stays up.
    await page.fill('#amount', '0');
    await page.waitForSelector('#review[hidden]', { state: 'attached', timeout: 15_000 });
    assert.equal(await page.isHidden('#quote-table'), true);
    assert.match((await page.textContent('#quote-error'))!, /^Quote failed: invalid parameter amount/);

    // One lovelace buys no base unit of the token: the page says so, as the quote's note does, and does not claim
    // that no pool trades the pair (one quoted 150 ADA above).
    const dust = (await (await fetch(`${s.url}/api/v1/swap/quote?in=lovelace&out=${unit}&amount=0.000001`)).json()) as {
      best: null;
      note: string;
    };
    assert.equal(dust.best, null);
    assert.match(dust.note, /^No route: 0\.000001 ADA buys less than one base unit of /);
    await page.fill('#amount', '0.000001');
    await page.waitForSelector('#quote-table:not([hidden])', { timeout: 15_000 });
    await page.waitForSelector('#q-out:text-matches("^No route")', { timeout: 15_000 });
    assert.equal(await page.textContent('#q-out'), dust.note);
    assert.equal(await page.isHidden('#review'), true);
    assert.equal(wallet.signed, 0);
    assert.deepEqual(
      problems.filter((p) => !p.includes('400')),
      [],
    );
  });

  it('a wallet that traded before: the page follows its own order to complete, not the wallet’s last trade', async () => {
    const s = stack!;
    const wallet = await fundedWallet(s, 'swap-again');
    const unit = await deepestMinswapToken(s);
    const trades = async () =>
      (
        (await (await fetch(`${s.url}/api/v1/wallet/${wallet.address}/trades?logos=url`)).json()) as {
          items: Trade[];
        }
      ).items;

    // The wallet's earlier trade, 50 ADA into the same token, placed and executed before the page opens.
    const earlier = buildOrderTx({
      venue: { dex: 'minswap-v2' },
      utxos: wallet.utxos(),
      changeAddress: wallet.addressHex,
      tokenIn: 'lovelace',
      tokenOut: unit,
      amountIn: 50n * ADA,
      minOut: 1n,
    });
    await wallet.submitTx(spliceWitnesses(earlier.bodyHex, wallet.signTx(earlier.txHex)));
    s.devnet.step();
    s.devnet.step();
    await s.syncToTip();
    assert.deepEqual(
      (await trades()).map((t) => [t.status, t.amountIn]),
      [['complete', 50]],
    );

    const { page, problems, submitted } = await walletPage(wallet);
    // Resolves once the page has read the wallet's trades after the wallet submitted: its first look for the order.
    const firstLook = new Promise<void>((resolve) => {
      const afterSubmit = new WeakSet<object>();
      page.on('request', (r) => {
        if (submitted() && r.url().includes(`/wallet/${wallet.address}/trades`)) afterSubmit.add(r);
      });
      page.on('requestfinished', (r) => afterSubmit.has(r) && resolve());
    });
    await page.goto(`${s.url}/swap?in=lovelace&out=${unit}&amount=150`);
    await page.waitForSelector('#q-route:text-matches("pool [0-9]+")');
    await page.click('button[data-wallet="devnetwallet"]');
    await shown(page, '#review:not([hidden])', problems);
    await page.click('#sign');
    await page.waitForSelector('#tx-id:text-matches("^[0-9a-f]{64}$")');
    // The page looks at the wallet's trades at once, before the order is on chain: only the earlier trade is there.
    await firstLook;
    s.devnet.step();
    await s.syncToTip();
    s.devnet.step();
    await s.syncToTip();
    const done = (await trades()).find((t) => t.amountIn === 150);
    assert.equal(done?.status, 'complete', 'the batcher executed the new order');
    await page.waitForSelector('#trade-status[data-status="complete"]', { timeout: 30_000 });
    const status = (await page.textContent('#trade-status'))!;
    assert.match(status, /^Trade complete: 150 ADA → /, `this order’s trade, not the earlier one: ${status}`);
    assert.deepEqual(problems, []);
  });

  it('sells a token: the review shows the tokens locked and kept in the token’s own units, and the trade completes', async () => {
    const s = stack!;
    const wallet = new DevnetWallet(s.devnet, 'swap-sell');
    s.devnet.fund(wallet.address, 2_000n * ADA);
    s.devnet.step();
    await s.syncToTip();
    const pools = (await (await fetch(`${s.url}/api/v1/pools?pageSize=200&logos=url`)).json()) as {
      items: {
        dex: string;
        tokenA: { unit: string };
        tokenB: { unit: string; decimals: number; displayName: string };
        tvlAda: number | null;
      }[];
    };
    const token = pools.items
      .filter((p) => p.dex === 'minswap-v2' && p.tokenA.unit === 'lovelace' && p.tokenB.decimals > 0)
      .sort((a, b) => (b.tvlAda ?? 0) - (a.tvlAda ?? 0))[0]!.tokenB;
    const [policy, name] = [token.unit.slice(0, 56), token.unit.slice(56)];
    const held = () => {
      let q = 0n;
      for (const u of s.devnet.ledger.utxosAt(wallet.address)) q += u.value.assets[policy]?.[name] ?? 0n;
      return q;
    };
    // The wallet buys the token first (300 ADA), outside the page.
    const buy = buildOrderTx({
      venue: { dex: 'minswap-v2' },
      utxos: wallet.utxos(),
      changeAddress: wallet.addressHex,
      tokenIn: 'lovelace',
      tokenOut: token.unit,
      amountIn: 300n * ADA,
      minOut: 1n,
    });
    await wallet.submitTx(spliceWitnesses(buy.bodyHex, wallet.signTx(buy.txHex)));
    s.devnet.step();
    s.devnet.step();
    await s.syncToTip();
    const before = held();
    const one = 10n ** BigInt(token.decimals);
    const sell = before / one / 2n; // whole tokens
    assert.ok(sell > 0n);

    const { page, problems } = await walletPage(wallet);
    await page.goto(`${s.url}/swap?in=${token.unit}&out=lovelace&amount=${sell}`);
    await page.waitForSelector('#q-route:text-matches("pool [0-9]+")');
    await page.click('button[data-wallet="devnetwallet"]');
    await shown(page, '#review:not([hidden])', problems);
    const rows = await page.$$eval('#outputs tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    // Oracle: the wallet's ledger balance of the token, less what the order locks.
    const grouped = (d: string) => d.replace(/^\d+/, (i) => BigInt(i).toLocaleString('en-US'));
    const kept = decimalText(before - sell * one, token.decimals).replace(/\.?0+$/, '');
    assert.equal(rows[0]![4], `${grouped(String(sell))} ${token.displayName}`, 'the order locks the amount sold');
    assert.equal(rows[1]![4], `${grouped(kept)} ${token.displayName}`, 'the change keeps the rest');

    await page.click('#sign');
    await page.waitForSelector('#tx-id:text-matches("^[0-9a-f]{64}$")');
    s.devnet.step();
    await s.syncToTip();
    assert.equal(held(), before - sell * one, 'the ledger: the order took what the review showed');
    s.devnet.step();
    await s.syncToTip();
    await page.waitForSelector('#trade-status[data-status="complete"]', { timeout: 30_000 });
    assert.match((await page.textContent('#trade-status'))!, new RegExp(`^Trade complete: ${grouped(String(sell))} `));
    assert.deepEqual(problems, []);
  });

  it('a wallet button found at load stays the one to click when a wallet injected later is listed, and it connects', async () => {
    const s = stack!;
    const wallet = await fundedWallet(s, 'swap-late-listing');
    const unit = await deepestMinswapToken(s);
    const { page, problems } = await walletPage(wallet);
    // Once the page has listed its wallets (its deferred script runs before DOMContentLoaded): the button it listed,
    // and a second extension injecting itself a little later, as real ones do, for which the page lists wallets again.
    await page.addInitScript({
      content: `document.addEventListener('DOMContentLoaded', () => {
        window.__firstButton = document.querySelector('button[data-wallet="devnetwallet"]');
        setTimeout(() => { window.cardano.latewallet = { name: 'Late Wallet', enable: async () => { throw new Error('not this one'); } }; }, 50);
      });`,
    });
    await page.goto(`${s.url}/swap?in=lovelace&out=${unit}&amount=150`);
    await page.waitForSelector('button[data-wallet="latewallet"]');
    const early = await page.evaluateHandle('window.__firstButton');
    assert.equal(
      await early.evaluate((b: { isConnected: boolean }) => b.isConnected),
      true,
      'the button listed first is still on the page',
    );
    assert.equal(await page.$$eval('#wallets button', (bs) => bs.length), 2, 'one button per wallet');
    await page.waitForSelector('#q-route:text-matches("pool [0-9]+")');
    // A click on it, as one landing while the list was refreshed, connects.
    await early.asElement()!.click();
    await shown(page, '#review:not([hidden])', problems);
    assert.equal(await page.textContent('#wallet-address'), wallet.address);
    assert.deepEqual(problems, []);
  });
});

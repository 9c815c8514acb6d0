/**
 * The account page in headless Chromium (Debian's `chromium`, driven by playwright-core): a CIP-30 wallet is
 * injected into the page and signs with a real Ed25519 key held by the test (through an exposed function), so the
 * page's whole flow runs against the real server: sign in, create a key, use it, revoke it, see 401.
 * Skips visibly when /usr/bin/chromium is missing (.ci/install-system-deps.sh installs it in CI).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SESSION_TTL_MS } from '../../api/access/signin.js';
import { MemoryStore } from './memory-store.js';
import { request, startTestApp, testConfig, TestWallet } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Injects a CIP-30 wallet `testwallet` into every page of `page` (before its scripts run): its addresses are the
 * test wallet's, and `signData` signs in the test with the wallet's real Ed25519 key, calling `onSign` each time.
 */
async function injectWallet(page: Page, wallet: TestWallet, onSign: () => void = () => {}): Promise<void> {
  await page.exposeFunction('__testWalletSign', (addressHex: string, payloadHex: string) => {
    onSign();
    return wallet.signData(addressHex, payloadHex);
  });
  const addressHex = TestWallet.addressHex(wallet.address);
  // A string, not a function: the page must get exactly this source (no transpiler helpers).
  await page.addInitScript({
    content: `
      window.cardano = Object.assign(window.cardano || {}, {
        testwallet: {
          name: 'Test Wallet',
          apiVersion: '1',
          icon: '',
          isEnabled: async () => true,
          enable: async () => ({
            getNetworkId: async () => 1,
            getUsedAddresses: async () => [${JSON.stringify(addressHex)}],
            getUnusedAddresses: async () => [],
            getChangeAddress: async () => ${JSON.stringify(addressHex)},
            getRewardAddresses: async () => [${JSON.stringify(TestWallet.addressHex(wallet.stakeAddress))}],
            signData: (address, payload) => window.__testWalletSign(address, payload),
          }),
        },
      });`,
  });
}

describe('access: account page in a browser', function () {
  let context: BrowserContext | null = null;
  let profile = '';
  let app: Awaited<ReturnType<typeof startTestApp>> | null = null;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`skipped: ${CHROMIUM} not installed (apt-get install chromium)`);
      this.skip();
    }
    profile = mkdtempSync(join(tmpdir(), 'access-chromium-'));
    // A fresh, empty profile directory per run.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  after(async () => {
    await context?.close();
    await app?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('signs in with an injected CIP-30 wallet, creates a key, uses it, revokes it and sees 401', async () => {
    app = await startTestApp(new MemoryStore(), testConfig());
    const wallet = new TestWallet();
    const page = await context!.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });

    let signed = 0;
    await injectWallet(page, wallet, () => (signed += 1));

    await page.goto(`${app.url}/account`);
    await page.click('button[data-wallet="testwallet"]');
    await page.waitForSelector('#account:not([hidden])');
    assert.equal(signed, 1);
    assert.equal(await page.textContent('#account-id'), wallet.stakeAddress);

    await page.fill('#key-name', 'browser key');
    await page.click('#create-key');
    await page.waitForSelector('#new-key-box:not([hidden])');
    const key = (await page.textContent('#new-key'))!.trim();
    assert.match(key, /^cds_[\w-]{43}$/);
    await page.waitForSelector('#keys tbody tr');
    assert.match((await page.textContent('#keys tbody tr'))!, /browser key.*active/);

    const used = await request(`${app.url}/api/v1/ping`, { headers: { 'x-api-key': key } });
    assert.equal(used.status, 200);
    assert.equal(used.headers.get('x-ratelimit-limit'), '120');
    assert.equal(used.headers.get('x-ratelimit-remaining'), '119');
    assert.equal(used.headers.get('x-daily-remaining'), '9999');

    await page.click('#keys tbody tr button.revoke');
    await page.waitForSelector('#keys tbody tr.revoked');
    const refused = await request(`${app.url}/api/v1/ping`, { headers: { 'x-api-key': key } });
    assert.equal(refused.status, 401);
    assert.deepEqual(Object.keys(refused.body as object), ['error']);

    // The page keeps the session across a reload (httpOnly cookie) and still never shows the key again.
    await page.reload();
    await page.waitForSelector('#keys tbody tr.revoked');
    assert.ok(!(await page.content()).includes(key.slice(4)));
    assert.deepEqual(problems, []);
  });
  it('takes a user whose session ended back to the wallet buttons, and signs in again', async () => {
    let t = Date.now();
    const expiring = await startTestApp(new MemoryStore(), testConfig(), { now: () => t });
    try {
      const wallet = new TestWallet();
      const page = await context!.newPage();
      await injectWallet(page, wallet);
      await page.goto(`${expiring.url}/account`);
      await page.click('button[data-wallet="testwallet"]');
      await page.waitForSelector('#account:not([hidden])');
      // The page is reloaded while signed in (no wallet buttons are drawn then), and the hour passes.
      await page.reload();
      await page.waitForSelector('#account:not([hidden])');
      t += SESSION_TTL_MS + 1000;
      await page.fill('#key-name', 'late key');
      await page.click('#create-key');
      // Before: the account view stayed, sign-in hidden: "Could not create a key: not signed in, or the session has
      // expired; sign in with your wallet", with no button to do so.
      await page.waitForSelector('#signin:not([hidden])', { timeout: 5000 });
      assert.ok(await page.isHidden('#account'));
      assert.match((await page.textContent('#status'))!, /session has ended; sign in again/);
      await page.click('button[data-wallet="testwallet"]');
      await page.waitForSelector('#account:not([hidden])');
      assert.equal(await page.textContent('#account-id'), wallet.stakeAddress);
    } finally {
      await expiring.close();
    }
  });

  it('lists a wallet that injects itself after another was found, and the button listed first still signs in', async () => {
    app ??= await startTestApp(new MemoryStore(), testConfig());
    const wallet = new TestWallet();
    const page = await context!.newPage();
    await injectWallet(page, wallet);
    // Once the page has drawn the first wallet's button: that button, and a second extension injecting itself a
    // little later, as real ones do, each on its own time.
    await page.addInitScript({
      content: `new MutationObserver((_, seen) => {
        const first = document.querySelector('button[data-wallet="testwallet"]');
        if (!first) return;
        seen.disconnect();
        window.__firstButton = first;
        setTimeout(() => { window.cardano.latewallet = { name: 'Late Wallet', enable: async () => { throw new Error('not this one'); } }; }, 400);
      }).observe(document, { childList: true, subtree: true });`,
    });
    await page.goto(`${app.url}/account`);
    await page.waitForSelector('button[data-wallet="latewallet"]', { timeout: 5000 });
    assert.equal(await page.textContent('button[data-wallet="latewallet"]'), 'Connect Late Wallet');
    const first = await page.evaluateHandle('window.__firstButton');
    assert.equal(await first.evaluate((b: { isConnected: boolean }) => b.isConnected), true, 'still on the page');
    await first.asElement()!.click();
    await page.waitForSelector('#account:not([hidden])');
    assert.equal(await page.textContent('#account-id'), wallet.stakeAddress);
  });
});

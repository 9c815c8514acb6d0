import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hex } from '@scure/base';
import { accountIdOf, signedAccountId, SignInError, verifyCip30Signature } from '../../api/access/cose.js';
import { MAX_LIVE_KEYS } from '../../api/access/keys.js';
import { baseAddress, keyHash, rewardAddress } from '../../cardano/address.js';
import { MemoryStore } from './memory-store.js';
import { request, signInOverHttp, startTestApp, testConfig, TestWallet } from './helpers.js';

const utf8Hex = (s: string) => hex.encode(new TextEncoder().encode(s));

describe('access: wallet sign-in (CIP-30 signData / CIP-8 COSE_Sign1)', function () {
  describe('signature verification', () => {
    const wallet = new TestWallet();
    const message = 'Sign in\nNonce: 00112233445566778899aabbccddeeff';
    const refused = (status: number, re: RegExp) => (e: unknown) =>
      e instanceof SignInError && e.status === status && re.test(e.message);

    it('accepts a payment-key signature for a base address and a stake-key signature for its stake address', () => {
      const byPayment = wallet.signData(wallet.address, utf8Hex(message));
      assert.equal(verifyCip30Signature({ address: wallet.address, message, ...byPayment }).credential, 'payment');
      const byStake = wallet.signData(wallet.stakeAddress, utf8Hex(message));
      const v = verifyCip30Signature({ address: wallet.stakeAddress, message, ...byStake });
      assert.equal(v.credential, 'stake');
      assert.equal(keyHash(v.publicKey), keyHash(wallet.stakeVk));
      // An operator naming either address means the wallet's account: the stake address.
      assert.equal(accountIdOf(wallet.address), wallet.stakeAddress);
      assert.equal(accountIdOf(wallet.enterprise), keyHash(wallet.paymentVk));
      // A sign-in opens the account of the key that signed: the stake key's is the stake address, a payment key's
      // its own hash (a base address's stake part is not proven by a payment-key signature).
      assert.equal(signedAccountId(wallet.stakeAddress, 'stake'), wallet.stakeAddress);
      assert.equal(signedAccountId(wallet.address, 'stake'), wallet.stakeAddress);
      assert.equal(signedAccountId(wallet.address, 'payment'), keyHash(wallet.paymentVk));
    });

    it('accepts a hashed payload (blake2b-224 of the message)', () => {
      const payload = hex.encode(blake2b(new TextEncoder().encode(message), { dkLen: 28 }));
      const signed = wallet.signData(wallet.address, payload, { hashed: true });
      assert.equal(verifyCip30Signature({ address: wallet.address, message, ...signed }).credential, 'payment');
    });

    it('refuses a key that does not hash to the address, another address in the header, another message, a forged signature', () => {
      const stranger = ed25519.utils.randomSecretKey();
      const other = new TestWallet();
      assert.throws(
        () =>
          verifyCip30Signature({
            address: wallet.address,
            message,
            ...wallet.signData(wallet.address, utf8Hex(message), { sk: stranger }),
          }),
        refused(401, /does not belong to this address/),
      );
      assert.throws(
        () =>
          verifyCip30Signature({
            address: wallet.address,
            message,
            ...wallet.signData(wallet.address, utf8Hex(message), {
              headerAddressHex: TestWallet.addressHex(other.address),
            }),
          }),
        refused(401, /address header/),
      );
      assert.throws(
        () =>
          verifyCip30Signature({
            address: wallet.address,
            message,
            ...wallet.signData(wallet.address, utf8Hex(`${message}x`)),
          }),
        refused(401, /not the one issued/),
      );
      const good = wallet.signData(wallet.address, utf8Hex(message));
      const forged = good.signature.slice(0, -2) + (good.signature.endsWith('00') ? '01' : '00');
      assert.throws(
        () => verifyCip30Signature({ address: wallet.address, message, signature: forged, key: good.key }),
        refused(401, /does not verify/),
      );
      // Another wallet's real signature and key, presented for this address.
      assert.throws(
        () =>
          verifyCip30Signature({
            address: wallet.address,
            message,
            ...other.signData(wallet.address, utf8Hex(message)),
          }),
        refused(401, /does not belong/),
      );
      assert.throws(
        () => verifyCip30Signature({ address: wallet.address, message, signature: 'zz', key: good.key }),
        refused(400, /hex/),
      );
      assert.throws(
        () => verifyCip30Signature({ address: wallet.address, message, signature: 'a0', key: good.key }),
        refused(400, /COSE_Sign1/),
      );
    });
  });

  describe('over HTTP', () => {
    let t = Date.parse('2026-03-10T12:00:00Z');
    let app: Awaited<ReturnType<typeof startTestApp>>;
    let store: MemoryStore;
    beforeEach(async () => {
      store = new MemoryStore();
      app = await startTestApp(store, testConfig({ ACCOUNT_NONCE_TTL_SECONDS: '60' }), { now: () => t });
    });
    afterEach(() => app.close());

    const nonceFor = async (address: string) => {
      const a = await request(`${app.url}/account/api/nonce`, { method: 'POST', body: { address } });
      assert.equal(a.status, 200, a.text);
      return a.body as { nonce: string; payload: string; message: string; address: string };
    };
    const session = (body: object) => request(`${app.url}/account/api/session`, { method: 'POST', body });

    it('signs in with a real signature, then creates, lists and revokes keys; the key works until revoked', async () => {
      const wallet = new TestWallet();
      // Wallets hand out hex address bytes; the server answers with the bech32 form it will check. The account
      // page signs with the wallet's reward address (its stake key).
      const n = await nonceFor(TestWallet.addressHex(wallet.stakeAddress));
      assert.equal(n.address, wallet.stakeAddress);
      assert.match(n.message, new RegExp(`Nonce: ${n.nonce}`));
      const ok = await fetch(`${app.url}/account/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: wallet.stakeAddress, ...wallet.signData(wallet.stakeAddress, n.payload) }),
      });
      assert.equal(ok.status, 200);
      const me = (await ok.json()) as { account: string; plan: string; perMinute: number; perDay: number };
      assert.equal(me.account, wallet.stakeAddress);
      assert.deepEqual([me.plan, me.perMinute, me.perDay], ['free', 120, 10_000]);
      const setCookie = ok.headers.get('set-cookie') ?? '';
      assert.match(setCookie, /^cds_session=cdss_[\w-]+; Path=\/account; Max-Age=3600; HttpOnly; SameSite=Strict$/);
      const cookie = setCookie.split(';')[0]!;

      const created = await request(`${app.url}/account/api/keys`, {
        method: 'POST',
        headers: { cookie },
        body: { name: 'bot' },
      });
      assert.equal(created.status, 201);
      const { key, id } = created.body as { key: string; id: string };
      assert.match(key, /^cds_[\w-]{43}$/);
      const list = await request(`${app.url}/account/api/keys`, { headers: { cookie } });
      assert.equal(list.status, 200);
      assert.ok(!list.text.includes(key.slice(4)), 'the list never shows the key again');
      assert.deepEqual(
        (list.body as { items: { id: string; name: string; revokedAt: null }[] }).items.map((k) => [
          k.id,
          k.name,
          k.revokedAt,
        ]),
        [[id, 'bot', null]],
      );
      const used = await request(`${app.url}/api/v1/ping`, { headers: { 'x-api-key': key } });
      assert.equal(used.status, 200);
      assert.equal(used.headers.get('x-ratelimit-limit'), '120');
      assert.equal(used.headers.get('x-daily-remaining'), '9999');

      assert.equal(
        (await request(`${app.url}/account/api/keys/${id}`, { method: 'DELETE', headers: { cookie } })).status,
        200,
      );
      assert.equal((await request(`${app.url}/api/v1/ping`, { headers: { 'x-api-key': key } })).status, 401);

      // Another account cannot see or revoke this account's keys.
      const otherCookie = await signInOverHttp(app.url, new TestWallet());
      assert.deepEqual((await request(`${app.url}/account/api/keys`, { headers: { cookie: otherCookie } })).body, {
        items: [],
      });
      assert.equal(
        (await request(`${app.url}/account/api/keys/${id}`, { method: 'DELETE', headers: { cookie: otherCookie } }))
          .status,
        404,
      );

      // Signing out ends the session.
      await request(`${app.url}/account/api/logout`, { method: 'POST', headers: { cookie }, body: {} });
      assert.equal((await request(`${app.url}/account/api/keys`, { headers: { cookie } })).status, 401);
      const dump = JSON.stringify([...store.data].map(([name, docs]) => [name, [...docs.values()]]));
      assert.ok(!dump.includes(key) && !dump.includes(cookie.split('=')[1]!), 'no key or session token in clear');
    });

    it('bounds the live keys an account creates for itself; a revoked key makes room', async () => {
      const cookie = await signInOverHttp(app.url, new TestWallet());
      const create = (name: string) =>
        request(`${app.url}/account/api/keys`, { method: 'POST', headers: { cookie }, body: { name } });
      const ids: string[] = [];
      for (let i = 0; i < MAX_LIVE_KEYS; i++) {
        const c = await create(`k${i}`);
        assert.equal(c.status, 201, c.text);
        ids.push((c.body as { id: string }).id);
      }
      // Limits are per key: one more key would be one more allowance of the plan.
      const refused = await create('one too many');
      assert.equal(refused.status, 409);
      assert.match(
        (refused.body as { error: string }).error,
        new RegExp(`at most ${MAX_LIVE_KEYS} live keys: revoke one`),
      );
      const listed = (await request(`${app.url}/account/api/keys`, { headers: { cookie } })).body as {
        items: unknown[];
      };
      assert.equal(listed.items.length, MAX_LIVE_KEYS, 'the refused request stored no key');
      assert.equal(
        (await request(`${app.url}/account/api/keys/${ids[0]}`, { method: 'DELETE', headers: { cookie } })).status,
        200,
      );
      assert.equal((await create('after a revocation')).status, 201);
      assert.equal((await create('again one too many')).status, 409);
    });

    it("opens the account of the key that signed: a base address of one's payment key and another wallet's stake key is not that wallet's account", async () => {
      const victim = new TestWallet();
      const victimCookie = await signInOverHttp(app.url, victim, victim.stakeAddress);
      const created = await request(`${app.url}/account/api/keys`, {
        method: 'POST',
        headers: { cookie: victimCookie },
        body: { name: 'victim' },
      });
      assert.equal(created.status, 201);
      const { id } = created.body as { id: string };
      // The victim's stake credential is public (any of its base addresses on chain shows it).
      const attacker = new TestWallet();
      const forged = baseAddress('mainnet', keyHash(attacker.paymentVk), keyHash(victim.stakeVk));
      const n = await nonceFor(forged);
      const a = await session({ address: forged, nonce: n.nonce, ...attacker.signData(forged, n.payload) });
      assert.equal(a.status, 200, a.text);
      const me = a.body as { account: string };
      assert.equal(me.account, keyHash(attacker.paymentVk), "the attacker's own payment key's account");
      const cookie = (a.headers.get('set-cookie') ?? '').split(';')[0]!;
      assert.deepEqual((await request(`${app.url}/account/api/keys`, { headers: { cookie } })).body, { items: [] });
      const revoke = await request(`${app.url}/account/api/keys/${id}`, { method: 'DELETE', headers: { cookie } });
      assert.equal(revoke.status, 404);
      const mine = await request(`${app.url}/account/api/keys`, { headers: { cookie: victimCookie } });
      assert.deepEqual(
        (mine.body as { items: { id: string; revokedAt: string | null }[] }).items.map((k) => [k.id, k.revokedAt]),
        [[id, null]],
      );
    });

    it('refuses a signature over another nonce', async () => {
      const wallet = new TestWallet();
      const first = await nonceFor(wallet.address);
      const second = await nonceFor(wallet.address);
      const a = await session({
        address: wallet.address,
        nonce: second.nonce,
        ...wallet.signData(wallet.address, first.payload),
      });
      assert.equal(a.status, 401);
      assert.match((a.body as { error: string }).error, /not the one issued/);
    });

    it('refuses an expired nonce', async () => {
      const wallet = new TestWallet();
      const n = await nonceFor(wallet.address);
      t += 61_000;
      const a = await session({ address: wallet.address, ...wallet.signData(wallet.address, n.payload) });
      assert.equal(a.status, 401);
      assert.match((a.body as { error: string }).error, /expired/);
    });

    it('refuses a replayed nonce, also when both uses arrive at once', async () => {
      const wallet = new TestWallet();
      const n = await nonceFor(wallet.address);
      const signed = { address: wallet.address, ...wallet.signData(wallet.address, n.payload) };
      const both = await Promise.all([session(signed), session(signed)]);
      assert.deepEqual(both.map((a) => a.status).sort(), [200, 401]);
      const again = await session(signed);
      assert.equal(again.status, 401);
      assert.match((again.body as { error: string }).error, /already used/);
    });

    it('refuses a key that does not match the address, and a nonce issued to another address', async () => {
      const wallet = new TestWallet();
      const thief = new TestWallet();
      const n = await nonceFor(wallet.address);
      const a = await session({ address: wallet.address, ...thief.signData(wallet.address, n.payload) });
      assert.equal(a.status, 401);
      assert.deepEqual(Object.keys(a.body as object), ['error']);
      const b = await session({ address: thief.address, nonce: n.nonce, ...thief.signData(thief.address, n.payload) });
      assert.equal(b.status, 401);
      assert.match((b.body as { error: string }).error, /another address/);
    });

    it('answers 400 { error } to malformed input and 401 to calls without a session', async () => {
      const bad = await request(`${app.url}/account/api/nonce`, { method: 'POST', body: { address: 'addr1nope' } });
      assert.equal(bad.status, 400);
      assert.match((bad.body as { error: string }).error, /address/);
      const form = await fetch(`${app.url}/account/api/nonce`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      });
      assert.equal(form.status, 400, 'only JSON bodies: a cross-site form cannot post here');
      const noSig = await session({ address: new TestWallet().address, signature: 'a0', key: 'a0' });
      assert.equal(noSig.status, 400);
      assert.equal((await request(`${app.url}/account/api/keys`)).status, 401);
      assert.equal((await request(`${app.url}/account/api/keys`, { method: 'POST', body: {} })).status, 401);
    });

    it("refuses an address of another network than the service's, before any nonce or account", async () => {
      // The same keys on a testnet (a wallet switched to preprod): its stake address would open a `stake_test1…`
      // account beside the wallet's `stake1…` one on this mainnet service.
      const wallet = new TestWallet();
      const testnet = rewardAddress('testnet', keyHash(wallet.stakeVk));
      const refused = await request(`${app.url}/account/api/nonce`, { method: 'POST', body: { address: testnet } });
      assert.equal(refused.status, 400);
      assert.match((refused.body as { error: string }).error, /mainnet/);
      const asHex = TestWallet.addressHex(baseAddress('testnet', keyHash(wallet.paymentVk), keyHash(wallet.stakeVk)));
      const hexRefused = await request(`${app.url}/account/api/nonce`, { method: 'POST', body: { address: asHex } });
      assert.equal(hexRefused.status, 400, 'the hex bytes CIP-30 returns too');
      const signedAnyway = await session({
        address: testnet,
        nonce: '00112233445566778899aabbccddeeff',
        ...wallet.signData(testnet, '00'),
      });
      assert.equal(signedAnyway.status, 400);
      assert.equal(
        (await request(`${app.url}/account/api/nonce`, { method: 'POST', body: { address: wallet.stakeAddress } }))
          .status,
        200,
        'the mainnet address of the same keys',
      );
    });

    it('serves the account page with a strict CSP and no inline script', async () => {
      const page = await fetch(`${app.url}/account`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      const html = await page.text();
      assert.ok(!/<script>|<script[^>]*>[^<]+<\/script>|\son\w+=/.test(html), 'no inline script or handlers');
      assert.equal((await fetch(`${app.url}/account/account.js`)).status, 200);
      const limits = await request(`${app.url}/account/api/limits`);
      assert.deepEqual((limits.body as { anonymous: object }).anonymous, { perMinute: 60 });
    });
  });
});

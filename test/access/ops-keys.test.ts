import assert from 'node:assert/strict';
import { KeysCommandError, parseKeysArgs, runKeysCommand } from '../../api/access/ops-keys.js';
import { baseAddress, keyHash, rewardAddress } from '../../cardano/address.js';
import { ACCOUNTS } from '../../mongo/collections/access.js';
import { MemoryStore } from './memory-store.js';
import { request, signInOverHttp, startTestApp, testConfig, TestWallet } from './helpers.js';

describe('access: operator key commands', () => {
  it('parses the command line and names mistakes', () => {
    const w = new TestWallet();
    assert.deepEqual(parseKeysArgs(['create', w.address, '--name', 'ci bot']), {
      cmd: 'create',
      account: w.stakeAddress,
      name: 'ci bot',
    });
    assert.deepEqual(parseKeysArgs(['plan', w.stakeAddress, 'pro']), {
      cmd: 'plan',
      account: w.stakeAddress,
      plan: 'pro',
    });
    assert.deepEqual(parseKeysArgs(['revoke', 'key_abc']), { cmd: 'revoke', keyId: 'key_abc' });
    // A payment key hash as some tools print it (upper-case hex) is the account a sign-in opens (lower-case).
    const paymentHash = keyHash(w.paymentVk);
    assert.deepEqual(parseKeysArgs(['list', paymentHash.toUpperCase()]), { cmd: 'list', account: paymentHash });
    assert.throws(
      () => parseKeysArgs(['plan', w.stakeAddress, 'gold']),
      (e: unknown) => e instanceof KeysCommandError && /plan must be one of free, plus, pro/.test(e.message),
    );
    assert.throws(() => parseKeysArgs(['create', 'addr1nope']), KeysCommandError);
    assert.throws(() => parseKeysArgs(['destroy']), KeysCommandError);
  });

  it("refuses an address of another network than the service's, as a sign-in does", async () => {
    const w = new TestWallet();
    const stake = keyHash(w.stakeVk);
    const testnetStake = rewardAddress('testnet', stake);
    const testnetBase = baseAddress('testnet', keyHash(w.paymentVk), stake);
    // The wallet's sign-in to this (mainnet) service opens its stake1… account: the oracle of "this wallet's account".
    const app = await startTestApp(new MemoryStore(), testConfig());
    try {
      const cookie = await signInOverHttp(app.url, w, w.stakeAddress);
      const me = await request(`${app.url}/account/api/me`, { headers: { cookie } });
      assert.equal((me.body as { account: string }).account, w.stakeAddress);
    } finally {
      await app.close();
    }
    // Before: accepted, naming stake_test1… (an account no sign-in here opens: a plan set on it reached no key).
    for (const address of [testnetStake, testnetBase])
      for (const args of [
        ['plan', address, 'plus'],
        ['create', address],
        ['list', address],
      ])
        assert.throws(
          () => parseKeysArgs(args, 'mainnet'),
          (e: unknown) =>
            e instanceof KeysCommandError && /is a testnet address and CARDANO_NETWORK is mainnet/.test(e.message),
          args.join(' '),
        );
    // The wallet's own mainnet addresses name its account; a testnet service takes its testnet ones.
    assert.deepEqual(parseKeysArgs(['plan', w.address, 'plus'], 'mainnet'), {
      cmd: 'plan',
      account: w.stakeAddress,
      plan: 'plus',
    });
    assert.deepEqual(parseKeysArgs(['list', testnetBase], 'testnet'), { cmd: 'list', account: testnetStake });
  });

  it('creates a key that works, lists it without the secret, sets the plan and revokes it', async () => {
    const store = new MemoryStore();
    const app = await startTestApp(store, testConfig());
    try {
      const account = new TestWallet().stakeAddress;
      const created = await runKeysCommand(store, parseKeysArgs(['create', account, '--name=ops']));
      const key = /^key: (cds_\S+)$/m.exec(created.join('\n'))?.[1];
      assert.ok(key, created.join('\n'));
      const keyId = /^created (key_\S+)/.exec(created[0]!)?.[1];
      assert.equal((await request(`${app.url}/api/v1/ping`, { headers: { 'x-api-key': key } })).status, 200);

      const listed = await runKeysCommand(store, parseKeysArgs(['list', account]));
      assert.match(listed[0]!, /plan free, 1 key\(s\)/);
      assert.match(listed[1]!, new RegExp(`^${keyId}  cds_….{4}  active .* ops$`));
      assert.ok(!listed.join('\n').includes(key.slice(4)));

      await runKeysCommand(store, parseKeysArgs(['plan', account, 'plus']));
      assert.equal((await store.collection(ACCOUNTS).get(account))?.plan, 'plus');

      await runKeysCommand(store, parseKeysArgs(['revoke', keyId!]));
      await assert.rejects(runKeysCommand(store, parseKeysArgs(['revoke', 'key_unknown'])), KeysCommandError);
      assert.match((await runKeysCommand(store, parseKeysArgs(['list', account])))[1]!, /revoked/);
    } finally {
      await app.close();
    }
  });
});

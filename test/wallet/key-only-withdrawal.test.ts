/**
 * A stake key's unwithdrawn rewards after a withdrawal made by a transaction that touches none of the key's
 * addresses: a stake pool's reward account withdrawn to the operator's wallet, a script key a protocol withdraws in
 * its own transactions. The rewards shown are the staking run's ledger reading less the withdrawals indexed since it;
 * such a withdrawal must be taken off too, or the wallet shows the withdrawn rewards as still there (and counts them
 * in its total) until the next run, while the Markdown view says "less the withdrawals indexed since".
 *
 * Chain: the real mainnet block 11322286 (Ogmios v6 JSON, ../shared/fixtures/chain/ogmios/real), where the key
 * stake1u8pauy5j… withdraws its rewards into its own address, then two blocks built on it in the same JSON: an empty
 * one in the next epoch (the ledger credited the key R at the boundary; the staking run reads R there), and one
 * where the key withdraws R in a transaction that spends and pays another wallet's address only. Oracle: the ledger
 * rule that a withdrawal takes the whole reward balance (Shelley to Conway): after it the key holds 0.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { STAKE_REWARDS } from '../../mongo/collections/staking.js';
import { DERIVED_RUNS } from '../../mongo/collections/sync-state.js';
import { put } from '../../mongo/store.js';
import type { TestApi } from '../api/seed.js';
import { apiOverSyncedFrames, forwardFrame, mainnetTime, recorded } from '../api/synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
const lovelaceOf = (o: TxOutput) => (o.value.ada as { lovelace: bigint }).lovelace;

/** The key that withdraws in the recorded block (tx bc1eb4bd…, into its own base address). */
const KEY = 'stake1u8pauy5j80v9qzw8xmz5pc4jasrcpndwu5kpzjtz3w6c7rgehs6a7';
/** What the ledger credited it at the next epoch boundary, and the run read. */
const CREDIT = 4_321_000n;
const FEE = 175_000n;
/** Mainnet epochs are 432,000 one-second slots. */
const EPOCH = 432_000;

describe('wallet rewards: a withdrawal that touches none of the key’s addresses', function () {
  this.timeout(120_000);
  let api: TestApi;
  let withdrawal: Transaction;

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    const txs = block.transactions ?? [];
    assert.ok(
      txs.some((t) => t.withdrawals?.[KEY]),
      'the recorded block withdraws from the key',
    );
    // Another wallet's ADA-only output of the block: the withdrawal's transaction spends it and pays it back.
    const other = (o: TxOutput) =>
      o.address.startsWith('addr1q') &&
      Object.keys(o.value).length === 1 &&
      !txs.some((t) => t.withdrawals?.[KEY] && t.outputs.includes(o));
    const source = txs.find((t) => !t.withdrawals?.[KEY] && t.outputs.some(other))!;
    const index = source.outputs.findIndex(other);
    const spent = source.outputs[index]!;
    const slot = block.slot as number;
    const nextEpoch: Block = {
      ...block,
      id: id('next epoch'),
      ancestor: block.id,
      height: block.height + 1,
      slot: slot + EPOCH,
      transactions: [],
    };
    withdrawal = {
      id: id('key-only withdrawal'),
      spends: 'inputs',
      inputs: [{ transaction: { id: source.id }, index }],
      outputs: [{ address: spent.address, value: { ada: { lovelace: lovelaceOf(spent) + CREDIT - FEE } } }],
      fee: { ada: { lovelace: FEE } },
      withdrawals: { [KEY]: { ada: { lovelace: CREDIT } } },
    };
    const withdrawing: Block = {
      ...block,
      id: id('block with the withdrawal'),
      ancestor: nextEpoch.id,
      height: nextEpoch.height + 1,
      slot: slot + EPOCH + 20,
      transactions: [withdrawal],
    };
    api = await apiOverSyncedFrames([frame, forwardFrame(nextEpoch, withdrawing), forwardFrame(withdrawing)]);
    // The staking run read the ledger at the empty block (the key holding the boundary's credit) and ended then.
    const at = mainnetTime(nextEpoch.slot as number);
    await api.store.write([
      put(STAKE_REWARDS, { _id: KEY, rewards: String(CREDIT), slot: nextEpoch.slot as number }),
      put(DERIVED_RUNS, { _id: 'recomputeStaking', generation: 0, from: null, startedAt: at, finishedAt: at }),
    ]);
  });
  after(() => api?.close());

  it('the key holds no address the withdrawal touches (the case is covered)', async () => {
    const r = await api.get(`/api/v1/explorer/address/${KEY}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const key = r.body as Json;
    assert.ok(!(key.addresses as Json[]).some((a) => a.address === withdrawal.outputs[0]!.address));
    assert.equal(key.stakeAccount.registered, true);
  });

  it('the wallet and the explorer show 0 unwithdrawn rewards once the withdrawal is indexed', async () => {
    const w = await api.get(`/api/v1/wallet/${KEY}`);
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const wallet = w.body as Json;
    assert.equal(wallet.rewardsLovelace, '0', 'a withdrawal takes the whole reward balance');
    assert.equal(wallet.totals.rewardsAda, 0);
    assert.ok(Math.abs(wallet.totals.ada - (wallet.adaBalance + wallet.totals.tokensAda)) < 1e-9);
    const e = await api.get(`/api/v1/explorer/address/${KEY}`);
    assert.equal((e.body as Json).stakeAccount.rewardsLovelace, '0');
  });
});

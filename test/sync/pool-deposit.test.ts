/**
 * A stake pool registration certificate carries no deposit on chain (Ogmios v6 gives none for it), yet the ledger
 * charges `stakePoolDeposit` for a new pool and nothing for an update of a registered one, retiring or not. The
 * sync writes the charged deposit into the transaction document's certificate, so the explorer's transaction
 * balances. Hand-built blocks over a memory chain whose ledger answers the protocol parameters.
 */
import assert from 'node:assert/strict';
import type { Block, ChainEvent, Transaction } from '../../cardano/chain/types.js';
import { TRANSACTIONS } from '../../mongo/collections/chain.js';
import { memoryChain, TEST_TIME } from './memory-chain.js';
import { syncAll, tempStore } from './helpers.js';

const POOL = 'pool1aah0tvc2xe9vnu2qpx5kstc0cnh9skeekl2fy82ghhwyqqmld2e';
const DEPOSIT = 500_000_000n;
const hex = (n: number) => n.toString(16).padStart(64, '0');

const registration = { type: 'stakePoolRegistration', stakePool: { id: POOL, pledge: { ada: { lovelace: 1n } } } };
const retirement = (epoch: number) => ({
  type: 'stakePoolRetirement',
  stakePool: { id: POOL, retirementEpoch: epoch },
});

function chainOf(certs: { slot: number; cert: Record<string, unknown> }[]): { events: ChainEvent[]; txIds: string[] } {
  const events: ChainEvent[] = [];
  const txIds: string[] = [];
  let ancestor = 'genesis';
  certs.forEach(({ slot, cert }, i) => {
    const tx = {
      id: hex(1000 + i),
      spends: 'inputs',
      inputs: [],
      outputs: [],
      fee: { ada: { lovelace: 200_000n } },
      certificates: [cert],
    } as unknown as Transaction;
    const block = {
      type: 'praos',
      era: 'conway',
      id: hex(i + 1),
      ancestor,
      height: i + 1,
      slot,
      transactions: [tx],
    } as unknown as Block;
    ancestor = block.id;
    txIds.push(tx.id);
    events.push({ direction: 'forward', block, tip: 'origin' });
  });
  return { events, txIds };
}

/** The chain of `events` (each carrying the last block as its tip) whose ledger answers `params` as its protocol parameters. */
function chainWithParams(events: ChainEvent[], params: Record<string, unknown>) {
  const last = (events.findLast((e) => e.direction === 'forward') as { block: Block }).block;
  for (const e of events) (e as { tip: unknown }).tip = { slot: last.slot, id: last.id, height: last.height };
  const ledger = memoryChain(events);
  return {
    ...ledger,
    async query<T>(method: string): Promise<T> {
      if (method === 'queryLedgerState/protocolParameters') return params as T;
      return ledger.query<T>(method);
    },
  };
}

describe('sync: the deposit of a stake pool registration', () => {
  it('is charged for a new pool and after its retirement took effect, never for an update', async () => {
    const epoch = TEST_TIME.epochLength;
    const { events, txIds } = chainOf([
      { slot: 10, cert: registration }, // new: charged
      { slot: 20, cert: registration }, // an update of a registered pool
      { slot: 30, cert: retirement(2) },
      { slot: 40, cert: registration }, // before epoch 2: cancels the retirement, an update
      { slot: 50, cert: retirement(1) },
      { slot: epoch + 10, cert: registration }, // epoch 1: the pool retired at its start, so it registers anew
    ]);
    const chain = chainWithParams(events, { stakePoolDeposit: { ada: { lovelace: DEPOSIT } } });
    const t = await tempStore();
    try {
      await syncAll(t.store, chain);
      const deposits = [];
      for (const id of txIds) {
        const doc = await t.store.collection(TRANSACTIONS).get(id);
        const cert = doc?.certificates[0] as { type: string; deposit?: { ada: { lovelace: unknown } } };
        const charged = cert.deposit === undefined ? null : String(cert.deposit.ada.lovelace);
        deposits.push(cert.type === 'stakePoolRegistration' ? charged : '-');
      }
      assert.deepEqual(deposits, [String(DEPOSIT), null, '-', null, '-', String(DEPOSIT)]);
    } finally {
      await t.cleanup();
    }
  });
});

describe('sync: the deposit of a stake key registration and its refund', () => {
  // A Shelley-style stake key registration (certificate tag 0, still valid in Conway and what many wallets send)
  // carries no deposit: Ogmios v6 names none, as on the real mainnet Conway block 11322286
  // (fixtures/chain/ogmios/real/block.mainnet-conway-11322286-slot144718140.koralabs.json). The ledger still charges
  // its `stakeCredentialDeposit`, and gives the key's deposit back at a Shelley-style deregistration (tag 1, no
  // deposit named either). Conway's certificates (tags 7 and 8) name their deposit, which is kept as it is.
  const KEY_DEPOSIT = 2_000_000n;
  const cred = (n: number) => String(n).repeat(56).slice(0, 56);
  const reg = (n: number, deposit?: bigint) => ({
    type: 'stakeCredentialRegistration',
    from: 'verificationKey',
    credential: cred(n),
    ...(deposit === undefined ? {} : { deposit: { ada: { lovelace: deposit } } }),
  });
  const dereg = (n: number, deposit?: bigint) => ({
    type: 'stakeCredentialDeregistration',
    from: 'verificationKey',
    credential: cred(n),
    ...(deposit === undefined ? {} : { deposit: { ada: { lovelace: deposit } } }),
  });

  it('charges the key deposit for a registration without one and refunds the paid deposit at deregistration', async () => {
    const { events, txIds } = chainOf([
      { slot: 10, cert: reg(1) }, // Shelley style: charged the key deposit
      { slot: 20, cert: dereg(1) }, // Shelley style: refunds the 2 ADA it paid
      { slot: 30, cert: reg(2, 3_000_000n) }, // Conway style: its own deposit (an earlier key deposit)
      { slot: 40, cert: dereg(2) }, // Shelley style: refunds the 3 ADA the registration paid
      { slot: 50, cert: reg(3, 2_000_000n) }, // Conway style, kept
      { slot: 60, cert: dereg(3, 2_000_000n) }, // Conway style, kept
      { slot: 70, cert: dereg(4) }, // a key registered before the indexed range: its deposit is unknown
    ]);
    const chain = chainWithParams(events, { stakeCredentialDeposit: { ada: { lovelace: KEY_DEPOSIT } } });
    const t = await tempStore();
    try {
      await syncAll(t.store, chain);
      const deposits = [];
      for (const id of txIds) {
        const doc = await t.store.collection(TRANSACTIONS).get(id);
        const cert = doc?.certificates[0] as { deposit?: { ada: { lovelace: unknown } } };
        deposits.push(cert.deposit === undefined ? null : String(cert.deposit.ada.lovelace));
      }
      assert.deepEqual(deposits, ['2000000', '2000000', '3000000', '3000000', '2000000', '2000000', null]);
    } finally {
      await t.cleanup();
    }
  });
});

/**
 * The governance sync extension on the devnet: every proposal procedure and each voter's last vote as the blocks
 * carried them, rollback-exact (a forked devnet run, and a branch whose proposals and votes are rolled back, give
 * the documents of a clean run), and the governance recompute run only at the tip of a history whose early
 * proposals have left the ledger still lists them — expired, with the votes the blocks carried.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseOgmiosJson } from '../../activities/chain/json.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import type { Block, ChainEvent } from '../../cardano/chain/types.js';
import { govActionBech32 } from '../../cardano/governance-ids.js';
import { blockGovernance } from '../../activities/governance/chain.js';
import { createGovernanceExtension } from '../../activities/governance/extension.js';
import { createGovernanceActivities } from '../../activities/governance/index.js';
import type { SyncExtension } from '../../activities/sync/extension.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { explorerRoutes } from '../../api/routes/explorer.js';
import { governanceRoutes } from '../../api/routes/governance.js';
import { ajv } from '../../api/schema.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import {
  GOVERNANCE_CHAIN_PROPOSALS,
  GOVERNANCE_CHAIN_VOTES,
  GOVERNANCE_SYNC_COLLECTIONS,
  type GovChainProposalDoc,
  type GovChainVoteDoc,
} from '../../mongo/collections/governance.js';
import { storeDigest } from '../../mongo/digest.js';
import type { CollectionSpec, Store } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { memoryChain } from '../sync/memory-chain.js';
import { tempStore } from '../sync/helpers.js';
import { canonicalBlocks, expectedFrom, type Expected } from './chain-expected.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Ogmios/REST bodies
const NOW = Date.UTC(2026, 10, 20, 12);
const SEED = 'governance-chain';
/** 30-minute epochs: five hours of history hold ten epochs, so the first proposals (lifetime 3) have expired. */
const EPOCH = 1800;
const HOURS = 5;
const net = (forkRate: number) =>
  startDevnet({ seed: SEED, backfillHours: HOURS, blockMs: 0, forkRate, now: () => NOW, epochLength: EPOCH });
const extensions = (): SyncExtension[] => [createGovernanceExtension()];

/** Blocks per sync slice in the rollback test (small, so a vote and its re-vote land in different slices). */
const SLICE = 7;

async function syncFrom(store: Store, chain: ChainSource, sliceBlocks = 97): Promise<number> {
  const sync = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions: extensions() });
  let rollbacks = 0;
  for (let i = 0; i < 10_000; i++) {
    const r = await sync.syncSlice({ maxBlocks: sliceBlocks, waitMs: 0 });
    rollbacks += r.rollbacks;
    if (r.blocks === 0 && r.atTip) return rollbacks;
  }
  throw new Error('sync did not reach the tip');
}

async function all<D extends { _id: string }>(store: Store, spec: CollectionSpec<D>): Promise<D[]> {
  const out: D[] = [];
  for await (const d of store.collection(spec).scan()) out.push(d);
  return out;
}

describe('governance sync extension on the devnet', function () {
  this.timeout(300_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let api: TestApi;
  let blocks: Block[];
  let expected: Expected;
  let proposalDocs: GovChainProposalDoc[];
  let voteDocs: GovChainVoteDoc[];

  before(async () => {
    devnet = await net(0);
    chain = await connectOgmios(devnet.url);
    blocks = canonicalBlocks(devnet);
    expected = expectedFrom(blocks);
    api = await startTestApi(async (store) => {
      await syncFrom(store, chain);
    });
    proposalDocs = await all(api.store, GOVERNANCE_CHAIN_PROPOSALS);
    voteDocs = await all(api.store, GOVERNANCE_CHAIN_VOTES);
  });
  after(async () => {
    await api?.close();
    await chain?.close();
    await devnet?.close();
  });

  it('records every proposal the blocks carried, with deposit, type, requested lovelace, slot and epoch', () => {
    assert.ok(expected.proposals.size >= 10, `${expected.proposals.size} proposals`);
    assert.deepEqual(proposalDocs.map((d) => d._id).sort(), [...expected.proposals.keys()].sort());
    for (const d of proposalDocs) {
      const e = expected.proposals.get(d._id)!;
      assert.equal(d.type, e.type, d._id);
      assert.equal(d.deposit, String(e.deposit));
      assert.equal(d.requestedLovelace, e.requested === null ? null : String(e.requested));
      assert.equal(d.slot, e.slot);
      assert.equal(d.epoch, Math.floor(d.slot / EPOCH));
      assert.match(d.returnAccount, /^stake1/);
      assert.ok(d.anchor?.url.startsWith('https://gov.devnet/'));
      if (d.type === 'treasuryWithdrawals')
        assert.equal(
          d.withdrawals.reduce((s, w) => s + BigInt(w.lovelace), 0n),
          BigInt(d.requestedLovelace!),
        );
    }
    assert.ok(proposalDocs.some((d) => d.type === 'treasuryWithdrawals' && BigInt(d.requestedLovelace!) > 0n));
  });

  it('keeps the last vote of each voter on each proposal', () => {
    const got = new Map<string, Map<string, string>>();
    for (const v of voteDocs) {
      if (!got.has(v.proposalId)) got.set(v.proposalId, new Map());
      got.get(v.proposalId)!.set(v.voterId, v.vote);
    }
    assert.deepEqual(got, expected.votes);
    const roles = new Set(voteDocs.map((v) => v.role));
    assert.ok(roles.has('drep') && roles.has('spo'), [...roles].join());
    // Re-votes happen on the devnet: the count of vote transactions exceeds the count of documents.
    const cast = blocks.reduce((n, b) => n + (b.transactions ?? []).reduce((m, t) => m + (t.votes?.length ?? 0), 0), 0);
    assert.ok(cast > voteDocs.length, `${cast} votes cast, ${voteDocs.length} voters' last votes`);
  });

  it('lists proposals the service never saw on the ledger as expired, with the votes the blocks carried', async () => {
    const run = await createGovernanceActivities({ store: api.store, chain, now: () => NOW }).recomputeGovernance();
    const ledger = await chain.query<Json[]>('queryLedgerState/governanceProposals');
    const listed = new Set(ledger.map((p) => `${p.proposal.transaction.id}#${p.proposal.index}`));
    const early = [...expected.proposals.keys()].filter((id) => !listed.has(id));
    assert.ok(early.length >= 3, `${early.length} proposals have left the ledger`);
    assert.equal(run.proposals, expected.proposals.size);

    const r = await api.get('/api/v1/governance/proposals?pageSize=200');
    assert.equal(r.status, 200);
    assert.ok(ajv.compile(governanceRoutes.proposals.response)(r.body));
    const items = (r.body as Json).items as Json[];
    assert.equal(items.length, expected.proposals.size);
    const checkDetail = ajv.compile(governanceRoutes.proposal.response);
    for (const item of items) {
      const e = expected.proposals.get(item.id)!;
      assert.equal(item.proposedSlot, e.slot);
      assert.equal(item.sinceEpoch, Math.floor(e.slot / EPOCH));
      assert.equal(item.untilEpoch, item.sinceEpoch + 3, 'submission epoch + governanceActionLifetime');
      assert.equal(item.depositLovelace, String(e.deposit));
      if (listed.has(item.id)) {
        assert.equal(item.source, 'ledger');
        assert.equal(item.status, item.untilEpoch < run.epoch! ? 'expired' : 'active');
        continue;
      }
      // The devnet has no committee, so a proposal leaves the ledger by expiring.
      assert.equal(item.source, 'chain', item.id);
      assert.equal(item.status, 'expired', item.id);
      assert.ok(item.untilEpoch < run.epoch!);
      assert.equal(item.drep, null);
      const cast = expected.votes.get(item.id) ?? new Map<string, string>();
      const counted = Object.values(item.voteCounts as Record<string, Record<string, number>>)
        .flatMap((c) => Object.values(c))
        .reduce((s, n) => s + n, 0);
      assert.equal(counted, cast.size, item.id);
      const d = await api.get(`/api/v1/governance/proposals/${encodeURIComponent(item.id)}`);
      assert.equal(d.status, 200);
      assert.ok(checkDetail(d.body), JSON.stringify(checkDetail.errors));
      const detail = d.body as Json;
      assert.equal(detail.votesTotal, cast.size);
      assert.deepEqual(new Map((detail.votes as Json[]).map((v) => [v.voterId, v.vote])), cast, item.id);
      assert.equal(detail.requestedLovelace, e.requested === null ? null : String(e.requested));
    }
    assert.ok(
      items.some((x) => x.source === 'chain' && (expected.votes.get(x.id)?.size ?? 0) > 0),
      'an early proposal with votes',
    );
    // A DRep's votes include those on proposals that left the ledger before any recompute.
    const drepVotes = voteDocs.filter((v) => v.role === 'drep');
    const top = drepVotes[0]!.voterId;
    const one = await api.get(`/api/v1/governance/dreps/${top}`);
    assert.equal(one.status, 200);
    assert.equal(((one.body as Json).votes as Json[]).length, drepVotes.filter((v) => v.voterId === top).length);
  });

  it("a proposal's transaction balances with its deposit: inputs + withdrawals = outputs + fee + deposits", async () => {
    let checked = 0;
    for (const block of blocks)
      for (const tx of block.transactions ?? []) {
        const proposals = (tx.proposals as Json[] | undefined) ?? [];
        if (proposals.length === 0 || checked >= 5) continue;
        const r = await api.get(`/api/v1/explorer/tx/${tx.id}`);
        assert.equal(r.status, 200);
        assert.ok(ajv.compile(explorerRoutes.tx.response)(r.body));
        const t = r.body as Json;
        // What the block carried: each proposal's deposit and return account.
        assert.deepEqual(
          t.proposalDeposits,
          proposals.map((p, index) => {
            const raw = BigInt(p.deposit.ada.lovelace);
            return {
              proposalId: `${tx.id}#${index}`,
              govActionId: govActionBech32(tx.id, index),
              deposit: Number(raw) / 1e6,
              depositLovelace: String(raw),
              returnAccount: p.returnAccount,
            };
          }),
        );
        const sum = (xs: string[]) => xs.reduce((s, x) => s + BigInt(x), 0n);
        const certDeposits = sum((t.certificates as Json[]).map((c) => c.deposit?.lovelace ?? '0'));
        assert.equal(
          sum((t.inputs as Json[]).map((i) => i.lovelace)) + sum((t.withdrawals as Json[]).map((w) => w.lovelace)),
          BigInt(t.totalOutputLovelace) +
            BigInt(t.feeLovelace) +
            certDeposits +
            sum((t.proposalDeposits as Json[]).map((p) => p.depositLovelace)),
          `tx ${tx.id}`,
        );
        checked++;
      }
    assert.ok(checked >= 3, `${checked} proposal transactions checked`);
  });

  it('a forked devnet run gives the documents of the clean run', async () => {
    const clean = await storeDigest(api.store, GOVERNANCE_SYNC_COLLECTIONS);
    const forked = await net(0.3);
    const src = await connectOgmios(forked.url);
    const t = await tempStore();
    try {
      const rollbacks = await syncFrom(t.store, src);
      assert.ok(rollbacks > 5, `${rollbacks} rollbacks`);
      assert.deepEqual(await storeDigest(t.store, GOVERNANCE_SYNC_COLLECTIONS), clean);
    } finally {
      await src.close();
      await forked.close();
      await t.cleanup();
    }
  });

  it('rolling back blocks with proposals and votes restores the documents exactly', async () => {
    // Branch point: just before the first re-vote cast a few slices after the voter's earlier vote, so rolling it
    // back must bring the earlier vote back (from the undo journal, not from the slice's cache).
    const firstVote = new Map<string, number>();
    let m = -1;
    blocks.forEach((b, i) => {
      for (const tx of b.transactions ?? [])
        for (const v of (tx.votes as Json[] | undefined) ?? []) {
          const key = `${v.proposal.transaction.id}#${v.proposal.index}|${v.issuer.id}`;
          const first = firstVote.get(key);
          if (first === undefined) firstVote.set(key, i);
          else if (m < 0 && i - first > 3 * SLICE) m = i - 1;
        }
    });
    assert.ok(m > 0, 'a re-vote several slices after the first vote');
    const base = blocks.slice(0, m + 1);
    const dropped = blocks.slice(m + 1);
    assert.ok(expectedFrom(dropped).proposals.size > 0, 'the dropped branch carries proposals too');
    // The other branch: the same transactions without their proposals and votes, as new blocks.
    const renamed = (id: string) => [...id].reverse().join('');
    const other = dropped.map((b, i): Block => ({
      ...b,
      id: renamed(b.id),
      ancestor: i === 0 ? b.ancestor : renamed(b.ancestor),
      transactions: (b.transactions ?? []).map(({ proposals: _p, votes: _v, ...tx }) => tx),
    }));
    const tip = () => {
      const last = other[other.length - 1]!;
      return { slot: last.slot!, id: last.id, height: last.height };
    };
    const fwd = (b: Block): ChainEvent => ({ direction: 'forward', block: b, tip: tip() });
    const at = base[base.length - 1]!;
    const detour: ChainEvent[] = [
      ...blocks.map(fwd),
      { direction: 'backward', point: { slot: at.slot!, id: at.id }, tip: tip() },
      ...other.map(fwd),
    ];
    const straight: ChainEvent[] = [...base, ...other].map(fwd);
    const digests = [];
    for (const stream of [detour, straight, blocks.map(fwd)]) {
      const t = await tempStore();
      try {
        await syncFrom(t.store, memoryChain(stream), SLICE);
        digests.push(await storeDigest(t.store, GOVERNANCE_SYNC_COLLECTIONS));
      } finally {
        await t.cleanup();
      }
    }
    assert.deepEqual(digests[0], digests[1]);
    assert.notDeepEqual(digests[1], digests[2], 'the dropped branch carried governance documents');
  });
});

describe('governance from real Ogmios v6.14 blocks', () => {
  const CHAINSYNC = path.resolve(process.cwd(), '../shared/fixtures/chain/ogmios/generated-v6.14.0/chainsync');
  const block = (name: string) =>
    (parseOgmiosJson(readFileSync(path.join(CHAINSYNC, name), 'utf8')) as { result: { block: Block } }).result.block;
  const at = { slot: 7, height: 3, time: '2026-01-01T00:00:00.000Z', epoch: 0 };

  it('reads Conway proposal procedures and votes of every voter role', () => {
    const b = block('nextBlock.rollForward.conway.023.json');
    const { proposals, votes } = blockGovernance(b, at);
    const valid = (b.transactions ?? []).filter((t) => t.spends === 'inputs');
    assert.equal(
      proposals.length,
      valid.reduce((n, t) => n + (t.proposals?.length ?? 0), 0),
    );
    // Two of its three transactions failed their scripts (`spends: collaterals`): their proposals take no effect.
    assert.ok((b.transactions ?? []).some((t) => t.spends === 'collaterals' && t.proposals?.length));
    assert.deepEqual(
      proposals.map((p) => p.type),
      ['noConfidence', 'information', 'protocolParametersUpdate', 'constitution'],
    );
    assert.equal(proposals.find((p) => p.type === 'noConfidence')?.deposit, '17840');
    assert.equal(
      votes.length,
      valid.reduce((n, t) => n + (t.votes?.length ?? 0), 0),
    );
    for (const v of votes)
      assert.match(v.voterId, v.role === 'drep' ? /^drep1/ : v.role === 'spo' ? /^pool1/ : /^cc_hot1/);
    assert.deepEqual([...new Set(votes.map((v) => v.role))].sort(), ['committee', 'drep', 'spo']);
  });

  it('skips pre-Conway update proposals, which are no governance actions', () => {
    const b = block('nextBlock.rollForward.babbage.049.json');
    assert.ok((b.transactions ?? []).some((t) => t.proposals?.length));
    assert.deepEqual(blockGovernance(b, at).proposals, []);
  });
});

/**
 * Governance end to end on the devnet through the production Ogmios client: the devnet registers DReps, delegates
 * votes, submits proposals and votes over 12 short epochs; the sync indexes the chain, the governance recompute
 * asks the ledger, and the REST answers are checked against what the chain itself carried (the proposals and votes
 * of the blocks) and the ledger queries (stake).
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { createGovernanceActivities } from '../../activities/governance/index.js';
import { lovelace } from '../../activities/staking/compute.js';
import { rewardAddress } from '../../cardano/address.js';
import { drepBech32, drepLegacyBech32, govActionBech32 } from '../../cardano/governance-ids.js';
import { governanceRoutes } from '../../api/routes/governance.js';
import { ajv } from '../../api/schema.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import type { Store } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { syncAll } from '../sync/helpers.js';
import { canonicalBlocks, expectedFrom } from './chain-expected.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NOW = Date.UTC(2026, 10, 20, 12);
/** Slots per epoch: 30 minutes, so a short run spans a dozen epochs of the governance life cycle. */
const EPOCH = 1800;
const valid = (check: ReturnType<typeof ajv.compile>, body: unknown) =>
  assert.ok(check(body), `response does not match its schema: ${JSON.stringify(check.errors)}`);
const checkList = ajv.compile(governanceRoutes.proposals.response);
const checkDetail = ajv.compile(governanceRoutes.proposal.response);
const checkDReps = ajv.compile(governanceRoutes.dreps.response);
const checkDRep = ajv.compile(governanceRoutes.drep.response);

/** What the chain carried: every proposal (chain order) and the last vote of each voter on each proposal. */
function fromChain(devnet: Devnet) {
  const { proposals, votes } = expectedFrom(canonicalBlocks(devnet));
  return { proposals: [...proposals].map(([id, p]) => ({ id, ...p })), votes };
}

describe('governance on the devnet', function () {
  this.timeout(180_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let api: TestApi;
  let store: Store;
  let ledgerDReps: Json[];
  let ledgerPools: Record<string, Json>;
  let listed: Set<string>;

  const epochOfTip = () => Math.floor(devnet.tip().slot / EPOCH);
  const recompute = () => createGovernanceActivities({ store, chain, now: () => NOW }).recomputeGovernance();
  const all = async (query = '') => {
    const r = await api.get(`/api/v1/governance/proposals?pageSize=200${query}`);
    assert.equal(r.status, 200);
    valid(checkList, r.body);
    return r.body as Json;
  };

  before(async () => {
    devnet = await startDevnet({
      seed: 'governance-test',
      backfillHours: 2,
      blockMs: 0,
      forkRate: 0,
      now: () => NOW,
      epochLength: EPOCH,
    });
    chain = await connectOgmios(devnet.url);
    api = await startTestApi(async (s) => {
      store = s;
    });
    // The ledger lists live proposals only, so history is what the recompute saw while it ran: advance the chain
    // block by block and recompute every quarter epoch, as the 5-minute schedule does on a running service.
    await syncAll(store, chain, 97);
    await recompute();
    while (epochOfTip() < 12) {
      for (let i = 0; i < 25; i++) devnet.step();
      await syncAll(store, chain, 97);
      await recompute();
    }
    ledgerDReps = await chain.query('queryLedgerState/delegateRepresentatives');
    ledgerPools = await chain.query('queryLedgerState/stakePools', { includeStake: true });
    const props = await chain.query<Json[]>('queryLedgerState/governanceProposals');
    listed = new Set(props.map((p) => `${p.proposal.transaction.id}#${p.proposal.index}`));
  });
  after(async () => {
    await api?.close();
    await chain?.close();
    await devnet?.close();
  });

  it('lists every proposal the chain carried, newest first, with type, status, epochs and requested ADA', async () => {
    const { proposals } = fromChain(devnet);
    const body = await all();
    assert.equal(body.total, proposals.length);
    assert.ok(proposals.length >= 6, `${proposals.length} proposals`);
    assert.equal(body.epoch, epochOfTip());
    assert.ok(body.computedAt);
    const items = body.items as Json[];
    for (let i = 1; i < items.length; i++) assert.ok(items[i - 1]!.sinceEpoch >= items[i]!.sinceEpoch, 'newest first');
    for (const p of proposals) {
      const item = items.find((x) => x.id === p.id);
      assert.ok(item, p.id);
      assert.equal(item.type, p.type);
      assert.equal(item.govActionId, govActionBech32(item.txId, item.index));
      // The devnet has no constitutional committee: nothing is ratified, a proposal leaves the ledger by expiring.
      assert.equal(item.status, listed.has(p.id) ? 'active' : 'expired', p.id);
      assert.equal(item.untilEpoch - item.sinceEpoch, 3);
      assert.equal(item.deposit, 100_000);
      if (p.requested === null) assert.equal(item.requestedAda, null);
      else {
        assert.equal(item.requestedLovelace, String(p.requested));
        assert.equal(item.requestedAda, Number(p.requested) / 1e6);
      }
    }
    const statuses = new Set(items.map((x) => x.status));
    assert.ok(statuses.has('active') && statuses.has('expired'), [...statuses].join());
    assert.ok(items.some((x) => x.type === 'treasuryWithdrawals' && x.requestedAda > 0));
  });

  it('tallies DRep and pool votes by the voters’ stake, as cast on chain', async () => {
    const { votes } = fromChain(devnet);
    const stakeOfDRep = new Map(
      ledgerDReps
        .filter((d) => d.type === 'registered')
        .map((d) => [drepBech32({ hash: d.id, script: false }), lovelace(d.stake) ?? 0n]),
    );
    const noConfidence = lovelace(ledgerDReps.find((d) => d.type === 'noConfidence')?.stake) ?? 0n;
    const epoch = epochOfTip();
    const active = ledgerDReps.filter((d) => d.type === 'registered' && d.mandate.epoch >= epoch);
    const activeStake = active.reduce((s, d) => s + (lovelace(d.stake) ?? 0n), 0n);
    const items = ((await all('&status=active')).items as Json[]).filter((x) => (votes.get(x.id)?.size ?? 0) > 0);
    assert.ok(items.length >= 2, 'active proposals with votes');
    let checkedSpo = 0;
    for (const item of items) {
      const cast = votes.get(item.id)!;
      const sum = (vote: string, only?: Set<string>) =>
        [...cast]
          .filter(([v, c]) => c === vote && v.startsWith('drep1') && (!only || only.has(v)))
          .reduce((s, [v]) => s + (stakeOfDRep.get(v) ?? 0n), 0n);
      const activeIds = new Set(active.map((d) => drepBech32({ hash: d.id, script: false })));
      const yes = sum('yes', activeIds);
      const no = sum('no', activeIds) + noConfidence;
      const abstain = sum('abstain', activeIds);
      assert.equal(item.drep.lovelace.yes, String(yes), item.id);
      assert.equal(item.drep.lovelace.no, String(no), item.id);
      // One stated base for every share: all counted DRep power (abstentions included).
      assert.equal(item.drep.shareBase, 'yes+no+abstain+notVoted');
      assert.equal(item.drep.lovelace.base, String(activeStake + noConfidence));
      const pct = Math.round(item.drep.yesPct * 100) / 100;
      assert.equal(pct, Math.round((Number(yes) / Number(activeStake + noConfidence)) * 10000) / 100);
      const ratify = Math.round(item.drep.ratificationYesPct * 100) / 100;
      assert.equal(ratify, Math.round((Number(yes) / Number(activeStake + noConfidence - abstain)) * 10000) / 100);
      const total = item.drep.yesPct + item.drep.noPct + item.drep.abstainPct + item.drep.notVotedPct;
      assert.ok(total <= 100 && total > 99.99, `shares sum to ${total}`);
      assert.equal(item.voteCounts.drep.yes, [...cast].filter(([v, c]) => v.startsWith('drep1') && c === 'yes').length);
      if (item.type === 'treasuryWithdrawals') assert.equal(item.spo, null, 'pools do not vote on withdrawals');
      else {
        const poolYes = [...cast]
          .filter(([v, c]) => v.startsWith('pool1') && c === 'yes')
          .reduce((s, [v]) => s + (lovelace(ledgerPools[v]?.stake) ?? 0n), 0n);
        assert.equal(item.spo.lovelace.yes, String(poolYes), item.id);
        checkedSpo++;
      }
    }
    assert.ok(checkedSpo >= 1, 'a proposal pools vote on');
  });

  it('answers one proposal by any id form, with its votes by voting power', async () => {
    const { votes } = fromChain(devnet);
    const item = ((await all()).items as Json[]).find((x) => (votes.get(x.id)?.size ?? 0) >= 3)!;
    const forms = [encodeURIComponent(item.id), `${item.txId}:${item.index}`, item.govActionId];
    for (const f of forms) {
      const r = await api.get(`/api/v1/governance/proposals/${f}`);
      assert.equal(r.status, 200, f);
      valid(checkDetail, r.body);
      const d = r.body as Json;
      assert.equal(d.id, item.id);
      assert.equal(d.votesTotal, votes.get(item.id)!.size);
      assert.deepEqual(new Map((d.votes as Json[]).map((v) => [v.voterId, v.vote])), votes.get(item.id));
      const powers = (d.votes as Json[]).filter((v) => v.votingPower !== null).map((v) => v.votingPower as number);
      for (let i = 1; i < powers.length; i++) assert.ok(powers[i - 1]! >= powers[i]!, 'largest voting power first');
    }
  });

  it('gives ADA amounts as whole ADA with the exact lovelace beside them: actions and certificate deposits', async () => {
    const blocks = canonicalBlocks(devnet);
    let withdrawals = 0;
    let deposits = 0;
    for (const block of blocks)
      for (const tx of block.transactions ?? []) {
        for (const [index, p] of ((tx.proposals as Json[] | undefined) ?? []).entries()) {
          if (p.action.type !== 'treasuryWithdrawals' || withdrawals >= 3) continue;
          const r = await api.get(`/api/v1/governance/proposals/${tx.id}:${index}`);
          assert.equal(r.status, 200);
          const shown = (r.body as Json).action.withdrawals as Json;
          for (const [account, amount] of Object.entries(p.action.withdrawals as Json)) {
            const raw = lovelace(amount)!;
            assert.deepEqual(shown[account], { ada: Number(raw) / 1e6, lovelace: String(raw) }, account);
          }
          withdrawals++;
        }
        const certs = (tx.certificates as Json[] | undefined) ?? [];
        if (deposits >= 3 || !certs.some((c) => c.deposit)) continue;
        const r = await api.get(`/api/v1/explorer/tx/${tx.id}`);
        assert.equal(r.status, 200);
        const shown = (r.body as Json).certificates as Json[];
        certs.forEach((c, i) => {
          if (!c.deposit) return;
          const raw = lovelace(c.deposit)!;
          assert.deepEqual(shown[i]!.deposit, { ada: Number(raw) / 1e6, lovelace: String(raw) }, c.type);
          deposits++;
        });
      }
    assert.ok(withdrawals >= 1 && deposits >= 1, `${withdrawals} withdrawals, ${deposits} deposits checked`);
  });

  it('filters by status and searches text', async () => {
    const every = (await all()).items as Json[];
    const expired = await all('&status=expired');
    assert.equal(expired.total, every.filter((x) => x.status === 'expired').length);
    assert.ok((expired.items as Json[]).every((x) => x.status === 'expired'));
    const treasury = await all('&q=TREASURY');
    assert.equal(treasury.total, every.filter((x) => x.type === 'treasuryWithdrawals').length);
    assert.ok(treasury.total > 0);
    const first = every[0]!;
    const byId = await all(`&q=${first.govActionId}`);
    assert.deepEqual(
      (byId.items as Json[]).map((x) => x.id),
      [first.id],
    );
    // Spaces around the text are not part of it.
    const padded = await all(`&q=%20${first.govActionId}%20`);
    assert.deepEqual(
      (padded.items as Json[]).map((x) => x.id),
      [first.id],
    );
    const paged = await api.get('/api/v1/governance/proposals?page=2&pageSize=3');
    assert.deepEqual(
      ((paged.body as Json).items as Json[]).map((x) => x.id),
      every.slice(3, 6).map((x) => x.id),
    );
  });

  it('lists DReps by stake with delegators, deposits and mandates, and answers one by CIP-129 or CIP-105 id', async () => {
    const r = await api.get('/api/v1/governance/dreps?pageSize=200');
    assert.equal(r.status, 200);
    valid(checkDReps, r.body);
    const body = r.body as Json;
    assert.equal(body.total, ledgerDReps.length);
    const items = body.items as Json[];
    for (let i = 1; i < items.length; i++) assert.ok(items[i - 1]!.stake >= items[i]!.stake, 'by stake');
    for (const d of ledgerDReps.filter((x) => x.type === 'registered')) {
      const id = drepBech32({ hash: d.id, script: false });
      const item = items.find((x) => x.id === id)!;
      assert.equal(item.stakeLovelace, String(lovelace(d.stake)));
      assert.equal(item.delegators, d.delegators.length);
      assert.equal(item.deposit, 500);
      assert.equal(item.mandateEpoch, d.mandate.epoch);
    }
    assert.ok(items.some((x) => x.id === 'drep_always_abstain' && x.delegators > 0));
    const top = items.find((x) => x.kind === 'registered' && x.votesCast > 0)!;
    for (const id of [top.id, drepLegacyBech32({ hash: top.credential, script: false })]) {
      const one = await api.get(`/api/v1/governance/dreps/${id}`);
      assert.equal(one.status, 200);
      valid(checkDRep, one.body);
      assert.equal((one.body as Json).id, top.id);
      assert.equal(((one.body as Json).votes as Json[]).length, top.votesCast);
    }
  });

  it('a stake key’s vote delegation on the explorer is the DRep id the governance routes answer', async () => {
    // Oracle: the devnet ledger's DReps and their delegators (queryLedgerState/delegateRepresentatives).
    let checked = 0;
    for (const d of ledgerDReps) {
      const id =
        d.type === 'registered'
          ? drepBech32({ hash: d.id, script: d.from === 'script' })
          : { abstain: 'drep_always_abstain', noConfidence: 'drep_always_no_confidence' }[d.type as string]!;
      for (const del of (d.delegators as Json[]).slice(0, 3)) {
        const stake = rewardAddress('mainnet', del.credential, del.from === 'script');
        const r = await api.get(`/api/v1/explorer/address/${stake}`);
        assert.equal(r.status, 200, stake);
        assert.equal((r.body as Json).stakeAccount.drep, id, `${stake} delegates to ${id}`);
        checked++;
      }
      const one = await api.get(`/api/v1/governance/dreps/${id}`);
      assert.equal(one.status, 200, id);
    }
    assert.ok(checked >= 5, `${checked} delegators`);
    assert.ok(ledgerDReps.some((d) => d.type === 'abstain' && d.delegators.length > 0));
  });

  it('answers 400 for malformed ids and parameters, 404 for unknown ones', async () => {
    const bad = [
      '/api/v1/governance/proposals/not-a-proposal',
      `/api/v1/governance/proposals/${'ab'.repeat(31)}%230`,
      '/api/v1/governance/proposals?status=pending',
      '/api/v1/governance/proposals?page=0',
      '/api/v1/governance/dreps?pageSize=500',
      `/api/v1/governance/dreps/${Object.keys(ledgerPools)[0]}`,
      '/api/v1/governance/dreps/drep1xyz',
    ];
    for (const p of bad) {
      const r = await api.get(p);
      assert.equal(r.status, 400, p);
      assert.equal(typeof (r.body as Json).error, 'string');
    }
    for (const p of [
      `/api/v1/governance/proposals/${'ab'.repeat(32)}%230`,
      `/api/v1/governance/proposals/${govActionBech32('cd'.repeat(32), 1)}`,
      `/api/v1/governance/dreps/${drepBech32({ hash: 'ef'.repeat(28), script: false })}`,
    ]) {
      const r = await api.get(p);
      assert.equal(r.status, 404, p);
    }
  });

  it('keeps proposals that leave the ledger, with their final status, across recomputes', async () => {
    const before = (await all()).items as Json[];
    const epoch = epochOfTip();
    while (epochOfTip() < epoch + 2) devnet.step();
    await syncAll(store, chain, 97);
    await recompute();
    const now = await chain.query<Json[]>('queryLedgerState/governanceProposals');
    const nowListed = new Set(now.map((p) => `${p.proposal.transaction.id}#${p.proposal.index}`));
    const after = (await all()).items as Json[];
    const left = before.filter((x) => x.status === 'active' && !nowListed.has(x.id));
    assert.ok(left.length > 0, 'some proposals expired meanwhile');
    for (const b of before) {
      const a = after.find((x) => x.id === b.id);
      assert.ok(a, `${b.id} still answered`);
      if (!nowListed.has(b.id)) {
        assert.equal(a.status, 'expired');
        if (left.includes(b)) assert.deepEqual(a.drep, b.drep, 'last tallies kept');
      }
    }
  });
});

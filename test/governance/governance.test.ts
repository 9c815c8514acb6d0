/**
 * Governance computation on hand-built and real (generated Ogmios v6.14 vectors) query results: CIP-129 ids,
 * vote shares of DReps and stake pools by voting power, statuses across recomputes, requested ADA.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildGovernance,
  drepTally,
  parseDReps,
  parsePools,
  parseProposals,
  requestedWithdrawals,
  spoTally,
  votingBodies,
  type GovernanceInput,
  type ParsedProposal,
} from '../../activities/governance/compute.js';
import { parseOgmiosJson } from '../../activities/chain/json.js';
import { rewardAddress } from '../../cardano/address.js';
import {
  drepBech32,
  drepLegacyBech32,
  govActionBech32,
  parseDRepId,
  parseGovActionRef,
} from '../../cardano/governance-ids.js';
import {
  DREPS as DREPS_COLLECTION,
  GOVERNANCE_PROPOSALS,
  GOVERNANCE_VOTES,
} from '../../mongo/collections/governance.js';
import { put } from '../../mongo/store.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { tempStore } from '../sync/helpers.js';

const FIXTURES = path.resolve(process.cwd(), '../shared/fixtures/chain/ogmios/generated-v6.14.0/ledger-state');
const fixture = (name: string) =>
  (parseOgmiosJson(readFileSync(path.join(FIXTURES, name), 'utf8')) as { result: unknown }).result;

const TX = 'ab'.repeat(32);
const cred = (n: number) => n.toString(16).padStart(2, '0').repeat(28);
const ada = (n: number) => ({ ada: { lovelace: BigInt(n) * 1_000_000n } });
const POOL = (n: number) => `pool1${'q'.repeat(50)}${n}`; // ids are opaque keys to the tally

function proposal(action: Record<string, unknown>, votes: unknown[], over: Record<string, unknown> = {}) {
  return {
    proposal: { transaction: { id: TX }, index: 0 },
    deposit: ada(100_000),
    returnAccount: rewardAddress('mainnet', cred(9)),
    metadata: { url: 'https://gov.example/p.jsonld', hash: 'cd'.repeat(32) },
    action,
    since: { epoch: 10 },
    until: { epoch: 12 },
    votes,
    ...over,
  };
}
const drepVote = (n: number, vote: string) => ({
  issuer: { role: 'delegateRepresentative', from: 'verificationKey', id: cred(n) },
  vote,
});
const poolVote = (n: number, vote: string) => ({ issuer: { role: 'stakePoolOperator', id: POOL(n) }, vote });

/** DReps 1–4 active (100/50/30/20 ADA), DRep 5 inactive (1000 ADA), abstain option 500, noConfidence 40. */
const DREPS = parseDReps([
  ...[
    [1, 100],
    [2, 50],
    [3, 30],
    [4, 20],
  ].map(([n, s]) => ({
    type: 'registered',
    from: 'verificationKey',
    id: cred(n as number),
    mandate: { epoch: 15 },
    deposit: ada(500),
    stake: ada(s as number),
    delegators: [],
  })),
  {
    type: 'registered',
    from: 'verificationKey',
    id: cred(5),
    mandate: { epoch: 9 },
    deposit: ada(500),
    stake: ada(1000),
    delegators: [],
  },
  { type: 'abstain', stake: ada(500), delegators: [{ from: 'verificationKey', credential: cred(33) }] },
  { type: 'noConfidence', stake: ada(40), delegators: [{ from: 'verificationKey', credential: cred(34) }] },
]);
const POOLS = parsePools({
  [POOL(1)]: { id: POOL(1), stake: ada(100), rewardAccount: rewardAddress('mainnet', cred(31)) },
  [POOL(2)]: { id: POOL(2), stake: ada(60), rewardAccount: rewardAddress('mainnet', cred(32)) },
  // Silent, its reward account delegates to the abstain option.
  [POOL(3)]: { id: POOL(3), stake: ada(40), rewardAccount: rewardAddress('mainnet', cred(33)) },
  // Silent, its reward account delegates to noConfidence.
  [POOL(4)]: { id: POOL(4), stake: ada(50), rewardAccount: rewardAddress('mainnet', cred(34)) },
});
const votes = [
  drepVote(1, 'yes'),
  drepVote(2, 'no'),
  drepVote(3, 'abstain'),
  drepVote(5, 'yes'),
  poolVote(1, 'yes'),
  poolVote(2, 'no'),
];
const one = (raw: unknown) => parseProposals([raw])[0] as ParsedProposal;

describe('governance ids (CIP-129, CIP-105)', () => {
  it('encodes the CIP-129 test vector and reads back every printed form of a proposal id', () => {
    assert.equal(
      govActionBech32('00'.repeat(32), 17),
      'gov_action1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpzklpgpf',
    );
    const id = govActionBech32(TX, 3);
    for (const form of [id, `${TX}#3`, `${TX}:3`, `${TX.toUpperCase()}#3`])
      assert.deepEqual(parseGovActionRef(form), { txId: TX, index: 3 }, form);
    for (const bad of [`${TX}#`, TX, 'gov_action1qqqq', id.slice(0, -1) + (id.endsWith('q') ? 'p' : 'q'), POOL(1)])
      assert.equal(parseGovActionRef(bad), null, bad);
  });

  it('round-trips DRep ids in CIP-129 and CIP-105 form, keys and scripts', () => {
    for (const script of [false, true]) {
      const c = { hash: cred(7), script };
      const id129 = drepBech32(c);
      assert.match(id129, /^drep1/);
      assert.deepEqual(parseDRepId(id129), c);
      const id105 = drepLegacyBech32(c);
      assert.match(id105, script ? /^drep_script1/ : /^drep1/);
      assert.deepEqual(parseDRepId(id105), c);
      assert.notEqual(id105, id129);
    }
    assert.equal(parseDRepId('drep1notvalid'), null);
    assert.equal(parseDRepId(rewardAddress('mainnet', cred(1))), null);
  });
});

describe('governance vote shares', () => {
  it('DReps: active stake by vote, noConfidence as no, abstentions and inactive DReps left out', () => {
    const t = drepTally(
      one(proposal({ type: 'treasuryWithdrawals', withdrawals: {}, guardrails: null }, votes)),
      DREPS,
      11,
    );
    // yes 100; no 50 + noConfidence 40; not voted 20; abstain 30 (DRep 3); DRep 5 (inactive) and the option out.
    assert.equal(t.yes, String(100_000_000n));
    assert.equal(t.no, String(90_000_000n));
    assert.equal(t.notVoted, String(20_000_000n));
    // One base for every share: 100 + 90 + 30 + 20 = 240.
    assert.equal(t.base, String(240_000_000n));
    assert.equal(t.shareBase, 'yes+no+abstain+notVoted');
    assert.equal(t.yesPct, 41.6666); // 100 / 240, truncated
    assert.equal(t.noPct, 37.5); // 90 / 240
    assert.equal(t.abstainPct, 12.5); // 30 / 240
    assert.equal(t.notVotedPct, 8.3333); // 20 / 240
    assert.ok(t.yesPct! + t.noPct! + t.abstainPct! + t.notVotedPct! <= 100);
    assert.equal(t.ratificationYesPct, 47.619); // the ledger's ratio: 100 / (100 + 90 + 20)
  });

  it('DReps: noConfidence stake is yes on a motion of no confidence', () => {
    const t = drepTally(one(proposal({ type: 'noConfidence' }, votes)), DREPS, 11);
    assert.equal(t.yes, String(140_000_000n));
    assert.equal(t.no, String(50_000_000n));
  });

  it('stake pools: silent pools count by their reward account delegation, except on hard forks', () => {
    const info = spoTally(one(proposal({ type: 'information' }, votes)), POOLS, DREPS);
    assert.deepEqual(
      [info.yes, info.no, info.abstain, info.notVoted],
      ['100000000', '60000000', '40000000', '50000000'],
    );
    assert.equal(info.yesPct, 40); // 100 / (100 + 60 + 40 + 50)
    assert.equal(info.ratificationYesPct, 47.619); // 100 / (100 + 60 + 50)
    const motion = spoTally(one(proposal({ type: 'noConfidence' }, votes)), POOLS, DREPS);
    assert.equal(motion.yes, '150000000'); // pool 4 silent, delegates to noConfidence
    const fork = spoTally(
      one(proposal({ type: 'hardForkInitiation', version: { major: 11, minor: 0 } }, votes)),
      POOLS,
      DREPS,
    );
    assert.equal(fork.abstain, '0');
    assert.equal(fork.notVoted, '90000000');
  });

  it('knows which bodies vote on which action', () => {
    assert.deepEqual(votingBodies({ type: 'treasuryWithdrawals' }), { drep: true, spo: false, committee: true });
    assert.equal(
      votingBodies({ type: 'protocolParametersUpdate', parameters: { maxBlockBodySize: { bytes: 1 } } }).spo,
      true,
    );
    assert.equal(
      votingBodies({ type: 'protocolParametersUpdate', parameters: { collateralPercentage: 150 } }).spo,
      false,
    );
  });
});

describe('governance documents', () => {
  const base = (over: Partial<GovernanceInput>): GovernanceInput => ({
    epoch: 11,
    proposals: [],
    dreps: DREPS,
    pools: POOLS,
    previous: { proposals: [], votes: [], dreps: [] },
    txTimes: new Map([[TX, { slot: 1234, time: '2026-01-01T00:00:00.000Z' }]]),
    computedAt: '2026-01-01T01:00:00.000Z',
    ...over,
  });
  const withdrawal = proposal(
    {
      type: 'treasuryWithdrawals',
      withdrawals: {
        [rewardAddress('mainnet', cred(1))]: ada(250_000),
        [rewardAddress('mainnet', cred(2))]: { ada: { lovelace: 1n } },
      },
      guardrails: null,
    },
    votes,
  );
  const info = proposal({ type: 'information' }, [poolVote(1, 'yes')], {
    proposal: { transaction: { id: TX }, index: 1 },
    until: { epoch: 15 },
  });

  it('writes requested ADA, ids, tallies and one vote document per voter', () => {
    const out = buildGovernance(base({ proposals: parseProposals([withdrawal, info]) }));
    const w = out.proposals.find((p) => p._id === `${TX}#0`)!;
    assert.equal(w.govActionId, govActionBech32(TX, 0));
    assert.equal(w.requestedLovelace, '250000000001');
    assert.equal(w.withdrawals.length, 2);
    assert.equal(w.summary, 'Treasury withdrawal of 250,000.000001 ADA to 2 reward accounts');
    assert.equal(w.spo, null, 'pools do not vote on treasury withdrawals');
    assert.equal(w.drep?.yesPct, 41.6666);
    assert.deepEqual(w.voteCounts.drep, { yes: 2, no: 1, abstain: 1 });
    assert.equal(w.proposedSlot, 1234);
    assert.equal(w.status, 'active');
    assert.equal(out.votes.filter((v) => v.proposalId === w._id).length, 6);
    const dv = out.votes.find((v) => v._id === `${TX}#0|drep|${drepBech32({ hash: cred(1), script: false })}`);
    assert.equal(dv?.votingPower, '100000000');
    assert.equal(requestedWithdrawals({ type: 'information' }).total, null);
    const d1 = out.dreps.find((d) => d.credential === cred(1))!;
    assert.equal(d1.votesCast, 1);
    assert.equal(out.dreps.find((d) => d.credential === cred(5))?.status, 'inactive');
    assert.ok(out.dreps.some((d) => d._id === 'drep_always_abstain' && d.stake === '500000000'));
  });

  it('keeps proposals the ledger stopped listing: expired past until, removed before, votes kept', () => {
    const first = buildGovernance(base({ proposals: parseProposals([withdrawal, info]) }));
    // Epoch 13: both gone from the ledger; #0 (until 12) expired, #1 (until 15) left early.
    const next = buildGovernance(
      base({
        epoch: 13,
        proposals: [],
        previous: { proposals: first.proposals, votes: first.votes, dreps: first.dreps },
      }),
    );
    const byId = new Map(next.proposals.map((p) => [p._id, p]));
    assert.equal(byId.get(`${TX}#0`)?.status, 'expired');
    assert.equal(byId.get(`${TX}#1`)?.status, 'removed');
    assert.equal(byId.get(`${TX}#0`)?.drep?.yesPct, 41.6666, 'last tallies kept');
    assert.equal(byId.get(`${TX}#0`)?.lastSeenEpoch, 11);
    assert.equal(next.votes.length, first.votes.length);
    // A listed proposal past its until epoch (awaiting removal) is expired too.
    const late = buildGovernance(base({ epoch: 13, proposals: parseProposals([withdrawal]) }));
    assert.equal(late.proposals[0]?.status, 'expired');
  });

  it('a proposal the blocks carried after the ledger reading is new (active), not removed', () => {
    // Epoch 11, lifetime 3: a proposal submitted in epoch 11 lives until 14 (Conway). The sync runs on while the
    // recompute queries the ledger, so the blocks it reads can hold a proposal submitted after the ledger tip the
    // listing was taken at (slot 5000 here): the ledger has not seen it yet, it was neither ratified nor dropped.
    const TX2 = 'ef'.repeat(32);
    const origin = {
      _id: `${TX2}#0`,
      txId: TX2,
      index: 0,
      slot: 5010,
      height: 500,
      time: '2026-01-01T00:50:00.000Z',
      epoch: 11,
      deposit: '100000000000',
      returnAccount: rewardAddress('mainnet', cred(9)),
      anchor: null,
      type: 'information',
      requestedLovelace: null,
      withdrawals: [],
      action: { type: 'information' },
    };
    const run = (ledgerSlot: number | null) =>
      buildGovernance(
        base({ govActionLifetime: 3, ledgerSlot, chain: { proposals: [origin], votes: [] } }),
      ).proposals.find((p) => p._id === origin._id);
    const fresh = run(5000);
    assert.equal(fresh?.status, 'active');
    assert.equal(fresh?.untilEpoch, 14);
    assert.equal(fresh?.source, 'chain');
    assert.equal(fresh?.drep, null, 'no ledger reading: no tallies by voting power');
    // Once the ledger reading covers its block and still does not list it, it left early: removed.
    assert.equal(run(5010)?.status, 'removed');
    // Without a ledger tip to compare with, an unlisted proposal is taken as gone, as before.
    assert.equal(run(null)?.status, 'removed');
  });

  it("a listed proposal's votes carry the rationale anchor the blocks carried (the ledger keeps none)", async () => {
    // The ledger keeps each voter's vote on a proposal, not its anchor (GovActionState's vote maps), so Ogmios'
    // governanceProposals lists votes as {issuer, vote} only: the rationale is in the voting transaction alone.
    const props = parseProposals([withdrawal]);
    const pid = `${TX}#0`;
    const drep1 = drepBech32({ hash: cred(1), script: false });
    const rationale = { url: 'https://drep1.example/rationale.jsonld', hash: 'ef'.repeat(32) };
    const at = { txId: 'cd'.repeat(32), slot: 1300, height: 50, time: '2026-01-01T00:10:00.000Z', epoch: 11 };
    const chainVotes = [
      // DRep 1's last vote in the blocks: yes with its rationale, the vote the ledger holds.
      {
        _id: `${pid}|drep|${drep1}`,
        proposalId: pid,
        role: 'drep' as const,
        voterId: drep1,
        vote: 'yes' as const,
        anchor: rationale,
        ...at,
      },
      // Pool 2's last vote the blocks carried so far is yes, but the ledger already holds its later no: not its anchor.
      {
        _id: `${pid}|spo|${POOL(2)}`,
        proposalId: pid,
        role: 'spo' as const,
        voterId: POOL(2),
        vote: 'yes' as const,
        anchor: rationale,
        ...at,
      },
    ];
    const out = buildGovernance(base({ proposals: props, chain: { proposals: [], votes: chainVotes } }));
    const env = await tempStore();
    try {
      await env.store.write([
        ...out.votes.map((v) => put(GOVERNANCE_VOTES, v)),
        ...out.dreps.map((d) => put(DREPS_COLLECTION, d)),
      ]);
      const api = await serveTestApp(env.store);
      try {
        const r = await api.get(`/api/v1/governance/dreps/${drep1}`);
        const votes = (r.body as { votes: { proposalId: string; vote: string; anchor: unknown }[] }).votes;
        assert.deepEqual(votes, [{ ...votes[0], proposalId: pid, vote: 'yes', anchor: rationale }]);
      } finally {
        await api.close();
      }
    } finally {
      await env.cleanup();
    }
    const byId = new Map(out.votes.map((v) => [v._id, v]));
    assert.equal(byId.get(`${pid}|spo|${POOL(2)}`)?.anchor, null, 'another vote of the voter: not its anchor');
    assert.equal(byId.get(`${pid}|spo|${POOL(1)}`)?.anchor, null, 'no vote in the blocks: no anchor');
  });

  it('a DRep listed from the stake distribution alone (retired this epoch: no mandate, no deposit) is retired, with no stake', async () => {
    // Ogmios' delegateRepresentatives merges the DRep stake distribution computed at the epoch's start with the
    // DRep states: a DRep that retired since is still in the distribution but has no state, and is written
    // {type: 'registered', id, from, stake, delegators} without mandate or deposit. The ledger's ratification
    // skips a DRep without state, and the retirement cleared its delegations.
    const gone = parseDReps([
      { type: 'registered', from: 'verificationKey', id: cred(6), stake: ada(5000), delegators: [] },
    ]);
    const props = parseProposals([withdrawal]);
    const out = buildGovernance(base({ proposals: props, dreps: [...DREPS, ...gone] }));
    const without = buildGovernance(base({ proposals: props }));
    assert.deepEqual(out.proposals[0]?.drep, without.proposals[0]?.drep, 'its stake counts in no tally');
    const env = await tempStore();
    try {
      await env.store.write(out.dreps.map((d) => put(DREPS_COLLECTION, d)));
      const api = await serveTestApp(env.store);
      try {
        const id = drepBech32({ hash: cred(6), script: false });
        const one = (await api.get(`/api/v1/governance/dreps/${id}`)).body as Record<string, unknown>;
        assert.equal(one.status, 'retired');
        assert.equal(one.stakeLovelace, '0');
        assert.equal(one.deposit, null);
        // The list by delegated stake does not put the retired DRep (5,000 ADA in the old distribution) first.
        const list = (await api.get('/api/v1/governance/dreps')).body as { items: { id: string }[] };
        assert.notEqual(list.items[0]?.id, id);
        assert.equal(list.items.at(-1)?.id, id);
      } finally {
        await api.close();
      }
    } finally {
      await env.cleanup();
    }
  });

  it('a kept tally moves in the votes cast after the ledger stopped listing the proposal', () => {
    const first = buildGovernance(base({ proposals: parseProposals([withdrawal, info]) }));
    const w0 = first.proposals.find((p) => p._id === `${TX}#0`)!;
    const i0 = first.proposals.find((p) => p._id === `${TX}#1`)!;
    // At the listing (DREPS, POOLS above): DReps yes 100 (1), no 50 (2) + 40 noConfidence, abstain 30 (3),
    // not voted 20 (4; 5 is inactive). Pools on the info action: yes 100 (1), abstain 40 (3, by its reward
    // account's delegation), not voted 60 (2) + 50 (4).
    const tally = (t: typeof w0.drep) =>
      t && [t.yes, t.no, t.abstain, t.notVoted].map((x) => Number(BigInt(x) / 1_000_000n));
    assert.deepEqual(tally(w0.drep), [100, 90, 30, 20]);
    assert.deepEqual(tally(i0.spo), [100, 0, 40, 110]);
    // Blocks after that listing: DRep 4 votes yes, DRep 2 turns to yes, DRep 6 (registered since, 70 ADA) votes
    // yes, pool 2 votes no on the info action.
    const chainVote = (proposalId: string, role: 'drep' | 'spo', voterId: string, vote: 'yes' | 'no') => ({
      _id: `${proposalId}|${role}|${voterId}`,
      proposalId,
      role,
      voterId,
      vote,
      anchor: null,
      txId: 'cd'.repeat(32),
      slot: 5000,
      height: 50,
      time: '2026-01-02T00:00:00.000Z',
      epoch: 12,
    });
    const drepId = (n: number) => drepBech32({ hash: cred(n), script: false });
    const late = [
      chainVote(`${TX}#0`, 'drep', drepId(4), 'yes'),
      chainVote(`${TX}#0`, 'drep', drepId(2), 'yes'),
      chainVote(`${TX}#0`, 'drep', drepId(6), 'yes'),
      chainVote(`${TX}#1`, 'spo', POOL(2), 'no'),
    ];
    const previous = { proposals: first.proposals, votes: first.votes, dreps: first.dreps };
    const dreps = [
      ...DREPS,
      ...parseDReps([
        {
          type: 'registered',
          from: 'verificationKey',
          id: cred(6),
          mandate: { epoch: 20 },
          deposit: ada(500),
          stake: ada(70),
          delegators: [],
        },
      ]),
    ];
    const chain = { proposals: [], votes: late };
    const next = buildGovernance(base({ epoch: 13, proposals: [], dreps, previous, chain }));
    const w1 = next.proposals.find((p) => p._id === `${TX}#0`)!;
    const i1 = next.proposals.find((p) => p._id === `${TX}#1`)!;
    // DRep 4's 20 ADA leaves not voted; DRep 6's 70 ADA was in no stand, so the base grows by it.
    assert.deepEqual(tally(w1.drep), [240, 40, 30, 0]);
    assert.deepEqual(w1.voteCounts.drep, { yes: 5, no: 0, abstain: 1 });
    assert.deepEqual(tally(i1.spo), [100, 60, 40, 50]);
    // The next run sees the same votes again: nothing moves twice.
    const again = buildGovernance(
      base({
        epoch: 14,
        proposals: [],
        dreps,
        previous: { proposals: next.proposals, votes: next.votes, dreps: next.dreps },
        chain,
      }),
    );
    assert.deepEqual(tally(again.proposals.find((p) => p._id === `${TX}#0`)!.drep), [240, 40, 30, 0]);
    assert.deepEqual(tally(again.proposals.find((p) => p._id === `${TX}#1`)!.spo), [100, 60, 40, 50]);
  });

  it('reads the generated Ogmios v6.14 query vectors', () => {
    const props = [
      ...parseProposals(fixture('queryLedgerState.governanceProposals.004.json')),
      ...parseProposals(fixture('queryLedgerState.governanceProposals.007.json')),
    ];
    assert.equal(props.length, 9);
    const tw = props.find((p) => p.action.type === 'treasuryWithdrawals' && p.txId);
    assert.ok(tw);
    const raw = (tw.action.withdrawals ?? {}) as Record<string, { ada: { lovelace: bigint } }>;
    const sum = Object.values(raw).reduce((s, w) => s + w.ada.lovelace, 0n);
    assert.equal(requestedWithdrawals(tw.action).total, sum);
    assert.ok(props.some((p) => p.votes.some((v) => v.role === 'spo' && v.id.startsWith('pool1'))));
    const dreps = parseDReps(fixture('queryLedgerState.delegateRepresentatives.003.json'));
    assert.deepEqual(dreps.map((d) => d.kind).sort(), ['abstain', 'noConfidence']);
    assert.equal(dreps.find((d) => d.kind === 'abstain')?.delegators.length, 17);
    const out = buildGovernance(base({ epoch: 9, proposals: props, dreps, pools: new Map() }));
    assert.equal(out.proposals.length, props.length);
    for (const p of out.proposals) assert.ok(parseGovActionRef(p.govActionId), p.govActionId);
  });
});

describe('governance ids in capitals on the REST routes', () => {
  let env: Awaited<ReturnType<typeof tempStore>>;
  let api: TestApi;
  before(async () => {
    env = await tempStore();
    api = await serveTestApp(env.store);
  });
  after(async () => {
    await api?.close();
    await env?.cleanup();
  });

  it('a bech32 proposal or DRep id in capitals is refused with the lowercase id to send, which is then taken', async () => {
    // CIP-129's own test vector (transaction 00…00, index 17), and a DRep key and script id of the CIP-129 form.
    const proposal = 'gov_action1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpzklpgpf';
    const dreps = [false, true].map((script) => drepBech32({ hash: cred(9), script }));
    const cases = [
      ['proposals', proposal],
      ...[...dreps, 'drep_always_abstain', 'drep_always_no_confidence'].map((id) => ['dreps', id] as const),
    ] as const;
    for (const [route, id] of cases) {
      const r = await api.get(`/api/v1/governance/${route}/${id.toUpperCase()}`);
      assert.equal(r.status, 400, id);
      assert.match((r.body as { error: string }).error, new RegExp(`; write it in lowercase: ${id}$`), id);
      // The id it names passes validation: an empty store knows no such proposal or DRep (404, not 400).
      assert.equal((await api.get(`/api/v1/governance/${route}/${id}`)).status, 404, id);
    }
    // Text that is no id in any case gets no hint.
    const r = await api.get('/api/v1/governance/dreps/DREP1XYZ');
    assert.equal(r.status, 400);
    assert.doesNotMatch((r.body as { error: string }).error, /lowercase/);
  });
});

describe('governance proposal search by id (REST q, list_governance_actions query)', () => {
  let env: Awaited<ReturnType<typeof tempStore>>;
  let api: TestApi;
  // One transaction with eleven proposals (indexes 0-10): `TX#1` is a prefix of `TX#10`'s id.
  const raws = Array.from({ length: 11 }, (_, index) =>
    proposal({ type: 'information' }, [], { proposal: { transaction: { id: TX }, index } }),
  );
  before(async () => {
    env = await tempStore();
    const out = buildGovernance({
      epoch: 11,
      proposals: parseProposals(raws),
      dreps: DREPS,
      pools: POOLS,
      previous: { proposals: [], votes: [], dreps: [] },
      txTimes: new Map(),
      computedAt: '2026-01-01T01:00:00.000Z',
    });
    await env.store.write(out.proposals.map((d) => put(GOVERNANCE_PROPOSALS, d)));
    api = await serveTestApp(env.store);
  });
  after(async () => {
    await api?.close();
    await env?.cleanup();
  });

  it('a whole proposal id in any form the detail route takes finds that proposal alone', async () => {
    const ids = async (q: string) => {
      const r = await api.get(`/api/v1/governance/proposals?q=${encodeURIComponent(q)}`);
      assert.equal(r.status, 200, q);
      return ((r.body as { items: { id: string }[] }).items ?? []).map((x) => x.id);
    };
    for (const index of [1, 10]) {
      const id = `${TX}#${index}`;
      // The detail route answers each form; the search finds the same one proposal, not also `…#10` for `…#1`.
      for (const form of [id, `${TX}:${index}`, govActionBech32(TX, index), `${TX.toUpperCase()}#${index}`]) {
        const detail = await api.get(`/api/v1/governance/proposals/${encodeURIComponent(form)}`);
        assert.equal((detail.body as { id: string }).id, id, form);
        assert.deepEqual(await ids(form), [id], form);
      }
    }
    // Text that is no whole id is still searched in the ids: the transaction id finds all eleven.
    assert.equal((await ids(TX)).length, 11);
  });
});

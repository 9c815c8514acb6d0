/**
 * Conway governance activity (rules and parameters in devnet/governance.ts):
 *   - DReps: `DREP_COUNT` DReps register one by one in the first hours (500 ADA deposit, most with a metadata
 *     anchor), each run by one wallet that pays its fees;
 *   - vote delegation: registered stake keys delegate their vote, mostly to DReps (the first ones attract more
 *     delegators, as on mainnet), some to the predefined abstain / noConfidence options; some change their mind;
 *   - proposals: about two per epoch, eight a day with the default 6 h epochs (100,000 ADA deposit, back to
 *     the proposer's reward account when the proposal leaves the ledger): treasury
 *     withdrawals to one to three reward accounts, info actions, protocol parameter changes; now and then two in
 *     one transaction;
 *   - votes: DReps vote on every kind of proposal, stake pools on info actions and parameter changes (Conway lets
 *     pools vote on security-group parameters only, and not on treasury withdrawals); each proposal has its own
 *     leaning, derived from its id, so tallies differ between proposals; a voter sometimes changes its vote.
 * Everything is drawn from `ctx.rng` and the ledger; the module keeps no state of its own.
 */
import { hash256, keyHash } from '../../cardano/address.js';
import type { ActivityContext, ActivityModule } from '../generator.js';
import {
  DREP_DEPOSIT,
  GOV_ACTION_DEPOSIT,
  type Anchor,
  type DRepChoice,
  type GovAction,
  type ProposalDraft,
  type ProposalState,
  type VoteChoice,
} from '../governance.js';
import { MEAN_BLOCK_GAP } from '../params.js';
import type { DevTx } from '../tx.js';
import type { Wallet, World } from '../world.js';
import { ADA, adaBetween } from './common.js';

export const DREP_COUNT = 16;
/** DRep i is run by wallet DREP_WALLET_FROM + 3·i (ordinary base-address wallets). */
const DREP_WALLET_FROM = 150;

const enc = new TextEncoder();
const anchor = (url: string, salt: string): Anchor => ({ url, hash: hash256(enc.encode(`${salt}|${url}`)) });

interface DRepKeys {
  index: number;
  vkey: string;
  cred: string;
  wallet: Wallet;
}

const TOPICS = ['developer-tooling', 'education-fund', 'security-audit', 'community-hubs', 'research-grant'];

/** A proposal's leaning: the probability that a voter says yes, from its transaction id (stable, chain-derived). */
const leaning = (p: ProposalState): number => 0.2 + 0.7 * (parseInt(p.txId.slice(0, 8), 16) / 0x1_0000_0000);

export function governanceModule(world: World): ActivityModule {
  const dreps: DRepKeys[] = Array.from({ length: DREP_COUNT }, (_, i) => {
    const vkey = hash256(enc.encode(`${world.seed}/key/drep/${i}`));
    return { index: i, vkey, cred: keyHash(vkey), wallet: world.wallets[DREP_WALLET_FROM + 3 * i] as Wallet };
  });
  const drepByCred = new Map(dreps.map((d) => [d.cred, d]));
  // The guardrails script of the devnet's constitution (its hash only: parameter changes and withdrawals name it).
  const guardrails = keyHash(hash256(enc.encode(`${world.seed}/constitution/guardrails`)));
  const poolKeys = new Map(world.pools.map((p) => [p.id, p]));

  const registerDRep = (ctx: ActivityContext): DevTx | null => {
    const d = dreps.find((x) => !ctx.ledger.gov.dreps.has(x.cred));
    if (!d || ctx.view.coinAt(d.wallet.address) < DREP_DEPOSIT + 20n * ADA) return null;
    const withAnchor = ctx.rng.chance(0.75);
    return ctx.build({
      fundFrom: d.wallet.address,
      outputs: [],
      certificates: [
        {
          type: 'delegateRepresentativeRegistration',
          drep: d.cred,
          deposit: DREP_DEPOSIT,
          anchor: withAnchor ? anchor(`https://drep${d.index}.devnet/drep.jsonld`, world.seed) : null,
        },
      ],
      signers: [d.wallet.paymentVkey, d.vkey],
    });
  };

  const delegateVote = (ctx: ActivityContext, registered: string[]): DevTx | null => {
    const w = ctx.rng.pick(world.stakers);
    const cred = w.stakeCred as string;
    if (!ctx.ledger.rewards.has(cred) || ctx.view.coinAt(w.address) < 5n * ADA) return null;
    const u = ctx.rng.next();
    // Skewed towards the first DReps: the square of a uniform draw picks low indexes more often.
    const drep: DRepChoice =
      u < 0.08
        ? { type: 'abstain' }
        : u < 0.13
          ? { type: 'noConfidence' }
          : { type: 'registered', cred: registered[Math.floor(ctx.rng.next() ** 2 * registered.length)] as string };
    const current = ctx.ledger.gov.voteDelegations.get(cred);
    if (
      current &&
      current.type === drep.type &&
      (current.type !== 'registered' || current.cred === (drep as { cred: string }).cred)
    )
      return null;
    return ctx.build({
      fundFrom: w.address,
      outputs: [],
      certificates: [{ type: 'voteDelegation', cred, drep }],
      signers: [w.paymentVkey, w.stakeVkey as string],
    });
  };

  const action = (ctx: ActivityContext, registeredStakers: Wallet[]): { action: GovAction; slug: string } => {
    const u = ctx.rng.next();
    if (u < 0.4) {
      const n = ctx.rng.int(1, 3);
      const withdrawals: { rewardAddress: string; amount: bigint }[] = [];
      for (let i = 0; i < n; i++) {
        const to = ctx.rng.pick(registeredStakers);
        if (withdrawals.some((w) => w.rewardAddress === to.rewardAddress)) continue;
        withdrawals.push({ rewardAddress: to.rewardAddress as string, amount: adaBetween(ctx, 20_000, 4_000_000) });
      }
      return { action: { type: 'treasuryWithdrawals', withdrawals, guardrails }, slug: ctx.rng.pick(TOPICS) };
    }
    if (u < 0.7) return { action: { type: 'information' }, slug: 'info' };
    const v = ctx.rng.next();
    const parameters =
      v < 0.4
        ? { maxBlockBodySize: 90112 + 4096 * ctx.rng.int(1, 6) }
        : v < 0.7
          ? { maxTransactionSize: 16384 + 1024 * ctx.rng.int(1, 8), maxBlockBodySize: 90112 + 8192 }
          : { minFeeCoefficient: BigInt(ctx.rng.int(38, 46)) };
    return { action: { type: 'protocolParametersUpdate', parameters, guardrails }, slug: 'parameter-change' };
  };

  const propose = (ctx: ActivityContext): DevTx | null => {
    const registeredStakers = world.stakers.filter((w) => ctx.ledger.rewards.has(w.stakeCred as string));
    if (registeredStakers.length < 3) return null;
    let proposer: Wallet | null = null;
    for (let i = 0; i < 8 && !proposer; i++) {
      const w = ctx.rng.pick(registeredStakers);
      if (ctx.view.coinAt(w.address) >= 2n * GOV_ACTION_DEPOSIT + 100n * ADA) proposer = w;
    }
    if (!proposer) return null;
    const count = ctx.rng.chance(0.15) ? 2 : 1;
    const proposals: ProposalDraft[] = [];
    for (let i = 0; i < count; i++) {
      const a = action(ctx, registeredStakers);
      proposals.push({
        deposit: GOV_ACTION_DEPOSIT,
        returnAccount: proposer.rewardAddress as string,
        returnCred: proposer.stakeCred as string,
        anchor: anchor(`https://gov.devnet/proposals/${ctx.height}-${i}-${a.slug}.jsonld`, world.seed),
        action: a.action,
      });
    }
    return ctx.build({
      fundFrom: proposer.address,
      outputs: [],
      proposals,
      signers: [proposer.paymentVkey, proposer.stakeVkey as string],
    });
  };

  const choose = (ctx: ActivityContext, p: ProposalState): VoteChoice => {
    if (ctx.rng.chance(leaning(p))) return 'yes';
    return ctx.rng.chance(0.8) ? 'no' : 'abstain';
  };

  const drepVote = (ctx: ActivityContext, open: ProposalState[]): DevTx | null => {
    const p = ctx.rng.pick(open);
    const registered = [...ctx.ledger.gov.dreps.keys()];
    const d = drepByCred.get(ctx.rng.pick(registered));
    if (!d) return null;
    // Most DReps vote once; a few come back and change their vote.
    if (p.votes.has(`drep:${d.cred}`) && !ctx.rng.chance(0.1)) return null;
    if (ctx.view.coinAt(d.wallet.address) < 5n * ADA) return null;
    const withAnchor = ctx.rng.chance(0.3);
    return ctx.build({
      fundFrom: d.wallet.address,
      outputs: [],
      votes: [
        {
          voter: { role: 'delegateRepresentative', cred: d.cred },
          proposal: { txId: p.txId, index: p.index },
          vote: choose(ctx, p),
          anchor: withAnchor
            ? anchor(`https://drep${d.index}.devnet/rationale/${p.txId.slice(0, 12)}-${p.index}.jsonld`, world.seed)
            : null,
        },
      ],
      signers: [d.wallet.paymentVkey, d.vkey],
    });
  };

  const poolVote = (ctx: ActivityContext, open: ProposalState[]): DevTx | null => {
    const votable = open.filter((p) => p.action.type === 'information' || p.action.type === 'protocolParametersUpdate');
    const live = [...ctx.ledger.pools.keys()];
    if (!votable.length || !live.length) return null;
    const p = ctx.rng.pick(votable);
    const pool = poolKeys.get(ctx.rng.pick(live));
    if (!pool || p.votes.has(`spo:${pool.id}`)) return null;
    const owner = world.wallets[pool.owner] as Wallet;
    if (ctx.view.coinAt(owner.address) < 5n * ADA) return null;
    return ctx.build({
      fundFrom: owner.address,
      outputs: [],
      votes: [
        {
          voter: { role: 'stakePoolOperator', poolId: pool.id, poolHash: pool.hash },
          proposal: { txId: p.txId, index: p.index },
          vote: choose(ctx, p),
          anchor: null,
        },
      ],
      signers: [owner.paymentVkey, pool.coldVkey],
    });
  };

  return {
    name: 'governance',
    step(ctx) {
      if (ctx.fork) return [];
      const txs: DevTx[] = [];
      const push = (tx: DevTx | null) => {
        if (tx) txs.push(tx);
      };
      const gov = ctx.ledger.gov;
      // Rates per epoch (governance runs on epochs), so a test's short epochs see the same life cycle in less
      // chain time. Default 6 h epochs ≈ 1,080 blocks: all DReps within ~5 h, ~2 proposals per epoch (eight a
      // day), ~25 DRep and ~15 pool votes per epoch.
      const perEpoch = (n: number) => Math.min(1, (n * MEAN_BLOCK_GAP) / ctx.epochLength);
      if (gov.dreps.size < DREP_COUNT && ctx.rng.chance(perEpoch(20))) push(registerDRep(ctx));
      const registered = [...gov.dreps.keys()];
      if (!registered.length) return txs;
      for (let i = ctx.rng.poisson(0.1); i > 0; i--) push(delegateVote(ctx, registered));
      if (registered.length >= 3 && ctx.rng.chance(perEpoch(2))) push(propose(ctx));
      const open = [...gov.proposals.values()];
      if (!open.length) return txs;
      if (ctx.rng.chance(perEpoch(25))) push(drepVote(ctx, open));
      if (ctx.rng.chance(perEpoch(15))) push(poolVote(ctx, open));
      return txs;
    },
  };
}

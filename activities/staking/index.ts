/**
 * Stake pool recompute, run every 5 minutes (temporal/schedules.ts `staking`):
 * - recomputeStakePools — reads stake_pool_regs, stake_accounts, addresses, blocks, the previous stake_pools (to
 *   reuse verified metadata whose hash did not change) and, through the chain source, the ledger state
 *   (queryLedgerState/epoch, stakePools with stake, protocolParameters, rewardAccountSummaries of the delegators,
 *   treasuryAndReserves when answered); fetches pool metadata JSON (bounded: timeout, size cap, 8 at a time,
 *   cached by hash in the documents); writes stake_pools wholesale (idempotent; a failed run is simply repeated),
 *   and stake_rewards (every registered key's unwithdrawn rewards) where a balance changed.
 * Live stake is the ledger's definition: for each registered stake key delegating to the pool, the lovelace at every
 * address whose stake part is that key (base addresses with a key or script payment part: DEX orders count for the
 * trader; pointer addresses count for nothing since Conway) plus the key's unwithdrawn rewards. The ledger's own
 * figure is stored; the documents give the same Σ (UTxO part from `addresses`, rewards from
 * queryLedgerState/rewardAccountSummaries) and the devnet test holds the two equal. Without a chain source the
 * live stake is the documents' UTxO part alone and the epoch is that of the indexed tip block.
 */
import {
  ADDRESSES,
  BLOCKS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  type StakeAccountDoc,
  type StakePoolRegDoc,
} from '../../mongo/collections/chain.js';
import {
  STAKE_POOLS,
  STAKE_REWARDS,
  type StakePoolDelegatorDoc,
  type StakePoolDoc,
  type StakePoolMetaDoc,
  type StakeRewardDoc,
} from '../../mongo/collections/staking.js';
import { replaceAll, replaceChanged } from '../../mongo/replace-all.js';
import type { Store } from '../../mongo/store.js';
import { poolHashFromId } from '../../cardano/address.js';
import { isSourceDown, type ChainSource } from '../chain/source.js';
import { assertLedgerCaughtUp, ledgerTip } from '../chain/ledger-caught-up.js';
import {
  adaNumber,
  epochsPerYear,
  estimatedRoa,
  lovelace,
  poolStatus,
  ratio,
  realisedRoa,
  rewardPot,
  saturation,
  type RewardModel,
} from './compute.js';
import { fetchPoolMetadata, type MetadataFetcher } from './metadata.js';

export interface StakingDeps {
  store: Store;
  /** The ledger-state source (Ogmios or the devnet); absent = documents only. */
  chain?: ChainSource;
  /** Fetches pool metadata JSON (production: httpMetadataFetcher()); absent = metadata not fetched. */
  fetchMetadata?: MetadataFetcher;
  now?: () => number;
  /** How long a run waits for a ledger behind the index (activities/chain/ledger-caught-up.ts; default 60 s). */
  ledgerWaitMs?: number;
}

/** Top delegators kept per pool (the detail's bounded list). */
export const TOP_DELEGATORS = 20;

/** A pool's line of queryLedgerState/stakePoolsPerformances (the ledger's reward computation of an epoch). */
interface PoolPerformance {
  /** Active stake (the snapshot the epoch's rewards are shared by), lovelace. */
  stake: bigint | null;
  ownerStake: bigint | null;
  performance: number | null;
  /**
   * The parameters the ledger shared the epoch's rewards by (those of its stake snapshot), null each when not
   * reported: a certificate registered since (an update takes effect at the next epoch boundary) does not change
   * what the epoch paid.
   */
  cost: bigint | null;
  margin: number | null;
  pledge: bigint | null;
}

interface LedgerView {
  epoch: number;
  /** pool id → its StakePool object (with `stake` when includeStake was honoured). */
  pools: Map<string, Record<string, unknown>>;
  /** pool id → its performance line; empty when the source does not answer stakePoolsPerformances. */
  performances: Map<string, PoolPerformance>;
  /** nOpt and pledge influence a0 in force (protocolParameters): the saturation point and estimates going forward. */
  nOpt: number;
  a0: number;
  /**
   * nOpt and a0 the last completed epoch's rewards were computed with (stakePoolsPerformances), else those in force: a
   * parameter change enacted at an epoch boundary since does not change what that epoch paid (the realised return).
   */
  paid: { nOpt: number; a0: number };
  pot: bigint | null;
  /** The ledger's total stake (max supply − reserves), lovelace; null when unknown. */
  circulation: bigint | null;
  epochsPerYear: number;
}

/**
 * A query some sources do not answer (older Ogmios, a node in another era): null instead of a failure. A source
 * that cannot be reached fails the reading, as the queries it cannot do without would.
 */
async function optionalQuery<T>(chain: ChainSource, method: string, params?: Record<string, unknown>) {
  try {
    return await chain.query<T>(method, params);
  } catch (e) {
    if (isSourceDown(e)) throw e;
    return null;
  }
}

async function readLedger(chain: ChainSource): Promise<LedgerView> {
  const [epoch, pools, pp, time] = await Promise.all([
    chain.query<number | bigint>('queryLedgerState/epoch'),
    chain.query<Record<string, Record<string, unknown>>>('queryLedgerState/stakePools', { includeStake: true }),
    chain.query<Record<string, unknown>>('queryLedgerState/protocolParameters'),
    chain.networkTime(),
  ]);
  const [perf, tr, genesis] = await Promise.all([
    optionalQuery<Record<string, unknown>>(chain, 'queryLedgerState/stakePoolsPerformances'),
    optionalQuery<Record<string, unknown>>(chain, 'queryLedgerState/treasuryAndReserves'),
    optionalQuery<Record<string, unknown>>(chain, 'queryNetwork/genesisConfiguration', { era: 'shelley' }),
  ]);
  // Ogmios v6 names nOpt `desiredNumberOfStakePools`; older names are accepted too.
  const nOpt = Number(pp.desiredNumberOfStakePools ?? pp.stakePoolTargetNum ?? pp.nOpt ?? 0);
  const a0 = ratio(pp.stakePoolPledgeInfluence ?? perf?.stakePoolPledgeInfluence) ?? 0;
  const reserves = lovelace(tr?.reserves);
  const maxSupply = lovelace(genesis?.maxLovelaceSupply);
  const performances = new Map<string, PoolPerformance>();
  const perfPools = (perf?.stakePools ?? {}) as Record<string, Record<string, unknown>>;
  for (const [id, p] of Object.entries(perfPools)) {
    const approx = p.approximatePerformance;
    const params = (p.parameters ?? {}) as Record<string, unknown>;
    performances.set(id, {
      stake: lovelace(p.stake),
      ownerStake: lovelace(p.ownerStake),
      performance: typeof approx === 'number' && Number.isFinite(approx) ? approx : null,
      cost: lovelace(params.cost),
      margin: ratio(params.margin),
      pledge: lovelace(params.pledge),
    });
  }
  return {
    epoch: Number(epoch),
    pools: new Map(Object.entries(pools)),
    performances,
    nOpt,
    a0,
    paid: {
      nOpt: perf?.desiredNumberOfStakePools == null ? nOpt : Number(perf.desiredNumberOfStakePools),
      a0: ratio(perf?.stakePoolPledgeInfluence) ?? a0,
    },
    pot:
      lovelace(perf?.totalRewardsInEpoch) ??
      rewardPot(reserves, ratio(pp.monetaryExpansion), ratio(pp.treasuryExpansion)),
    circulation:
      lovelace(perf?.totalStakeInEpoch) ?? (reserves !== null && maxSupply !== null ? maxSupply - reserves : null),
    epochsPerYear: epochsPerYear(time.epochLength, time.slotLengthMs),
  };
}

/** Blocks per issuing pool in `epoch`, scanning the newest blocks down to the epoch's start. */
async function blocksInEpoch(store: Store, epoch: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const blocks = store.collection(BLOCKS);
  let after: { _id: string } | undefined;
  for (;;) {
    const page = await blocks.find('byHeight', { reverse: true, limit: 500, ...(after ? { after } : {}) });
    for (const b of page) {
      if (b.epoch < epoch) return out;
      if (b.epoch === epoch && b.poolId) out.set(b.poolId, (out.get(b.poolId) ?? 0) + 1);
    }
    if (page.length < 500) return out;
    after = page[page.length - 1];
  }
}

/** Stake credentials per rewardAccountSummaries request (a mainnet pool can have tens of thousands). */
export const REWARD_QUERY_BATCH = 1000;

/** A reading of reward balances: lovelace per stake address, and the ledger slot each was read at. */
export interface RewardReading {
  balances: Map<string, bigint>;
  /** Stake address → slot of the ledger tip its balance was read at; absent when the source gave no tip. */
  slots: Map<string, number>;
  /**
   * Stake address → the pool the ledger has the key delegate to at that slot (null: none). Empty when no answer
   * names a pool at all: a source that does not report delegations says nothing about any key.
   */
  delegations: Map<string, string | null>;
}

/** Slot of the ledger tip (queryLedgerState/tip); null at origin or when the source does not answer it. */
async function ledgerTipSlot(chain: ChainSource): Promise<number | null> {
  const tip = await ledgerTip(chain);
  return tip && tip !== 'origin' && Number.isSafeInteger(tip.slot) ? tip.slot : null;
}

/** Readings of one batch retried while a block arrives between the tips around it. */
const REWARD_READ_ATTEMPTS = 3;

/**
 * Unwithdrawn reward balance per stake address of `accounts`, from queryLedgerState/rewardAccountSummaries (rewards
 * are credited by the ledger at epoch boundaries and appear in no block, so only the ledger knows them). Queried by
 * credential in batches; null when the source does not answer the query. Each batch is read between two
 * queryLedgerState/tip answers: the same tip, it was read there (a block adopted meanwhile makes it read again);
 * still moving after the last attempt, the earlier tip is kept, so a withdrawal in a block adopted meanwhile is
 * taken off again rather than counted twice. The wallet takes off the withdrawals after that slot, not after the
 * run's end: a block dated before the run ended can still have been adopted after the reading.
 */
export async function rewardBalances(
  chain: ChainSource,
  accounts: readonly StakeAccountDoc[],
): Promise<RewardReading | null> {
  const byCred = { keys: new Map<string, string>(), scripts: new Map<string, string>() };
  for (const a of accounts) if (a.credential) (a.script ? byCred.scripts : byCred.keys).set(a.credential, a._id);
  const out: RewardReading = { balances: new Map(), slots: new Map(), delegations: new Map() };
  let namesPools = false;
  try {
    for (const kind of ['keys', 'scripts'] as const) {
      const creds = [...byCred[kind].keys()];
      for (let i = 0; i < creds.length; i += REWARD_QUERY_BATCH) {
        let rows: { from?: string; credential: string; rewards: unknown; stakePool?: { id?: unknown } }[] = [];
        let slot: number | null = null;
        for (let attempt = 1; attempt <= REWARD_READ_ATTEMPTS; attempt++) {
          const before = await ledgerTipSlot(chain);
          rows = await chain.query('queryLedgerState/rewardAccountSummaries', {
            [kind]: creds.slice(i, i + REWARD_QUERY_BATCH),
          });
          slot = before;
          if (before === null || before === (await ledgerTipSlot(chain))) break;
        }
        for (const r of rows) {
          if ((r.from === 'script') !== (kind === 'scripts')) continue;
          const id = byCred[kind].get(r.credential);
          if (id === undefined) continue;
          out.balances.set(id, lovelace(r.rewards) ?? 0n);
          if (slot !== null) out.slots.set(id, slot);
          const pool = typeof r.stakePool?.id === 'string' ? r.stakePool.id : null;
          out.delegations.set(id, pool);
          if (pool !== null) namesPools = true;
        }
      }
    }
    if (!namesPools) out.delegations.clear();
  } catch (e) {
    // A source that lost the connection mid-reading fails the run: null would replace every balance read before
    // with "unknown".
    if (isSourceDown(e)) throw e;
    return null;
  }
  return out;
}

/**
 * Each delegator's live stake as the ledger counts it: the lovelace of every address whose stake part is the key
 * (key or script payment part alike) plus its unwithdrawn rewards when `rewards` is known. Largest first.
 */
export async function delegatorsOf(
  store: Store,
  accounts: readonly StakeAccountDoc[],
  rewards: ReadonlyMap<string, bigint> | null,
): Promise<StakePoolDelegatorDoc[]> {
  const out: StakePoolDelegatorDoc[] = [];
  for (const a of accounts) {
    const addrs = await store.collection(ADDRESSES).find('byStake', { eq: [a._id] });
    const utxo = addrs.reduce((s, d) => s + BigInt(d.balance.lovelace), 0n);
    const reward = rewards ? (rewards.get(a._id) ?? 0n) : null;
    out.push({
      stakeAddress: a._id,
      stake: String(utxo + (reward ?? 0n)),
      utxoStake: String(utxo),
      rewards: reward === null ? null : String(reward),
    });
  }
  return out.sort((x, y) => {
    const d = BigInt(y.stake) - BigInt(x.stake);
    return d > 0n ? 1 : d < 0n ? -1 : x.stakeAddress < y.stakeAddress ? -1 : 1;
  });
}

/**
 * The owners' live stake as the ledger's pledge check counts it: Σ over the pool's delegators whose stake key is
 * one of the certificate's owners (an owner delegating elsewhere counts for nothing here). Null when the
 * parameters name no owner list (unknown, not empty: an empty list is 0).
 */
export function ownersLiveStake(
  params: Record<string, unknown>,
  accounts: readonly StakeAccountDoc[],
  delegators: readonly StakePoolDelegatorDoc[],
): bigint | null {
  if (!Array.isArray(params.owners)) return null;
  const owners = new Set(params.owners.map(String));
  const ownerAddresses = new Set(accounts.filter((a) => !a.script && owners.has(a.credential)).map((a) => a._id));
  return delegators.reduce((s, d) => (ownerAddresses.has(d.stakeAddress) ? s + BigInt(d.stake) : s), 0n);
}

/** A metadata document that failed (not verified) is fetched again after this long. */
export const METADATA_RETRY_MS = 3_600_000;
/** A document that could not be fetched at all is tried again after this long, doubling with each miss in a row. */
export const METADATA_UNREACHABLE_RETRY_MS = 300_000;

/**
 * How long a failed metadata document is kept before its URL is tried again. A fetch that failed (a timeout on a
 * busy machine or a slow host, a host briefly down) is tried again at the next runs: 5, 10, 20, 40 minutes, then
 * hourly, so a pool is not left nameless for an hour by one slow answer, while a host that stays down costs one
 * fetch an hour. Content that did not match its hash or parse is kept an hour (the operator must fix the host).
 */
export function metadataRetryMs(prev: Pick<StakePoolMetaDoc, 'verified' | 'unreachable'>): number {
  if (prev.verified !== null) return METADATA_RETRY_MS;
  const misses = Math.max(1, prev.unreachable ?? 1);
  return Math.min(METADATA_RETRY_MS, METADATA_UNREACHABLE_RETRY_MS * 2 ** (misses - 1));
}
/** Metadata fetches in flight at once. */
const METADATA_CONCURRENCY = 8;

async function poolMeta(
  params: Record<string, unknown>,
  prev: StakePoolMetaDoc | undefined,
  fetcher: MetadataFetcher | undefined,
  nowMs: number,
): Promise<StakePoolMetaDoc> {
  const md = params.metadata as { url?: unknown; hash?: unknown } | undefined;
  const url = typeof md?.url === 'string' ? md.url : null;
  const hash = typeof md?.hash === 'string' ? md.hash : null;
  const empty = { ticker: null, name: null, description: null, homepage: null, url, hash };
  if (!url || !hash) return { ...empty, verified: null, reason: 'no metadata registered', checkedAt: null };
  // The hash pins the content: a verified answer for the same hash and URL stays valid, no refetch (the cache by
  // hash). A failure is kept a while (metadataRetryMs), then the URL is tried again (the operator may fix the host).
  const same = prev && prev.hash === hash && prev.url === url && prev.checkedAt ? prev : null;
  if (same?.checkedAt) {
    if (same.verified === true) return same;
    if (nowMs - Date.parse(same.checkedAt) < metadataRetryMs(same)) return same;
  }
  if (!fetcher) return { ...empty, verified: null, reason: 'metadata not fetched on this deployment', checkedAt: null };
  const r = await fetchPoolMetadata(url, hash, fetcher);
  const checkedAt = new Date(nowMs).toISOString();
  if (r.verified === true) return { ...r.metadata, url, hash, verified: true, reason: null, checkedAt };
  const unreachable = r.verified === null ? (same?.verified === null ? (same.unreachable ?? 1) : 0) + 1 : undefined;
  return { ...empty, verified: r.verified, reason: r.reason, checkedAt, ...(unreachable ? { unreachable } : {}) };
}

/** Runs `f` over `items` with at most `limit` in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function createStakingActivities(deps: StakingDeps) {
  const { store, chain } = deps;
  const now = deps.now ?? Date.now;
  return {
    async recomputeStakePools(): Promise<{ pools: number; epoch: number }> {
      if (chain) await assertLedgerCaughtUp(chain, store, deps.ledgerWaitMs);
      // Asked before the pools, so the reading covers every block up to it. The registrations read below may go
      // further (the sync runs on, and the ledger may be up to LEDGER_LAG_TOLERANCE_SLOTS behind the index).
      const ledgerSlot = chain ? await ledgerTipSlot(chain) : null;
      const ledger = chain ? await readLedger(chain) : null;
      const regs = new Map<string, StakePoolRegDoc>();
      for await (const r of store.collection(STAKE_POOL_REGS).scan()) regs.set(r._id, r);
      // Whether the ledger holds the pool: listed, gone (retired), or null when unknown — no ledger, or a pool
      // registered (or registered again after retiring) in a block after the reading: new to it, not gone from it.
      const inLedger = (id: string): boolean | null => {
        if (!ledger) return null;
        if (ledger.pools.has(id)) return true;
        return ledgerSlot !== null && (regs.get(id)?.slot ?? -1) > ledgerSlot ? null : false;
      };
      const prevDocs = new Map<string, StakePoolDoc>();
      for await (const d of store.collection(STAKE_POOLS).scan()) prevDocs.set(d._id, d);
      let epoch = ledger?.epoch;
      if (epoch === undefined) {
        const [tip] = await store.collection(BLOCKS).find('byHeight', { reverse: true, limit: 1 });
        epoch = tip?.epoch ?? 0;
      }
      const blocksNow = await blocksInEpoch(store, epoch);
      const ids = [...new Set([...regs.keys(), ...(ledger?.pools.keys() ?? [])])].sort();

      // The registered stake keys, read once: each pool's delegators are among them, and every one's reward
      // balance is asked, not only the delegators': a key whose pool retired (or that never delegated after
      // re-registering) still has a reward account, and the explorer shows it (STAKE_REWARDS).
      const registered: StakeAccountDoc[] = [];
      const delegating = new Map<string, StakeAccountDoc[]>();
      for await (const a of store.collection(STAKE_ACCOUNTS).scan()) {
        if (!a.registered) continue;
        registered.push(a);
        if (!a.poolId) continue;
        const list = delegating.get(a.poolId);
        if (list) list.push(a);
        else delegating.set(a.poolId, [a]);
      }
      const reading = chain && ledger ? await rewardBalances(chain, registered) : null;
      const rewards = reading?.balances ?? null;
      // Whether the ledger still has `a` delegate to `pool`. The indexed account names the pool of its last
      // delegation certificate, but the ledger drops every delegation to a pool at its retirement boundary: a pool
      // that retired and registered again (as on mainnet) has none of its former delegators until they delegate
      // anew, though their accounts still name it. The reading says so for a key it read at or after the account's
      // last change; a key changed since (or not read) keeps what its certificates say.
      const stillDelegates = (a: StakeAccountDoc, pool: string): boolean => {
        const readAt = reading?.slots.get(a._id);
        if (!reading?.delegations.has(a._id) || readAt === undefined || a.slot > readAt) return true;
        return reading.delegations.get(a._id) === pool;
      };
      // Delegators per pool. A retired pool has none: the ledger drops delegations at the retirement boundary and
      // nobody can delegate to an unregistered pool (the indexed accounts still name it until they re-delegate).
      const accountsOf = new Map<string, StakeAccountDoc[]>();
      for (const id of ids) {
        const retired = poolStatus(regs.get(id)?.retiringEpoch ?? null, epoch, inLedger(id));
        const accounts = (delegating.get(id) ?? []).filter((a) => stillDelegates(a, id));
        accountsOf.set(id, retired === 'retired' ? [] : accounts);
      }

      // First pass: stakes (the saturation point needs the total).
      const rows = [];
      for (const id of ids) {
        const reg = regs.get(id);
        const ledgerPool = ledger?.pools.get(id);
        const params = reg && Object.keys(reg.params).length > 0 ? reg.params : (ledgerPool ?? {});
        const delegators = await delegatorsOf(store, accountsOf.get(id) ?? [], rewards);
        const utxoStake = delegators.reduce((s, d) => s + BigInt(d.utxoStake), 0n);
        const delegatorRewards = rewards ? delegators.reduce((s, d) => s + BigInt(d.rewards ?? 0), 0n) : null;
        const documented = utxoStake + (delegatorRewards ?? 0n);
        // Not in the reading: a pool it dropped has none; one too new for it has what its delegators hold.
        const live = ledgerPool ? (lovelace(ledgerPool.stake) ?? documented) : inLedger(id) === false ? 0n : documented;
        const ownerStake = ownersLiveStake(params, accountsOf.get(id) ?? [], delegators);
        rows.push({ id, reg, ledgerPool, params, delegators, utxoStake, delegatorRewards, live, ownerStake });
      }
      // The saturation point and σ are over the ledger's total stake (circulation), not over what is delegated;
      // Σ live stake stands in only when the source reports neither the reserves nor the epoch's reward figures.
      const totalStake = ledger?.circulation ?? rows.reduce((s, r) => s + r.live, 0n);
      const model: RewardModel = {
        pot: ledger?.pot ?? null,
        totalStake,
        nOpt: ledger?.nOpt ?? 0,
        a0: ledger?.a0 ?? 0,
        epochsPerYear: ledger?.epochsPerYear ?? 0,
      };
      const nowMs = now();
      const computedAt = new Date(nowMs).toISOString();
      const metas = await mapLimit(rows, METADATA_CONCURRENCY, (r) =>
        poolMeta(r.params, prevDocs.get(r.id)?.meta, deps.fetchMetadata, nowMs),
      );
      const docs: StakePoolDoc[] = [];
      for (const [i, r] of rows.entries()) {
        const p = r.params;
        const cost = lovelace(p.cost) ?? 0n;
        const margin = ratio(p.margin) ?? 0;
        const pledge = lovelace(p.pledge) ?? 0n;
        const status = poolStatus(r.reg?.retiringEpoch ?? null, epoch, inLedger(r.id));
        const perf = ledger?.performances.get(r.id);
        docs.push({
          _id: r.id,
          hash: poolHashFromId(r.id),
          meta: metas[i] as StakePoolMetaDoc,
          status,
          retiringEpoch: r.reg?.retiringEpoch ?? null,
          registeredSlot: r.reg?.registeredSlot ?? null,
          vrfKeyHash: typeof p.vrfVerificationKeyHash === 'string' ? p.vrfVerificationKeyHash : null,
          rewardAccount: typeof p.rewardAccount === 'string' ? p.rewardAccount : null,
          owners: Array.isArray(p.owners) ? p.owners.map(String) : [],
          relays: Array.isArray(p.relays) ? p.relays : [],
          cost: String(cost),
          pledge: String(pledge),
          margin,
          liveStake: String(r.live),
          delegatedUtxoStake: String(r.utxoStake),
          delegatorRewards: r.delegatorRewards === null ? null : String(r.delegatorRewards),
          activeStake: perf?.stake == null ? null : String(perf.stake),
          saturation: saturation(r.live, totalStake, model.nOpt),
          delegators: r.delegators.length,
          topDelegators: r.delegators.slice(0, TOP_DELEGATORS),
          blocksThisEpoch: blocksNow.get(r.id) ?? 0,
          blocksMinted: r.reg?.blocksMinted ?? 0,
          ownerStake: r.ownerStake === null ? null : String(r.ownerStake),
          estimatedRoa:
            status === 'retired'
              ? null
              : estimatedRoa({ stake: r.live, pledge, cost, margin, ownerStake: r.ownerStake }, model),
          realisedRoa:
            perf?.stake == null
              ? null
              : realisedRoa(
                  {
                    stake: perf.stake,
                    // The epoch's own terms: the certificate's may be an update registered since, not yet in force.
                    pledge: perf.pledge ?? pledge,
                    cost: perf.cost ?? cost,
                    margin: perf.margin ?? margin,
                    performance: perf.performance,
                    ownerStake: perf.ownerStake,
                  },
                  // Its nOpt and a0 too: a k changed at the boundary since would cap σ where that epoch did not.
                  { ...model, ...(ledger?.paid ?? {}) },
                ),
          epoch,
          rankStake: adaNumber(r.live),
          computedAt,
        });
      }

      await replaceAll(store, STAKE_POOLS, docs);
      // A run without the ledger's answer leaves no balances: an old one next to this run's time would look current.
      const balances: StakeRewardDoc[] = [...(rewards ?? [])].map(([_id, r]) => {
        const slot = reading?.slots.get(_id);
        return slot === undefined ? { _id, rewards: String(r) } : { _id, rewards: String(r), slot };
      });
      // An unchanged balance keeps the slot it was first read at: a withdrawal takes the whole balance, so none was
      // made since. Unless the account changed after that slot: a reading kept at the tip before it while the ledger
      // moved (rewardBalances) can already hold a withdrawal and the next boundary's credit; kept, the wallet would
      // take that withdrawal off the balance until the balance next changed (an epoch or more). A document without a
      // slot (written before it was kept) gets one.
      const accountSlot = new Map(registered.map((a) => [a._id, a.slot]));
      await replaceChanged(
        store,
        STAKE_REWARDS,
        balances,
        (prev, next) =>
          prev.rewards === next.rewards &&
          (prev.slot === undefined ? next.slot === undefined : (accountSlot.get(prev._id) ?? 0) <= prev.slot),
      );
      return { pools: docs.length, epoch };
    },
  };
}

export type StakingActivities = ReturnType<typeof createStakingActivities>;

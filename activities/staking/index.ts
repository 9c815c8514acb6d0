/**
 * Stake pool recompute, run every 5 minutes (temporal/schedules.ts `staking`):
 * - recomputeStakePools — reads stake_pool_regs, stake_accounts, addresses, blocks, the previous stake_pools (to
 *   reuse verified metadata whose hash did not change) and, through the chain source, the ledger state
 *   (queryLedgerState/epoch, stakePools with stake, protocolParameters, treasuryAndReserves when answered);
 *   writes stake_pools wholesale (idempotent; a failed run is simply repeated).
 * Without a chain source the live stake is the Σ of the delegators' address balances from the documents and the
 * epoch is that of the indexed tip block.
 */
import {
  ADDRESSES,
  BLOCKS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  type StakePoolRegDoc,
} from '../../mongo/collections/chain.js';
import {
  STAKE_POOLS,
  type StakePoolDelegatorDoc,
  type StakePoolDoc,
  type StakePoolMetaDoc,
} from '../../mongo/collections/staking.js';
import { replaceAll } from '../../mongo/replace-all.js';
import type { Store } from '../../mongo/store.js';
import { poolHashFromId } from '../../cardano/address.js';
import type { ChainSource } from '../chain/source.js';
import {
  adaNumber,
  epochsPerYear,
  estimatedRoa,
  lovelace,
  poolStatus,
  ratio,
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
}

/** Top delegators kept per pool (the detail's bounded list). */
export const TOP_DELEGATORS = 20;

interface LedgerView {
  epoch: number;
  /** pool id → its StakePool object (with `stake` when includeStake was honoured). */
  pools: Map<string, Record<string, unknown>>;
  nOpt: number;
  pot: bigint | null;
  epochsPerYear: number;
}

async function readLedger(chain: ChainSource): Promise<LedgerView> {
  const [epoch, pools, pp, time] = await Promise.all([
    chain.query<number | bigint>('queryLedgerState/epoch'),
    chain.query<Record<string, Record<string, unknown>>>('queryLedgerState/stakePools', { includeStake: true }),
    chain.query<Record<string, unknown>>('queryLedgerState/protocolParameters'),
    chain.networkTime(),
  ]);
  // Ogmios v6 names nOpt `desiredNumberOfStakePools`; older names are accepted too.
  const nOpt = Number(pp.desiredNumberOfStakePools ?? pp.stakePoolTargetNum ?? pp.nOpt ?? 0);
  let reserves: bigint | null = null;
  try {
    const tr = await chain.query<Record<string, unknown>>('queryLedgerState/treasuryAndReserves');
    reserves = lovelace(tr.reserves);
  } catch {
    // Not answered (the devnet): reserves stay null, so the reward pot is unknown and ROA estimates are null.
  }
  return {
    epoch: Number(epoch),
    pools: new Map(Object.entries(pools)),
    nOpt,
    pot: rewardPot(reserves, ratio(pp.monetaryExpansion), ratio(pp.treasuryExpansion)),
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

/** Σ lovelace of the addresses of each registered stake key delegating to `poolId`, largest first. */
export async function delegatorsOf(store: Store, poolId: string): Promise<StakePoolDelegatorDoc[]> {
  const accounts = await store.collection(STAKE_ACCOUNTS).find('byPool', { eq: [poolId] });
  const out: StakePoolDelegatorDoc[] = [];
  for (const a of accounts) {
    if (!a.registered) continue;
    const addrs = await store.collection(ADDRESSES).find('byStake', { eq: [a._id] });
    const stake = addrs.reduce((s, d) => s + BigInt(d.balance.lovelace), 0n);
    out.push({ stakeAddress: a._id, stake: String(stake) });
  }
  return out.sort((x, y) => {
    const d = BigInt(y.stake) - BigInt(x.stake);
    return d > 0n ? 1 : d < 0n ? -1 : x.stakeAddress < y.stakeAddress ? -1 : 1;
  });
}

async function poolMeta(
  params: Record<string, unknown>,
  prev: StakePoolMetaDoc | undefined,
  fetcher: MetadataFetcher | undefined,
): Promise<StakePoolMetaDoc> {
  const md = params.metadata as { url?: unknown; hash?: unknown } | undefined;
  const url = typeof md?.url === 'string' ? md.url : null;
  const hash = typeof md?.hash === 'string' ? md.hash : null;
  const empty = { ticker: null, name: null, description: null, homepage: null, url, hash };
  if (!url || !hash) return { ...empty, verified: null };
  // The hash pins the content: a verified answer for the same hash stays valid, no refetch.
  if (prev && prev.hash === hash && prev.url === url && prev.verified !== null) return prev;
  if (!fetcher) return { ...empty, verified: null };
  const r = await fetchPoolMetadata(url, hash, fetcher);
  return r.verified === true ? { ...r.metadata, url, hash, verified: true } : { ...empty, verified: r.verified };
}

export function createStakingActivities(deps: StakingDeps) {
  const { store, chain } = deps;
  const now = deps.now ?? Date.now;
  return {
    async recomputeStakePools(): Promise<{ pools: number; epoch: number }> {
      const ledger = chain ? await readLedger(chain) : null;
      const regs = new Map<string, StakePoolRegDoc>();
      for await (const r of store.collection(STAKE_POOL_REGS).scan()) regs.set(r._id, r);
      const prevDocs = new Map<string, StakePoolDoc>();
      for await (const d of store.collection(STAKE_POOLS).scan()) prevDocs.set(d._id, d);
      let epoch = ledger?.epoch;
      if (epoch === undefined) {
        const [tip] = await store.collection(BLOCKS).find('byHeight', { reverse: true, limit: 1 });
        epoch = tip?.epoch ?? 0;
      }
      const blocksNow = await blocksInEpoch(store, epoch);
      const ids = [...new Set([...regs.keys(), ...(ledger?.pools.keys() ?? [])])].sort();

      // First pass: stakes (the saturation point needs the total).
      const rows = [];
      for (const id of ids) {
        const reg = regs.get(id);
        const ledgerPool = ledger?.pools.get(id);
        const params = reg && Object.keys(reg.params).length > 0 ? reg.params : (ledgerPool ?? {});
        const delegators = await delegatorsOf(store, id);
        const utxoStake = delegators.reduce((s, d) => s + BigInt(d.stake), 0n);
        const live = ledgerPool ? (lovelace(ledgerPool.stake) ?? utxoStake) : ledger ? 0n : utxoStake;
        rows.push({ id, reg, ledgerPool, params, delegators, utxoStake, live });
      }
      const totalStake = rows.reduce((s, r) => s + r.live, 0n);
      const model: RewardModel = {
        pot: ledger?.pot ?? null,
        totalStake,
        nOpt: ledger?.nOpt ?? 0,
        epochsPerYear: ledger?.epochsPerYear ?? 0,
      };
      const computedAt = new Date(now()).toISOString();
      const docs: StakePoolDoc[] = [];
      for (const r of rows) {
        const p = r.params;
        const cost = lovelace(p.cost) ?? 0n;
        const margin = ratio(p.margin) ?? 0;
        const status = poolStatus(r.reg?.retiringEpoch ?? null, epoch, ledger ? r.ledgerPool !== undefined : null);
        docs.push({
          _id: r.id,
          hash: poolHashFromId(r.id),
          meta: await poolMeta(p, prevDocs.get(r.id)?.meta, deps.fetchMetadata),
          status,
          retiringEpoch: r.reg?.retiringEpoch ?? null,
          registeredSlot: r.reg?.registeredSlot ?? null,
          vrfKeyHash: typeof p.vrfVerificationKeyHash === 'string' ? p.vrfVerificationKeyHash : null,
          rewardAccount: typeof p.rewardAccount === 'string' ? p.rewardAccount : null,
          owners: Array.isArray(p.owners) ? p.owners.map(String) : [],
          relays: Array.isArray(p.relays) ? p.relays : [],
          cost: String(cost),
          pledge: String(lovelace(p.pledge) ?? 0n),
          margin,
          liveStake: String(r.live),
          delegatedUtxoStake: String(r.utxoStake),
          activeStake: null,
          saturation: saturation(r.live, totalStake, model.nOpt),
          delegators: r.delegators.length,
          topDelegators: r.delegators.slice(0, TOP_DELEGATORS),
          blocksThisEpoch: blocksNow.get(r.id) ?? 0,
          blocksMinted: r.reg?.blocksMinted ?? 0,
          estimatedRoa: status === 'retired' ? null : estimatedRoa({ stake: r.live, cost, margin }, model),
          realisedRoa: null,
          epoch,
          rankStake: adaNumber(r.live),
          computedAt,
        });
      }

      await replaceAll(store, STAKE_POOLS, docs);
      return { pools: docs.length, epoch };
    },
  };
}

export type StakingActivities = ReturnType<typeof createStakingActivities>;

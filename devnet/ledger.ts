/**
 * The devnet's ledger state after the last canonical block: the UTxO set (indexed by address), stake
 * registrations, delegations, reward balances and stake pools. Activity modules read it to decide what to do;
 * it changes only through `apply` (one built transaction) and `startEpoch` (epoch boundary: rewards,
 * retirements, stake snapshot). Fork blocks never touch it: they run on a `ForkView` overlay.
 */
import { parseAddress } from '../cardano/address.js';
import type { Val } from './value.js';
import {
  DESIRED_STAKE_POOLS,
  GENESIS_FUNDS,
  MAX_LOVELACE_SUPPLY,
  REWARD_PER_BLOCK,
  STAKE_POOL_DEPOSIT,
} from './params.js';
import { GovState, type GovCert, type ProposalDraft, type VoteDraft } from './governance.js';

export interface Utxo {
  txId: string;
  index: number;
  address: string;
  value: Val;
  /** Inline datum, CBOR hex. */
  datum?: string;
  /** Hash of a datum carried in the creating tx's witness set (jpg.store listings), hex. */
  datumHash?: string;
}
export const refKey = (txId: string, index: number) => `${txId}#${index}`;

/** Pool parameters as registered on chain (the body of a `stakePoolRegistration` certificate). */
export interface PoolParams {
  id: string;
  hash: string;
  vrfVerificationKeyHash: string;
  owners: string[];
  cost: bigint;
  margin: [number, number];
  pledge: bigint;
  rewardAccount: string;
  /** Stake credential of the reward account. */
  rewardCred: string;
  metadata: { url: string; hash: string };
  relays: ({ type: 'hostname'; hostname: string; port: number } | { type: 'ipAddress'; ipv4: string; port: number })[];
}

export type Cert =
  | { type: 'stakeCredentialRegistration'; cred: string; deposit: bigint }
  | { type: 'stakeDelegation'; cred: string; pool: string; poolHash: string }
  | { type: 'stakePoolRegistration'; pool: PoolParams; deposit: bigint }
  | { type: 'stakePoolRetirement'; pool: string; poolHash: string; epoch: number }
  | GovCert;

/** The state changes of one transaction (what a ledger applies; the Ogmios JSON is built beside it). */
export interface TxEffects {
  id: string;
  spent: Utxo[];
  created: Utxo[];
  certificates: Cert[];
  withdrawals: { cred: string; amount: bigint }[];
  /** Conway governance proposals (their ids are `${id}#${index}`) and votes (devnet/governance.ts). */
  proposals?: ProposalDraft[];
  votes?: VoteDraft[];
}

/** Where transactions find their inputs: the canonical ledger, or an overlay for fork blocks. */
export interface UtxoView {
  utxosAt(address: string): Iterable<Utxo>;
  coinAt(address: string): bigint;
  isUnspent(u: Utxo): boolean;
  apply(tx: TxEffects): void;
}

export interface PoolState {
  params: PoolParams;
  retiringEpoch: number | null;
}

/**
 * The reward computation of the last completed epoch, kept at its boundary: what
 * `queryLedgerState/stakePoolsPerformances` reports (devnet/queries.ts).
 */
export interface EpochRewards {
  /** Each pool's stake at the boundary, lovelace: the stake its delegators were paid pro rata to. */
  stakes: Map<string, bigint>;
  /** Stake of each pool's owners (the keys of its `owners` delegating to it), lovelace. */
  ownerStakes: Map<string, bigint>;
  blocks: Map<string, number>;
  totalBlocks: number;
  /** Max supply − reserves before the payout, lovelace (the ledger's "total stake" of the reward formula). */
  circulating: bigint;
  /**
   * Each pool's parameters at the boundary: the cost, margin and pledge the payout used. A re-registration after it
   * replaces the pool's current parameters, never these.
   */
  params: Map<string, PoolParams>;
}

export class Ledger implements UtxoView {
  readonly utxos = new Map<string, Utxo>();
  private readonly byAddress = new Map<string, Map<string, Utxo>>();
  private readonly coin = new Map<string, bigint>();
  /**
   * address → stake credential (hex; '' = none), seeded with the wallets' base addresses and filled on first sight
   * of any other address (stakeCredAt).
   */
  private readonly stakeCredOf: Map<string, string>;
  /** Lovelace held in UTxOs per stake credential (the "UTxO stake" of a delegator). */
  readonly utxoStake = new Map<string, bigint>();
  /** Registered stake credentials → reward balance (lovelace). */
  readonly rewards = new Map<string, bigint>();
  readonly delegations = new Map<string, string>();
  readonly pools = new Map<string, PoolState>();
  /** Blocks made per pool in the current epoch (the reward base at the next boundary). */
  readonly blocksThisEpoch = new Map<string, number>();
  epoch = 0;
  /** Stake per pool taken at the last epoch boundary: block issuers are drawn by it. */
  snapshot: { pool: string; stake: bigint }[] = [];
  /** Block rewards paid out of the reserves (pool deposit refunds excluded), lovelace: the queries' reserves. */
  rewardsFromReserves = 0n;
  lastRewards: EpochRewards | null = null;
  /** DReps, vote delegations, proposals and votes (devnet/governance.ts). */
  readonly gov = new GovState();

  constructor(stakeCredOf: Map<string, string>) {
    this.stakeCredOf = stakeCredOf;
  }

  *utxosAt(address: string): Iterable<Utxo> {
    const m = this.byAddress.get(address);
    if (m) yield* m.values();
  }
  coinAt(address: string): bigint {
    return this.coin.get(address) ?? 0n;
  }
  isUnspent(u: Utxo): boolean {
    return this.utxos.has(refKey(u.txId, u.index));
  }

  /**
   * The stake credential an output's lovelace counts for, as the ledger's stake distribution defines it: the stake
   * part of a base address, whatever its payment part (a DEX order at a script address with the trader's stake key
   * counts for the trader). Enterprise addresses have none; pointer addresses count for nothing since Conway.
   */
  private stakeCredAt(address: string): string | undefined {
    let cred = this.stakeCredOf.get(address);
    if (cred === undefined) {
      try {
        const p = parseAddress(address);
        cred = p.kind === 'base' ? (p.stakeCred ?? '') : '';
      } catch {
        cred = '';
      }
      this.stakeCredOf.set(address, cred);
    }
    return cred || undefined;
  }

  add(u: Utxo): void {
    const key = refKey(u.txId, u.index);
    this.utxos.set(key, u);
    let m = this.byAddress.get(u.address);
    if (!m) this.byAddress.set(u.address, (m = new Map()));
    m.set(key, u);
    this.coin.set(u.address, (this.coin.get(u.address) ?? 0n) + u.value.coin);
    const cred = this.stakeCredAt(u.address);
    if (cred) this.utxoStake.set(cred, (this.utxoStake.get(cred) ?? 0n) + u.value.coin);
  }

  private remove(u: Utxo): void {
    const key = refKey(u.txId, u.index);
    if (!this.utxos.delete(key)) throw new Error(`devnet ledger: ${key} is not unspent`);
    const m = this.byAddress.get(u.address);
    m?.delete(key);
    if (m && m.size === 0) this.byAddress.delete(u.address);
    this.coin.set(u.address, (this.coin.get(u.address) ?? 0n) - u.value.coin);
    const cred = this.stakeCredAt(u.address);
    if (cred) this.utxoStake.set(cred, (this.utxoStake.get(cred) ?? 0n) - u.value.coin);
  }

  apply(tx: TxEffects): void {
    for (const u of tx.spent) this.remove(u);
    for (const u of tx.created) this.add(u);
    for (const w of tx.withdrawals) {
      const r = this.rewards.get(w.cred);
      if (r === undefined || r < w.amount) throw new Error(`devnet ledger: withdrawal exceeds rewards of ${w.cred}`);
      this.rewards.set(w.cred, r - w.amount);
    }
    for (const c of tx.certificates) {
      switch (c.type) {
        case 'stakeCredentialRegistration':
          this.rewards.set(c.cred, 0n);
          break;
        case 'stakeDelegation':
          this.delegations.set(c.cred, c.pool);
          break;
        case 'stakePoolRegistration': {
          // A re-registration updates parameters (and cancels a pending retirement), as on mainnet.
          this.pools.set(c.pool.id, { params: c.pool, retiringEpoch: null });
          break;
        }
        case 'stakePoolRetirement': {
          const p = this.pools.get(c.pool);
          if (p) p.retiringEpoch = c.epoch;
          break;
        }
      }
    }
    this.gov.apply(tx, this.epoch);
  }

  /**
   * Lovelace left in the reserves: the max supply less what genesis put in circulation and the block rewards paid
   * since. The devnet's fees leave circulation and its treasury receives nothing (devnet/queries.ts).
   */
  reserves(): bigint {
    return MAX_LOVELACE_SUPPLY - GENESIS_FUNDS - this.rewardsFromReserves;
  }

  /** Live stake of a pool's delegators: UTxO stake plus unwithdrawn rewards (lovelace). */
  poolStakes(): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const id of this.pools.keys()) out.set(id, 0n);
    for (const [cred, pool] of this.delegations) {
      if (!out.has(pool)) continue;
      out.set(pool, (out.get(pool) as bigint) + (this.utxoStake.get(cred) ?? 0n) + (this.rewards.get(cred) ?? 0n));
    }
    return out;
  }

  /**
   * Epoch boundary (first block of `epoch`): pay the previous epoch's block rewards (operator cost + margin, the rest
   * pro rata to delegators' stake; nothing to a pool whose owners' stake fell below its pledge), retire pools whose
   * retirement epoch has come (deposit back to the reward account; their delegations lapse), then snapshot the stake
   * distribution for leader election.
   */
  startEpoch(epoch: number): void {
    this.epoch = epoch;
    const stakes = this.poolStakes();
    const delegatorsOf = new Map<string, string[]>();
    for (const [cred, pool] of this.delegations) {
      let list = delegatorsOf.get(pool);
      if (!list) delegatorsOf.set(pool, (list = []));
      list.push(cred);
    }
    const credit = (cred: string, amount: bigint, fromReserves = true) => {
      const r = this.rewards.get(cred);
      if (r === undefined || amount <= 0n) return;
      this.rewards.set(cred, r + amount);
      if (fromReserves) this.rewardsFromReserves += amount;
    };
    const circulating = MAX_LOVELACE_SUPPLY - this.reserves();
    const ownerStakes = new Map<string, bigint>();
    for (const [poolId, pool] of this.pools) {
      const owners = new Set(pool.params.owners);
      let own = 0n;
      for (const cred of delegatorsOf.get(poolId) ?? [])
        if (owners.has(cred)) own += (this.utxoStake.get(cred) ?? 0n) + (this.rewards.get(cred) ?? 0n);
      ownerStakes.set(poolId, own);
    }
    this.lastRewards = {
      stakes,
      ownerStakes,
      blocks: new Map(this.blocksThisEpoch),
      totalBlocks: [...this.blocksThisEpoch.values()].reduce((a, b) => a + b, 0),
      circulating,
      params: new Map([...this.pools].map(([id, p]) => [id, p.params])),
    };
    for (const [poolId, blocks] of this.blocksThisEpoch) {
      const pool = this.pools.get(poolId);
      if (!pool || blocks === 0) continue;
      // The Shelley pledge rule: a pool whose owners' delegated stake is below its pledge earns nothing that epoch,
      // neither its operator nor its delegators (what stakePoolsPerformances' ownerStake lets a reader tell).
      if ((ownerStakes.get(poolId) ?? 0n) < pool.params.pledge) continue;
      // A saturated pool (stake above circulation / k) earns as if it held just the saturation point: the
      // Shelley cap σ' = min(σ, 1/k) on REWARD_PER_BLOCK × blocks.
      const stakeK = (stakes.get(poolId) ?? 0n) * BigInt(DESIRED_STAKE_POOLS);
      const uncapped = REWARD_PER_BLOCK * BigInt(blocks);
      const total = stakeK > circulating ? (uncapped * circulating) / stakeK : uncapped;
      const cost = pool.params.cost < total ? pool.params.cost : total;
      const [n, d] = pool.params.margin;
      const operator = cost + ((total - cost) * BigInt(n)) / BigInt(d);
      credit(pool.params.rewardCred, operator);
      const rest = total - operator;
      const stake = stakes.get(poolId) ?? 0n;
      if (stake === 0n) continue;
      for (const cred of delegatorsOf.get(poolId) ?? []) {
        const own = (this.utxoStake.get(cred) ?? 0n) + (this.rewards.get(cred) ?? 0n);
        credit(cred, (rest * own) / stake);
      }
    }
    this.blocksThisEpoch.clear();
    for (const [id, p] of [...this.pools]) {
      if (p.retiringEpoch === null || p.retiringEpoch > epoch) continue;
      this.pools.delete(id);
      credit(p.params.rewardCred, STAKE_POOL_DEPOSIT, false);
      for (const cred of delegatorsOf.get(id) ?? []) this.delegations.delete(cred);
    }
    // Expired proposals leave the ledger; their deposits go back to the (registered) return accounts.
    for (const r of this.gov.startEpoch(epoch)) {
      const bal = this.rewards.get(r.cred);
      if (bal !== undefined) this.rewards.set(r.cred, bal + r.amount);
    }
    this.snapshot = [...this.poolStakes()].filter(([, s]) => s > 0n).map(([pool, stake]) => ({ pool, stake }));
  }
}

/** A fork block's view: reads the canonical UTxO set, records its own spends and outputs aside. */
export class ForkView implements UtxoView {
  private readonly spent = new Set<string>();
  private readonly created = new Map<string, Map<string, Utxo>>();
  private readonly coinDelta = new Map<string, bigint>();

  constructor(private readonly base: Ledger) {}

  *utxosAt(address: string): Iterable<Utxo> {
    for (const u of this.base.utxosAt(address)) if (!this.spent.has(refKey(u.txId, u.index))) yield u;
    const own = this.created.get(address);
    if (own) for (const u of own.values()) if (!this.spent.has(refKey(u.txId, u.index))) yield u;
  }
  coinAt(address: string): bigint {
    return this.base.coinAt(address) + (this.coinDelta.get(address) ?? 0n);
  }
  isUnspent(u: Utxo): boolean {
    const key = refKey(u.txId, u.index);
    if (this.spent.has(key)) return false;
    return this.base.utxos.has(key) || (this.created.get(u.address)?.has(key) ?? false);
  }
  apply(tx: TxEffects): void {
    for (const u of tx.spent) {
      this.spent.add(refKey(u.txId, u.index));
      this.coinDelta.set(u.address, (this.coinDelta.get(u.address) ?? 0n) - u.value.coin);
    }
    for (const u of tx.created) {
      let m = this.created.get(u.address);
      if (!m) this.created.set(u.address, (m = new Map()));
      m.set(refKey(u.txId, u.index), u);
      this.coinDelta.set(u.address, (this.coinDelta.get(u.address) ?? 0n) + u.value.coin);
    }
  }
}

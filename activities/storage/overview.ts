/**
 * The storage-network overview (GET /storage-network/overview) built from what the recompute read: the stake
 * outputs at the staking scripts (UTxO set), the IAG at the reward scripts, the sync's events, the market's token
 * stats and the holders' counts. Pure: every figure carries a one-line description of what it is, in the document.
 */
import type { HolderCountDoc } from '../../mongo/collections/holders.js';
import type { TokenStatsDoc } from '../../mongo/collections/market-read.js';
import type { TokenDoc } from '../../mongo/collections/market.js';
import type {
  Described,
  StorageActivityDoc,
  StorageEventDoc,
  StorageOverviewDoc,
} from '../../mongo/collections/storage.js';
import { STORAGE_OVERVIEW_ID } from '../../mongo/collections/storage.js';
import { scaleInteger } from '../../cardano/units.js';
import type { StakeDatum } from './datum.js';
import { IAG_DECIMALS, IAG_UNIT, storageMarket, type IagonScripts } from '../../cardano/iagon.js';

export { storageMarket };

/** One unspent output at a staking script: its IAG and its decoded datum (null: not an Iagon stake datum). */
export interface StakeOutput {
  iag: bigint;
  datum: StakeDatum | null;
}

export interface OverviewInputs {
  scripts: IagonScripts;
  stakeOutputs: readonly StakeOutput[];
  /** Σ IAG at the reward scripts' unspent outputs. */
  rewardPoolRaw: bigint;
  /** Reward claims of the last 24 h and 7 d (raw IAG summed, count). */
  claims24h: { raw: bigint; count: number };
  claims7d: { raw: bigint; count: number };
  recentEvents: readonly StorageEventDoc[];
  tokenStats: TokenStatsDoc | null;
  token: TokenDoc | null;
  holders: HolderCountDoc | null;
  computedAt: string;
  coverageFrom: string | null;
  slot: number | null;
  /** Set when the staking figures were not computed (the API before the first recompute): the reason given. */
  notComputed?: string;
}

const iag = (raw: bigint | string) => scaleInteger(raw, IAG_DECIMALS);
const d = <T>(value: T, description: string): Described<T> => ({ value, description });

export function activityOf(e: StorageEventDoc): StorageActivityDoc {
  return {
    kind: e.kind,
    time: e.time,
    txHash: e.txId,
    provider: e.provider,
    providerAddress: e.providerAddress,
    amount: iag(e.amountRaw),
    amountRaw: e.amountRaw,
    state: e.state,
  };
}

/**
 * The IAG market figures, from the token's stats document of the market recompute (every 20 s). The REST route
 * reads them afresh on every answer, so they follow that recompute rather than the storage one (every 60 s).
 */
export function buildStorageOverview(i: OverviewInputs): StorageOverviewDoc {
  const available = i.scripts.stake.length > 0 && !i.notComputed;
  const reason = available
    ? null
    : (i.notComputed ??
      'No Iagon staking script is configured: the mainnet script hashes of the (parameterised) staking and reward ' +
        'validators are not known. Set IAGON_STAKE_SCRIPTS (and IAGON_REWARD_SCRIPTS) to their payment script hashes.');

  let total = 0n;
  const active = { raw: 0n, positions: 0, providers: new Set<string>() };
  const retiring = { raw: 0n, positions: 0, providers: new Set<string>() };
  let unrecognised = 0;
  for (const o of i.stakeOutputs) {
    total += o.iag;
    if (!o.datum) {
      unrecognised++;
      continue;
    }
    const side = o.datum.state === 'active' ? active : retiring;
    side.raw += o.iag;
    side.positions++;
    side.providers.add(o.datum.providerKey);
  }
  const providers = new Set([...active.providers, ...retiring.providers]);
  const na = <T>(v: T): T | null => (available ? v : null);

  const market = storageMarket(i.tokenStats);

  const inOutputs = i.holders ? BigInt(i.holders.supplyRaw) : null;
  const locked = available ? total + i.rewardPoolRaw : 0n;
  const supply = {
    totalSupply: d(
      i.token ? iag(i.token.totalSupplyRaw) : null,
      i.token?.supplyFromMint === false
        ? 'IAG minted minus burned in the indexed range only (the minting predates it): a lower bound.'
        : 'IAG minted minus burned, as seen on chain.',
    ),
    onChainQuantity: d(
      inOutputs === null ? null : iag(inOutputs),
      'IAG held in unspent outputs of the indexed UTxO set (what the holders’ quantities sum to).',
    ),
    circulatingSupply: d(
      inOutputs === null ? null : iag(inOutputs - locked),
      available
        ? 'IAG in unspent outputs outside the staking and reward scripts.'
        : 'IAG in unspent outputs (the staking and reward scripts are not configured, so nothing is subtracted).',
    ),
    holders: d(
      i.holders?.count ?? null,
      'Distinct IAG holders (stake keys, or addresses without one) with a positive balance.',
    ),
  };

  const figures = {
    totalStaked: d(na(iag(total)), 'IAG in the unspent outputs at the staking scripts.'),
    stakeOutputs: d(na(i.stakeOutputs.length), 'Unspent outputs at the staking scripts.'),
    providers: d(na(providers.size), 'Distinct providerKey (provider payment key hash) over those outputs.'),
    activeProviders: d(na(active.providers.size), 'Providers with at least one Active stake output.'),
    activePositions: d(na(active.positions), 'Stake outputs in the Active state.'),
    activeStake: d(na(iag(active.raw)), 'IAG in Active stake outputs.'),
    retiringProviders: d(
      na(retiring.providers.size),
      'Providers with at least one Retiring stake output (withdrawal requested).',
    ),
    retiringPositions: d(na(retiring.positions), 'Stake outputs in the Retiring state.'),
    retiringStake: d(na(iag(retiring.raw)), 'IAG in Retiring stake outputs (withdrawable after their locked_until).'),
    unrecognisedOutputs: d(
      na(unrecognised),
      'Outputs at the staking scripts whose datum is not an Iagon stake datum (their IAG is in totalStaked only).',
    ),
    rewardPool: d(
      i.scripts.reward.length > 0 ? iag(i.rewardPoolRaw) : null,
      'IAG waiting in the unspent outputs at the reward scripts.',
    ),
    rewardsClaimed24h: d(
      i.scripts.reward.length > 0 ? iag(i.claims24h.raw) : null,
      'IAG claimed by providers from the reward scripts in the last 24 h.',
    ),
    rewardClaims24h: d(i.scripts.reward.length > 0 ? i.claims24h.count : null, 'Reward claims in the last 24 h.'),
    rewardsClaimed7d: d(
      i.scripts.reward.length > 0 ? iag(i.claims7d.raw) : null,
      'IAG claimed by providers from the reward scripts in the last 7 days (since coverageFrom when later).',
    ),
    rewardClaims7d: d(i.scripts.reward.length > 0 ? i.claims7d.count : null, 'Reward claims in the last 7 days.'),
  };

  return {
    _id: STORAGE_OVERVIEW_ID,
    network: 'iagon',
    token: { unit: IAG_UNIT, ticker: 'IAG', decimals: IAG_DECIMALS },
    market,
    supply,
    staking: {
      available,
      reason,
      stakeScripts: [...i.scripts.stake],
      rewardScripts: [...i.scripts.reward],
      figures,
    },
    recentActivity: i.recentEvents.map(activityOf),
    computedAt: i.computedAt,
    coverageFrom: i.coverageFrom,
    slot: i.slot,
  };
}

/** Stake pool documents → REST bodies (whole ADA beside exact lovelace; fractions as stored). */
import type { StakePoolDoc } from '../../mongo/collections/staking.js';
import { lovelaceToAda, lovelaceToAdaOrNull } from '../../cardano/units.js';

export function presentStakePoolRow(d: StakePoolDoc) {
  return {
    id: d._id,
    ticker: d.meta.ticker,
    name: d.meta.name,
    status: d.status,
    liveStake: lovelaceToAda(d.liveStake),
    liveStakeLovelace: d.liveStake,
    saturation: d.saturation,
    margin: d.margin,
    fixedCost: lovelaceToAda(d.cost),
    fixedCostLovelace: d.cost,
    pledge: lovelaceToAda(d.pledge),
    pledgeLovelace: d.pledge,
    delegators: d.delegators,
    blocksThisEpoch: d.blocksThisEpoch,
    roa: d.estimatedRoa,
  };
}

export function presentStakePool(d: StakePoolDoc) {
  return {
    ...presentStakePoolRow(d),
    hash: d.hash,
    retiringEpoch: d.retiringEpoch,
    activeStake: lovelaceToAdaOrNull(d.activeStake),
    activeStakeLovelace: d.activeStake,
    ownerStake: lovelaceToAdaOrNull(d.ownerStake),
    ownerStakeLovelace: d.ownerStake ?? null,
    pledgeMet: d.ownerStake == null ? null : BigInt(d.ownerStake) >= BigInt(d.pledge),
    vrfKeyHash: d.vrfKeyHash,
    rewardAccount: d.rewardAccount,
    owners: d.owners,
    relays: d.relays,
    metadata: {
      url: d.meta.url,
      hash: d.meta.hash,
      verified: d.meta.verified,
      reason: d.meta.reason ?? null,
      ticker: d.meta.ticker,
      name: d.meta.name,
      description: d.meta.description,
      homepage: d.meta.homepage,
    },
    performance: {
      blocksThisEpoch: d.blocksThisEpoch,
      blocksMinted: d.blocksMinted,
      estimatedRoa: d.estimatedRoa,
      realisedRoa: d.realisedRoa,
    },
    delegatorsSummary: {
      count: d.delegators,
      delegatedStake: lovelaceToAda(d.delegatedUtxoStake),
      delegatedStakeLovelace: d.delegatedUtxoStake,
      delegatedRewards: lovelaceToAdaOrNull(d.delegatorRewards),
      delegatedRewardsLovelace: d.delegatorRewards ?? null,
      top: d.topDelegators.map((t) => ({
        stakeAddress: t.stakeAddress,
        stake: lovelaceToAda(t.stake),
        stakeLovelace: t.stake,
      })),
    },
    epoch: d.epoch,
    computedAt: d.computedAt,
  };
}

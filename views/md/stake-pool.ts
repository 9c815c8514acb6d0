/** /api/md/stake-pool/{poolId}: one stake pool. */
import { text, head, join, links, md, num, rest, table, utc } from './format.js';
import type { StakePool, ViewContext } from './types.js';

/** A REST fraction (saturation 0.8, margin 0.02, returns) as percent. */
const asPct = (f: number | null) => (f === null ? '—' : (f * 100).toFixed(2));

/**
 * The status with its retirement epoch: a retirement certificate names the epoch at whose first block the pool stops
 * (retiringEpoch), so a retired pool has been so since that epoch and a retiring one stops when it starts.
 */
function status(p: StakePool): string {
  if (p.retiringEpoch === null) return p.status;
  if (p.status === 'retired') return `retired (since epoch ${p.retiringEpoch})`;
  return `${p.status} (retires at the start of epoch ${p.retiringEpoch})`;
}

/**
 * The owners' stake beside the pledge: below it the ledger pays the pool and its delegators nothing. A retired pool
 * earns nothing whatever its owners hold (the ledger dropped its delegations at its retirement epoch, so their stake
 * reads 0): "below the pledge … while it stays so" would say meeting the pledge again could change that.
 */
function pledgeLine(p: StakePool): string {
  if (p.ownerStake == null) return '—';
  if (p.status === 'retired') return `${num(p.ownerStake, 0)} (retired: the pool earns nothing)`;
  const met = p.pledgeMet === false ? 'below the pledge: no rewards while it stays so' : 'pledge met';
  return `${num(p.ownerStake, 0)} (${met})`;
}

/**
 * Whether the metadata document matched its registered hash. One not checked says why, as REST's `metadata.reason`
 * does (no document registered, or its fetch failed and is tried again later): a pool shown without its name and
 * ticker otherwise gave the reader no reason.
 */
function metadataCell(m: StakePool['metadata']): string {
  if (m.verified === true) return 'yes';
  if (m.verified === false) return `no (${text(m.reason ?? 'unknown')})`;
  return m.reason === null ? '—' : `not checked (${text(m.reason)})`;
}

export function renderStakePool(ctx: ViewContext, p: StakePool): string {
  const name = p.ticker ? `[${text(p.ticker)}] ${text(p.name ?? '')}`.trim() : text(p.name ?? p.id);
  return join(
    head(ctx, `Stake pool ${name}`, p.metadata.description === null ? undefined : text(p.metadata.description)),
    table(
      ['Field', 'Value'],
      [
        ['Pool id', `\`${p.id}\``],
        ['Status', status(p)],
        ['Live stake (ADA)', num(p.liveStake, 0)],
        ['Active stake (ADA)', num(p.activeStake, 0)],
        ['Saturation (%)', asPct(p.saturation)],
        ['Margin (%)', asPct(p.margin)],
        ['Fixed cost (ADA per epoch)', num(p.fixedCost)],
        ['Pledge (ADA)', num(p.pledge, 0)],
        ["Owners' live stake (ADA)", pledgeLine(p)],
        ['Delegators', num(p.delegators, 0)],
        // REST's blocksMinted counts the blocks of the indexed history: with a sync from a later start point, not
        // the pool's lifetime total.
        [
          `Blocks in epoch ${p.epoch} / minted in the indexed history`,
          `${num(p.blocksThisEpoch, 0)} / ${num(p.performance.blocksMinted, 0)}`,
        ],
        ['Indexed history since (UTC)', utc(p.coverageFrom)],
        ['Estimated yearly return (%)', asPct(p.performance.estimatedRoa ?? p.roa)],
        ['Realised yearly return, last epoch (%)', asPct(p.performance.realisedRoa)],
        ['Homepage', p.metadata.homepage === null ? '—' : text(p.metadata.homepage)],
        ['Metadata verified against its hash', metadataCell(p.metadata)],
        ['Computed (UTC)', utc(p.computedAt)],
      ],
    ),
    links([
      ['REST: stake pool (JSON)', rest(ctx, `/staking/pools/${p.id}`)],
      ['REST: all stake pools', rest(ctx, '/staking/pools')],
      ...(p.rewardAccount
        ? ([['Reward account (explorer)', rest(ctx, `/explorer/address/${p.rewardAccount}`)]] as [string, string][])
        : []),
      ['Dashboard', md(ctx, '/dashboard')],
    ]),
  );
}

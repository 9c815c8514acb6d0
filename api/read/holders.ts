/**
 * Read functions of holders (REST, MCP and Markdown present their results).
 */
import { shareOf } from '../../cardano/holders.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { tokenMetadata } from '../../cardano/token-metadata.js';
import { scaleInteger } from '../../cardano/units.js';
import { HOLDER_COUNTS, firstHolderSeriesDay, topHolderQuantities } from '../../mongo/collections/holders.js';
import { TOKENS, TOKEN_META } from '../../mongo/collections/market.js';
import { NotFoundError } from '../errors.js';
import { HOLDERS_LIMIT } from '../schemas/holders.js';
import type { holderRoutes } from '../routes/holders.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notFoundWhileBehind, withAsOf } from './freshness.js';
/**
 * The holder count, token and registry documents of a unit; 404 unless one exists (no output of the token was ever
 * indexed, no DEX pool of it is known and the registry does not name it). The holders series follows the same rule.
 * A token nobody holds any more (all of it burned) has no holder count document, but its outputs were indexed: its
 * holders series has points (down to 0), so it is known, with no holders.
 */
export async function holderTokenOr404(deps: Pick<ReadDeps, 'store' | 'now'>, unit: string) {
  const { store } = deps;
  const [count, token, meta] = await Promise.all([
    store.collection(HOLDER_COUNTS).get(unit),
    store.collection(TOKENS).get(unit),
    store.collection(TOKEN_META).get(unit),
  ]);
  // Its first output may be in a block not indexed yet (a first sync, a resync): the 404 says so while behind.
  if (!count && !token && !meta && (await firstHolderSeriesDay(store, unit)) === null)
    throw new NotFoundError(await notFoundWhileBehind(deps, `token ${unit}`, `token ${unit} not found`));
  return { count, token, meta };
}

async function getTokenHoldersAnswer(deps: ReadDeps, input: RouteInput<typeof holderRoutes.holders>) {
  const { store } = deps;
  const unit = input.unit.toLowerCase();
  const [{ count, token, meta }, { clock, checkpoint }] = await Promise.all([
    holderTokenOr404(deps, unit),
    storeClock(store),
  ]);
  const decimals = tokenMetadata(unit, meta, token).decimals;
  const docs = count ? await topHolderQuantities(store, unit, HOLDERS_LIMIT) : [];
  const supply = BigInt(count?.supplyRaw ?? '0');
  return {
    items: docs.map((d) => ({
      address: d.holder,
      quantity: scaleInteger(d.quantityRaw, decimals),
      quantityRaw: d.quantityRaw,
      share: shareOf(BigInt(d.quantityRaw), supply),
    })),
    total: count?.count ?? 0,
    partial: false,
    fetchedAt: checkpoint ? clock.iso(checkpoint.slot) : null,
    onChainQuantity: scaleInteger(supply, decimals),
    onChainQuantityRaw: supply.toString(),
  };
}

export const getTokenHolders = withAsOf(getTokenHoldersAnswer);

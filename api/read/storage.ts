/**
 * Read functions of storage (REST, MCP and Markdown present their results).
 */
import { IAG_UNIT, storageMarket } from '../../cardano/iagon.js';
import { NotReadyError } from '../errors.js';
import { TOKEN_STATS } from '../../mongo/collections/index.js';
import { STORAGE_OVERVIEW, STORAGE_OVERVIEW_ID } from '../../mongo/collections/storage.js';
import type { storageRoutes } from '../routes/storage.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { withAsOf } from './freshness.js';
async function getStorageNetworkOverviewAnswer(deps: ReadDeps, _input: RouteInput<typeof storageRoutes.overview>) {
  const { store } = deps;
  const [stored, stats] = await Promise.all([
    store.collection(STORAGE_OVERVIEW).get(STORAGE_OVERVIEW_ID),
    store.collection(TOKEN_STATS).get(IAG_UNIT),
  ]);
  if (!stored)
    throw new NotReadyError(
      'the storage-network overview is not computed yet (its recompute runs every 60 s); retry shortly',
      60,
    );
  const { _id, ...body } = stored;
  void _id;
  return { ...body, market: storageMarket(stats) };
}

export const getStorageNetworkOverview = withAsOf(getStorageNetworkOverviewAnswer);

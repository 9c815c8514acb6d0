import type { CheckpointDoc } from '../../mongo/collections/sync-state.js';

/** A sync checkpoint at `height` (block id `id`, 20 slots a block): what the caches key an answer by. */
export const checkpoint = (height: number, id: string): CheckpointDoc => ({
  _id: 'sync',
  slot: height * 20,
  id,
  height,
  points: [],
  tip: null,
  updatedAt: new Date(0).toISOString(),
});

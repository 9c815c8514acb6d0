/** Names shared by the worker, the client side (schedules, ops) and the embedded runner. */
import type { Config } from '../config/index.js';

/** The task queue every workflow and activity of this service runs on (TEMPORAL_TASK_QUEUE). */
export const taskQueue = (config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>): string => config.TEMPORAL_TASK_QUEUE;

/** The chain follower: one execution at a time, under this fixed id (a second start is refused by Temporal). */
export const SYNC_WORKFLOW_ID = 'sync-chain';

/** Workflow id of a recompute job's runs (Temporal Schedules append the fire time to it). */
export const recomputeWorkflowId = (job: string): string => `recompute:${job}`;

/**
 * What `npm start` / the worker start the sync with: 1000 slices per run keeps a Temporal history at ~3000 events,
 * well under the 50k limit; 5 s at the tip lets one slice pick up the next block (~20 s apart on mainnet) without
 * a busy loop.
 */
export const SYNC_SLICES_PER_RUN = 1000;
export const SYNC_TIP_WAIT_MS = 5_000;

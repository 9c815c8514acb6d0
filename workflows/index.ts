/**
 * The Temporal workflow entry, bundled by the worker (temporal/bundle.ts). Each export is one workflow type, named
 * as in workflows/registry.ts; it builds the body's context from `@temporalio/workflow` and runs the same body the
 * embedded runner runs. Inside the sandbox `Date.now()` is the workflow task's time, so `ctx.now()` is replay-safe.
 */
import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { WorkflowContext } from './context.js';
import { WORKFLOWS, type WorkflowEntry } from './registry.js';
import { toTemporalActivityOptions } from './temporal-options.js';

function temporalWorkflow<A extends object, I, R>(entry: WorkflowEntry<A, I, R>): (input: I) => Promise<R> {
  return (input: I) => {
    const ctx: WorkflowContext<A> = {
      activities: proxyActivities<A>(toTemporalActivityOptions(entry.activityOptions)) as A,
      sleep: (ms) => sleep(ms),
      now: () => Date.now(),
      // continueAsNew takes the current workflow type's arguments; every body has exactly one input.
      continueAsNew: (next) => continueAsNew<(input: unknown) => Promise<R>>(next),
    };
    return entry.body(ctx, input);
  };
}

export const syncChain = temporalWorkflow(WORKFLOWS.syncChain);
export const recomputeMarket = temporalWorkflow(WORKFLOWS.recomputeMarket);
export const recomputeStaking = temporalWorkflow(WORKFLOWS.recomputeStaking);
export const recomputeGovernance = temporalWorkflow(WORKFLOWS.recomputeGovernance);
export const recomputeHolders = temporalWorkflow(WORKFLOWS.recomputeHolders);
export const recomputeNft = temporalWorkflow(WORKFLOWS.recomputeNft);
export const recomputeStorage = temporalWorkflow(WORKFLOWS.recomputeStorage);
export const recomputeSearch = temporalWorkflow(WORKFLOWS.recomputeSearch);
export const recomputeSafety = temporalWorkflow(WORKFLOWS.recomputeSafety);
export const ingestNews = temporalWorkflow(WORKFLOWS.ingestNews);

/**
 * The `triggerRecomputes` activity of the sync workflow (workflows/sync-chain.ts), one per engine: after a rollback
 * deeper than a few blocks, every recompute reading chain data (workflows/registry.ts `recomputesReadingChain`)
 * starts now instead of at its next interval. A run already in progress started on the abandoned chain, so the job
 * runs once more after it (embedded: the runner's rerun; Temporal: overlap BUFFER_ONE).
 */
import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { recomputesReadingChain } from '../workflows/registry.js';
import type { TriggerActivities } from '../workflows/sync-chain.js';
import type { Runner } from './runner.js';
import type { ScheduleSpec } from './schedules.js';

type Log = { info(o: object, msg: string): void; warn(o: object, msg: string): void };

/** Embedded: the runner is created after the activities, hence the getter. */
export function embeddedTriggers(runner: () => Runner | null, log?: Log): TriggerActivities {
  return {
    async triggerRecomputes({ reason }) {
      const triggered = runner()?.fireWorkflows(recomputesReadingChain()) ?? [];
      log?.info({ reason, triggered }, 'recomputes reading chain data triggered');
      return { triggered };
    },
  };
}

/** Temporal: trigger each job's Schedule (created by `npm run schedules:apply` under the job id). */
export function temporalTriggers(client: Client, schedules: readonly ScheduleSpec[], log?: Log): TriggerActivities {
  return {
    async triggerRecomputes({ reason }) {
      const workflows = new Set(recomputesReadingChain());
      const triggered: string[] = [];
      for (const s of schedules.filter((x) => workflows.has(x.workflow))) {
        try {
          await client.schedule.getHandle(s.id).trigger(ScheduleOverlapPolicy.BUFFER_ONE);
          triggered.push(s.id);
        } catch (e) {
          // A job without a schedule (schedules:apply not run yet) runs at its next start; the others still fire.
          log?.warn({ err: e, schedule: s.id }, 'could not trigger schedule');
        }
      }
      log?.info({ reason, triggered }, 'recomputes reading chain data triggered');
      return { triggered };
    },
  };
}

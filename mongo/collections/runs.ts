/**
 * Workflow runs recorded by the embedded runner (and mirrored for Temporal by the ops command), so a failed run
 * is visible (`npm run ops -- runs --failed`) and can be retried (`ops -- retry <run>`).
 */
import { defineCollection } from '../store.js';

/** `cancelled`: the process stopped (a shutdown) while the run was going; not a failure of the job itself. */
export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface RunDoc {
  /** `${workflowId}:${startedAt ms}`. */
  _id: string;
  workflow: string;
  workflowId: string;
  input: unknown;
  status: RunStatus;
  attempts: number;
  error: string | null;
  result: unknown;
  /** Run this one retries, if any. */
  retryOf: string | null;
  requestedBy: 'schedule' | 'start' | 'operator';
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** continueAsNew restarts of the body within this run (embedded runner; Temporal starts a new run id instead). */
  continuations?: number;
}
export const RUNS = defineCollection<RunDoc>({
  name: 'runs',
  indexes: [
    { name: 'byStatus', fields: ['status', 'queuedAt'] },
    { name: 'byWorkflow', fields: ['workflow', 'queuedAt'] },
    { name: 'byQueued', fields: ['queuedAt'] },
  ],
});

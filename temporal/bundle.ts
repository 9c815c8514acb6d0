/**
 * The one set of bundling options for the workflow code, used by the worker and by the bundle and replay tests, so
 * the tests replay exactly what production runs.
 */
import { fileURLToPath } from 'node:url';
import {
  bundleWorkflowCode,
  type BundleOptions,
  type Logger,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';

/** Absolute path of the workflow entry (workflows/index.ts). */
export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface BundleArgs {
  /** Default: workflows/index.ts. Tests pass a variant entry for negative replay controls. */
  workflowsPath?: string;
  /** Webpack progress output (default: the SDK's console logger). */
  logger?: Logger;
}

export function workflowBundleOptions({ workflowsPath = WORKFLOWS_PATH, logger }: BundleArgs = {}): BundleOptions {
  return {
    workflowsPath,
    ...(logger ? { logger } : {}),
    // The workflow modules import each other NodeNext-style (`./context.js` naming `context.ts`). Temporal's
    // webpack config already maps `.js` to `.ts` (1.24); set again so a future default change cannot break it.
    webpackConfigHook: (config) => ({
      ...config,
      resolve: { ...config.resolve, extensionAlias: { ...config.resolve?.extensionAlias, '.js': ['.ts', '.js'] } },
    }),
  };
}

export function bundleWorkflows(args?: BundleArgs): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode(workflowBundleOptions(args));
}

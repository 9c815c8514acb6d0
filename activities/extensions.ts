/**
 * The sync extensions every deployment runs, in order, after the core documents of each block. One list for the
 * embedded runner (`npm start`) and the Temporal worker, so both index the same documents.
 */
import { createHoldersExtension } from './holders/extension.js';
import { createMarketExtension } from './market/index.js';
import type { SyncExtension } from './sync/extension.js';

export function defaultExtensions(): SyncExtension[] {
  return [createMarketExtension(), createHoldersExtension()];
}

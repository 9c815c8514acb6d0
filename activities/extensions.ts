/**
 * The sync extensions every deployment runs, in order, after the core documents of each block. One list for the
 * embedded runner (`npm start`) and the Temporal worker, so both index the same documents.
 */
import { createGovernanceExtension } from './governance/extension.js';
import { createHandlesExtension } from './handles/extension.js';
import { createHoldersExtension } from './holders/extension.js';
import { createMarketExtension } from './market/index.js';
import { createNftExtension } from './nft/extension.js';
import type { SyncExtension } from './sync/extension.js';
import { createStorageExtension } from './storage/extension.js';
import type { IagonScripts } from '../cardano/iagon.js';

/** `iagon`: the Iagon staking/reward scripts to follow (cardano/iagon.ts); none = that extension is inert. */
export function defaultExtensions(opts: { iagon?: IagonScripts } = {}): SyncExtension[] {
  return [
    createMarketExtension(),
    createHoldersExtension(),
    createHandlesExtension(),
    createNftExtension(),
    createStorageExtension(opts.iagon),
    createGovernanceExtension(),
  ];
}

/**
 * The policy-scripts sync extension: for every transaction that mints or burns, records the minting policy's
 * script from the transaction's witnesses (`policy_scripts`), so the token safety assessment can tell whether a
 * policy can still mint (activities/safety/assess.ts). Through the SliceState, so rollbacks restore it exactly.
 * Failed transactions (collateral spent) mint nothing and are skipped.
 */
import { POLICY_SCRIPTS, type PolicyScriptDoc } from '../../mongo/collections/search.js';
import type { SyncExtension } from '../sync/extension.js';

interface WitnessScript {
  language?: string;
  json?: unknown;
}

export function createPolicyScriptsExtension(): SyncExtension {
  return {
    name: 'policy-scripts',
    collections: [POLICY_SCRIPTS],
    async applyBlock(state, { block }) {
      const txs = (block.transactions ?? []).filter((tx) => tx.spends !== 'collaterals' && tx.mint);
      if (!txs.length) return;
      await state.prefetch(
        POLICY_SCRIPTS,
        txs.flatMap((tx) => Object.keys(tx.mint ?? {})),
      );
      for (const tx of txs) {
        for (const policy of Object.keys(tx.mint ?? {})) {
          const prior = state.get(POLICY_SCRIPTS, policy);
          const w = (tx.scripts?.[policy] ?? null) as WitnessScript | null;
          const language = w?.language ?? prior?.language ?? 'unknown';
          const doc: PolicyScriptDoc = {
            _id: policy,
            language,
            script:
              w && language === 'native' && w.json !== undefined ? JSON.stringify(w.json) : (prior?.script ?? null),
            lastMintSlot: block.slot as number,
            mints: (prior?.mints ?? 0) + 1,
          };
          state.put(POLICY_SCRIPTS, doc);
        }
      }
    },
  };
}

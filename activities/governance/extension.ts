/**
 * The governance sync extension: per block, every Conway proposal procedure (governance_chain_proposals, keyed
 * `txId#index`) and every voter's latest vote on each proposal (governance_chain_votes; a re-vote replaces the
 * document, as the ledger replaces the vote). Written through the SliceState, so a RollBackward restores both
 * exactly from the core's undo journal — a rolled-back vote brings the voter's earlier vote back — with no
 * rollback code here. Deterministic: the block alone decides every write.
 *
 * Why: the ledger query `governanceProposals` lists live proposals only, so a proposal submitted and gone while
 * no recompute ran would be unknown, and so would the votes on it. The governance recompute merges these
 * documents (activities/governance/index.ts).
 */
import {
  GOVERNANCE_CHAIN_PROPOSALS,
  GOVERNANCE_CHAIN_VOTES,
  GOVERNANCE_SYNC_COLLECTIONS,
} from '../../mongo/collections/governance.js';
import type { SyncExtension } from '../sync/extension.js';
import { blockGovernance } from './chain.js';

export function createGovernanceExtension(): SyncExtension {
  return {
    name: 'governance',
    collections: GOVERNANCE_SYNC_COLLECTIONS,
    async applyBlock(state, { block, timeMs }, ctx) {
      const slot = block.slot ?? 0;
      const at = { slot, height: block.height, time: new Date(timeMs).toISOString(), epoch: ctx.epochOf(slot) };
      const { proposals, votes } = blockGovernance(block, at);
      if (proposals.length === 0 && votes.length === 0) return;
      // Blind puts: a proposal id is unique on chain, and a later vote of the same voter replaces the earlier
      // one. The SliceState still records each document's prior value for the undo journal.
      await Promise.all([
        state.prefetch(
          GOVERNANCE_CHAIN_PROPOSALS,
          proposals.map((p) => p._id),
        ),
        state.prefetch(
          GOVERNANCE_CHAIN_VOTES,
          votes.map((v) => v._id),
        ),
      ]);
      for (const p of proposals) state.put(GOVERNANCE_CHAIN_PROPOSALS, p);
      for (const v of votes) state.put(GOVERNANCE_CHAIN_VOTES, v);
    },
  };
}

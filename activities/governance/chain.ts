/**
 * Pure extraction of Conway governance from a block (Ogmios v6 transaction fields `proposals` and `votes`): the
 * proposal procedures and votes of each valid transaction, as documents of mongo/collections/governance.ts.
 *
 * A proposal procedure is `{deposit, returnAccount, metadata, action}`; its governance action id is the
 * transaction id and its position in `proposals`. A vote is `{proposal: {transaction: {id}, index}, issuer: {role,
 * from?, id}, vote, metadata?}`. Pre-Conway blocks also use `proposals` for protocol-parameter update proposals
 * and MIR-like transfers (no deposit, no return account); those are not governance actions and are skipped.
 * Transactions whose scripts failed (`spends: 'collaterals'`) take no governance effect and are skipped too.
 */
import { proposalKey } from '../../cardano/governance-ids.js';
import type { GovChainProposalDoc, GovChainVoteDoc } from '../../mongo/collections/governance.js';
import type { Block } from '../../cardano/chain/types.js';
import { toPlain } from '../sync/values.js';
import { lovelace } from '../staking/compute.js';
import { anchorOf, parseVote, requestedWithdrawals, voterId } from './compute.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Where the block sits: slot, height, ISO time and epoch (what every document of the block records). */
export interface BlockPlace {
  slot: number;
  height: number;
  time: string;
  epoch: number;
}

/** One proposal procedure of transaction `txId` at `index`; null for pre-Conway update proposals and junk. */
export function proposalOrigin(txId: string, index: number, raw: unknown, at: BlockPlace): GovChainProposalDoc | null {
  if (!isObj(raw) || !isObj(raw.action) || typeof raw.returnAccount !== 'string') return null;
  const deposit = lovelace(raw.deposit);
  if (deposit === null) return null;
  const action = toPlain(raw.action) as Obj;
  const req = requestedWithdrawals(raw.action);
  return {
    _id: proposalKey({ txId, index }),
    txId,
    index,
    ...at,
    deposit: String(deposit),
    returnAccount: raw.returnAccount,
    anchor: anchorOf(raw.metadata),
    type: String(action.type),
    requestedLovelace: req.total === null ? null : String(req.total),
    withdrawals: req.withdrawals,
    action,
  };
}

/** One vote of transaction `txId`; null when the proposal reference, issuer or choice is malformed. */
export function voteEvent(txId: string, raw: unknown, at: BlockPlace): GovChainVoteDoc | null {
  if (!isObj(raw) || !isObj(raw.proposal) || !isObj(raw.proposal.transaction)) return null;
  const pTx = raw.proposal.transaction.id;
  const pIndex = raw.proposal.index;
  if (typeof pTx !== 'string' || typeof pIndex !== 'number') return null;
  const v = parseVote(raw);
  if (!v) return null;
  const proposalId = proposalKey({ txId: pTx, index: pIndex });
  const id = voterId(v);
  return {
    _id: `${proposalId}|${v.role}|${id}`,
    proposalId,
    role: v.role,
    voterId: id,
    vote: v.vote,
    anchor: v.anchor,
    txId,
    ...at,
  };
}

/**
 * Every proposal and vote of the block, in chain order (transaction order, then order within the transaction):
 * applying the votes in this order leaves each voter's last vote, as the ledger keeps it.
 */
export function blockGovernance(
  block: Block,
  at: BlockPlace,
): { proposals: GovChainProposalDoc[]; votes: GovChainVoteDoc[] } {
  const proposals: GovChainProposalDoc[] = [];
  const votes: GovChainVoteDoc[] = [];
  for (const tx of block.transactions ?? []) {
    if (tx.spends === 'collaterals') continue;
    (tx.proposals ?? []).forEach((p, index) => {
      const doc = proposalOrigin(tx.id, index, p, at);
      if (doc) proposals.push(doc);
    });
    for (const v of tx.votes ?? []) {
      const doc = voteEvent(tx.id, v, at);
      if (doc) votes.push(doc);
    }
  }
  return { proposals, votes };
}

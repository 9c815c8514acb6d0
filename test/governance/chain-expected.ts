/**
 * What the devnet's canonical blocks carried for governance, read straight from the Ogmios JSON (independently of
 * the extension's parser): the expectation of the governance tests.
 */
import { parseOgmiosJson } from '../../activities/chain/json.js';
import type { Block } from '../../cardano/chain/types.js';
import { lovelace } from '../../activities/staking/compute.js';
import { drepBech32 } from '../../cardano/governance-ids.js';
import type { Devnet } from '../../devnet/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Ogmios JSON

/** The canonical blocks of the devnet, parsed as the sync receives them. */
export function canonicalBlocks(devnet: Devnet): Block[] {
  const out: Block[] = [];
  for (const e of devnet.events())
    if (e.kind === 'forward' && e.canonical) out.push(parseOgmiosJson(devnet.blockJson(e)) as Block);
  return out;
}

export interface Expected {
  proposals: Map<string, { type: string; deposit: bigint; requested: bigint | null; slot: number }>;
  /** proposal id → voter id → last vote. */
  votes: Map<string, Map<string, string>>;
}

/** What the blocks carried, read straight from the Ogmios JSON (independently of the extension's parser). */
export function expectedFrom(blocks: readonly Block[]): Expected {
  const proposals: Expected['proposals'] = new Map();
  const votes: Expected['votes'] = new Map();
  for (const block of blocks)
    for (const tx of block.transactions ?? []) {
      (tx.proposals as Json[] | undefined)?.forEach((p, index) => {
        const w = p.action.withdrawals as Record<string, unknown> | undefined;
        proposals.set(`${tx.id}#${index}`, {
          type: p.action.type,
          deposit: lovelace(p.deposit) ?? -1n,
          requested: w ? Object.values(w).reduce<bigint>((s, x) => s + (lovelace(x) ?? 0n), 0n) : null,
          slot: block.slot ?? -1,
        });
      });
      for (const v of (tx.votes as Json[] | undefined) ?? []) {
        const pid = `${v.proposal.transaction.id}#${v.proposal.index}`;
        if (!votes.has(pid)) votes.set(pid, new Map());
        const voter =
          v.issuer.role === 'stakePoolOperator' ? v.issuer.id : drepBech32({ hash: v.issuer.id, script: false });
        votes.get(pid)!.set(voter, v.vote);
      }
    }
  return { proposals, votes };
}

/**
 * Vote shares of one Conway voting body (DReps or stake pools), from the voting power (lovelace) behind each
 * stand. Every share is over one base, named by `shareBase`: the body's whole counted voting power, yes + no +
 * abstain + not voted, so yesPct + noPct + abstainPct + notVotedPct ≤ 100 (each truncated to 4 decimals).
 * `ratificationYesPct` is the ledger's own ratio, yes / (yes + no + not voted) (abstentions excluded): the figure a
 * ratification threshold is compared with.
 */
export const SHARE_BASE = 'yes+no+abstain+notVoted';

/** Percent of `base` to 4 decimals (exact integer arithmetic, truncated); null when base is 0. */
export function percent(part: bigint, base: bigint): number | null {
  if (base <= 0n) return null;
  return Number((part * 1_000_000n) / base) / 10_000;
}

export interface VoteShares {
  base: bigint;
  shareBase: typeof SHARE_BASE;
  yesPct: number | null;
  noPct: number | null;
  abstainPct: number | null;
  notVotedPct: number | null;
  ratificationYesPct: number | null;
}

export function voteShares(yes: bigint, no: bigint, abstain: bigint, notVoted: bigint): VoteShares {
  const base = yes + no + abstain + notVoted;
  return {
    base,
    shareBase: SHARE_BASE,
    yesPct: percent(yes, base),
    noPct: percent(no, base),
    abstainPct: percent(abstain, base),
    notVotedPct: percent(notVoted, base),
    ratificationYesPct: percent(yes, yes + no + notVoted),
  };
}

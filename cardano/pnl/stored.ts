/**
 * FIFO state (fifo.ts) ↔ its stored form (mongo/collections/pnl.ts WalletLotsDoc): bigints as decimal strings.
 * Pure. Token decimals are not stored: they are off-chain metadata applied when the state is valued. The series
 * is not part of the wallet's document: its points are documents of their own (mongo/collections/pnl.ts), so a
 * state read back from a document starts with an empty series, and a trade's new point is what `applyFifoTrade`
 * leaves in it.
 */
import type { StoredTokenLots, WalletLotsDoc } from '../../mongo/collections/pnl.js';
import type { FifoState, TokenState } from './fifo.js';

export function fifoOfDoc(d: WalletLotsDoc | null): FifoState {
  return {
    tokens: (d?.tokens ?? []).map(tokenOfStored),
    buyCount: d?.buyCount ?? 0,
    sellCount: d?.sellCount ?? 0,
    unmatchedSells: d?.unmatchedSells ?? 0,
    realisedLovelace: BigInt(d?.realisedLovelace ?? '0'),
    series: [],
  };
}

export function docOfFifo(id: string, s: FifoState, skipped: WalletLotsDoc['skipped'], slot: number): WalletLotsDoc {
  return {
    _id: id,
    tokens: s.tokens.map(storedOfToken),
    buyCount: s.buyCount,
    sellCount: s.sellCount,
    unmatchedSells: s.unmatchedSells,
    realisedLovelace: String(s.realisedLovelace),
    skipped: { ...skipped },
    slot,
  };
}

function tokenOfStored(t: StoredTokenLots): TokenState {
  return {
    unit: t.unit,
    decimals: 0,
    lots: t.lots.map((l) => ({
      tokenRaw: BigInt(l.tokenRaw),
      costLovelace: BigInt(l.costLovelace),
      costUsd: l.costUsd,
      consumedRaw: BigInt(l.consumedRaw),
      chargedLovelace: BigInt(l.chargedLovelace),
    })),
    buys: t.buys,
    sells: t.sells,
    volumeLovelace: BigInt(t.volumeLovelace),
    boughtRaw: BigInt(t.boughtRaw),
    soldRaw: BigInt(t.soldRaw),
    realisedLovelace: BigInt(t.realisedLovelace),
    realisedUsd: t.realisedUsd,
    usdKnown: t.usdKnown,
    unmatchedRaw: BigInt(t.unmatchedRaw),
    unmatchedLovelace: BigInt(t.unmatchedLovelace),
    closed: t.closed,
    wins: t.wins,
  };
}

function storedOfToken(t: TokenState): StoredTokenLots {
  return {
    unit: t.unit,
    lots: t.lots.map((l) => ({
      tokenRaw: String(l.tokenRaw),
      costLovelace: String(l.costLovelace),
      costUsd: l.costUsd,
      consumedRaw: String(l.consumedRaw),
      chargedLovelace: String(l.chargedLovelace),
    })),
    buys: t.buys,
    sells: t.sells,
    volumeLovelace: String(t.volumeLovelace),
    boughtRaw: String(t.boughtRaw),
    soldRaw: String(t.soldRaw),
    realisedLovelace: String(t.realisedLovelace),
    realisedUsd: t.realisedUsd,
    usdKnown: t.usdKnown,
    unmatchedRaw: String(t.unmatchedRaw),
    unmatchedLovelace: String(t.unmatchedLovelace),
    closed: t.closed,
    wins: t.wins,
  };
}

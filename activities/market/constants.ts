/**
 * Fixed on-chain facts the market extension relies on: the USD stablecoins whose ADA pools define the `adausd`
 * series, and the CIP-67 labels that tie a CIP-68 fungible token to its metadata reference NFT.
 */
import type { Unit } from '../../cardano/dex/types.js';

/**
 * USD stablecoins (policy ‖ asset name hex), all with 6 decimals (reference/dex-nft-handles.md §6.1 and
 * registry/mappings/). The `adausd` candles are in stablecoin base units per lovelace, which is why every entry
 * must have the same decimals: the read side turns them into USD per ADA as `price × 10^6 / 10^6`.
 */
export const ADA_USD_STABLECOINS: readonly Unit[] = [
  'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d', // USDM (CIP-68 333, fiat-backed)
  '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344', // DJED ("DjedMicroUSD")
  'f66d78b4a3cb3d37afa0ec36461e51ecbde00f26c8f0a68f94b6988069555344', // iUSD (Indigo)
];

/** CIP-67 asset-name label prefixes (4 bytes: 0, label, crc8, 0). */
export const CIP67_REFERENCE = '000643b0'; // (100) reference NFT holding the metadata datum
export const CIP67_FT = '0014df10'; // (333) fungible token

/** Integer-id counters in COUNTERS. */
export const POOL_COUNTER = 'pools';
export const TRADE_COUNTER = 'trades';
/** Chain-order positions of trade events (placed, executed, cancelled): TradeDoc.seq. */
export const TRADE_SEQ_COUNTER = 'trade-seq';

/** The `adausd` candle series (stablecoin base units per lovelace). */
export const ADA_USD_SERIES = 'adausd';

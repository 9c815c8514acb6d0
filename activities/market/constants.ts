/**
 * Fixed on-chain facts the market extension relies on: the CIP-67 labels that tie a CIP-68 fungible token to its
 * metadata reference NFT, the id counters and the `adausd` series name (USD per ADA by the rate-now estimator over
 * the USD stablecoins' ADA pools: mongo/collections/ada-usd.ts).
 */

export { CIP67_FT, CIP67_REFERENCE } from '../../cardano/units.js';

/** Integer-id counters in COUNTERS. */
export const POOL_COUNTER = 'pools';
export const TRADE_COUNTER = 'trades';
/** Chain-order positions of trade events (placed, executed, cancelled): TradeDoc.seq. */
export const TRADE_SEQ_COUNTER = 'trade-seq';

/** The `adausd` candle series: USD per ADA (stablecoin base units per lovelace), the estimator of adaUsdFromPools. */
export const ADA_USD_SERIES = 'adausd';

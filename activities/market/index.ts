/**
 * The market sync extension: turns each block into DEX pools, pool states, trades, candles and token documents
 * (mongo/collections/market.ts), inside the sync slice. Everything is written through the SliceState, so a
 * RollBackward restores these documents exactly from the core's undo journal; the extension has no rollback code.
 *
 * Reads only the block, the UTxOs it consumed (`spent`, with datums) and the market documents it prefetches.
 */
import { MARKET_SYNC_COLLECTIONS } from '../../mongo/collections/market.js';
import { DEX_ADAPTERS } from '../../cardano/dex/index.js';
import type { DexAdapter } from '../../cardano/dex/types.js';
import type { SyncExtension } from '../sync/extension.js';
import { applyMarketBlock } from './apply.js';
import { DexLookup, scanBlock } from './scan.js';

export interface MarketExtensionOptions {
  /** DEX adapters to read (default: every adapter of activities/dex). */
  adapters?: readonly DexAdapter[];
}

/** What the extension reads and writes (besides the block and its `spent` outputs, which the core provides). */
export const MARKET_EXTENSION_READS_WRITES = {
  reads: [
    'counters',
    'pool_keys',
    'pools',
    'trades',
    'order_trades',
    'candles',
    'tokens',
    'wallet_lots',
    'ada_usd_now',
  ],
  writes: [
    'counters',
    'pool_keys',
    'pools',
    'pool_states',
    'trades',
    'order_trades',
    'candles',
    'tokens',
    'wallet_lots',
    'wallet_pnl_points',
    'ada_usd_now',
  ],
} as const;

export function createMarketExtension(opts: MarketExtensionOptions = {}): SyncExtension {
  const dex = new DexLookup(opts.adapters ?? DEX_ADAPTERS);
  return {
    name: 'market',
    collections: MARKET_SYNC_COLLECTIONS,
    async applyBlock(state, { block, timeMs, spent }) {
      const scans = scanBlock(block, spent, dex);
      await applyMarketBlock(state, scans, block.slot ?? 0, timeMs);
    },
  };
}

export { ADA_USD_SERIES, CIP67_FT, CIP67_REFERENCE } from './constants.js';
export { decodeCip68Metadata, ftUnitOfReference, isFungibleMint, type Cip68Metadata } from './cip68.js';
export { addPoint, bucketOf, candleIdsOf, INTERVALS, type CandlePoint } from './candles.js';
export { candleId, poolKeyId, poolSeries, poolStateId, tokenSeries, tradeId } from './ids.js';
export { poolView, primaryPool, type PoolView } from './pools.js';
export { priceOfReserves } from '../../cardano/market.js';
export { txOutputOfUtxo, spentResolver } from './utxo-output.js';

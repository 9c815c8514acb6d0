/** Document ids of the market collections (mongo/collections/market.ts), zero-padded so `_id` order is time/id order. */

export const poolKeyId = (dex: string, identifier: string): string => `${dex}:${identifier}`;

export const poolStateId = (poolId: number, slot: number, txId: string): string =>
  `${String(poolId).padStart(10, '0')}|${String(slot).padStart(12, '0')}|${txId}`;

export const tradeId = (id: number): string => String(id).padStart(12, '0');

/** The candle id lives with the candle reads that scan its `_id` ranges. */
export { candleId } from '../../mongo/collections/market.js';

export const poolSeries = (poolId: number): string => `pool:${poolId}`;
export const tokenSeries = (unit: string): string => `token:${unit}`;

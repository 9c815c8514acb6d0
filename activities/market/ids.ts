/** Document ids of the market collections (mongo/collections/market.ts), zero-padded so `_id` order is time/id order. */
import type { CandleInterval } from '../../mongo/collections/market.js';

export const poolKeyId = (dex: string, identifier: string): string => `${dex}:${identifier}`;

export const poolStateId = (poolId: number, slot: number, txId: string): string =>
  `${String(poolId).padStart(10, '0')}|${String(slot).padStart(12, '0')}|${txId}`;

export const tradeId = (id: number): string => String(id).padStart(12, '0');

export const candleId = (series: string, interval: CandleInterval, timeSec: number): string =>
  `${series}|${interval}|${String(timeSec).padStart(12, '0')}`;

export const poolSeries = (poolId: number): string => `pool:${poolId}`;
export const tokenSeries = (unit: string): string => `token:${unit}`;

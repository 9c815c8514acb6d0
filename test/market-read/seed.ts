/**
 * Market documents for the read-side tests, written through the Store as the market sync would keep them
 * (mongo/collections/market.ts): raw integers, raw prices (lovelace per token base unit), slots. The clock is the
 * checkpoint's block: slot TIP_SLOT is NOW_MS, one slot per second.
 */
import type { TxOutput } from '../../cardano/chain/types.js';
import type { DexAdapter, PoolState } from '../../cardano/dex/types.js';
import { ALL_COLLECTIONS, BLOCKS, CHECKPOINTS } from '../../mongo/collections/index.js';
import { MARKET_READ_COLLECTIONS, type TokenStatsDoc, type WindowStats } from '../../mongo/collections/market-read.js';
import {
  CANDLES,
  LOGOS,
  MARKET_SYNC_COLLECTIONS,
  POOLS,
  TOKENS,
  TOKEN_META,
  TRADES,
  type CandleDoc,
  type CandleInterval,
  type PoolDoc,
  type TokenDoc,
  type TradeDoc,
} from '../../mongo/collections/market.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';

export const NOW_MS = Date.UTC(2025, 5, 1, 12, 0, 0);
export const NOW_SEC = NOW_MS / 1000;
export const TIP_SLOT = 157_000_000;
export const TIP_HEIGHT = 11_500_000;
export const slotAt = (secondsAgo: number) => TIP_SLOT - secondsAgo;
export const MIN = 60;
export const HOUR = 3600;
export const DAY = 86_400;

export const USDM = 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d';

/** A unit under a made-up policy with a readable asset name. */
export const unitOf = (policyByte: string, name: string) =>
  policyByte.repeat(28) + Buffer.from(name, 'utf8').toString('hex');

export async function prepare(store: Store): Promise<void> {
  await store.ensureIndexes([
    ...ALL_COLLECTIONS,
    ...MARKET_SYNC_COLLECTIONS,
    ...MARKET_READ_COLLECTIONS,
    TOKEN_META,
    LOGOS,
  ]);
}

/**
 * The checkpoint at TIP_SLOT (block time NOW) with the chain tip `lag` slots and 2 blocks ahead; with `later`
 * seconds, at a block that many seconds (slots) after it instead, one block higher (the chain went on, with no trade).
 */
export function checkpointOps(lag = 40, later = 0): WriteOp[] {
  const id = later === 0 ? 'ab'.repeat(32) : later.toString(16).padStart(64, 'a');
  const slot = TIP_SLOT + later;
  const height = TIP_HEIGHT + (later === 0 ? 0 : 1);
  const tip = { slot, id, height };
  return [
    put(BLOCKS, {
      _id: id,
      height,
      slot,
      time: new Date(NOW_MS + later * 1000).toISOString(),
      epoch: 560,
      era: 'conway',
      prevHash: 'cd'.repeat(32),
      size: 1000,
      txCount: 0,
      fees: '0',
      totalOutput: '0',
      issuerVkey: null,
      poolId: null,
      protocolVersion: '10.0',
      txIds: [],
    }),
    put(CHECKPOINTS, {
      _id: 'sync',
      ...tip,
      points: [tip],
      tip: { slot: slot + lag, id: 'ef'.repeat(32), height: height + 2 },
      updatedAt: new Date(NOW_MS + later * 1000).toISOString(),
    }),
  ];
}

export function pool(p: Partial<PoolDoc> & Pick<PoolDoc, 'id' | 'tokenB' | 'reserveARaw' | 'reserveBRaw'>): PoolDoc {
  const tokenA = p.tokenA ?? 'lovelace';
  const ada = tokenA === 'lovelace';
  return {
    _id: String(p.id),
    dex: 'minswap-v2',
    identifier: `pool${p.id}`,
    address: 'addr1z8snz7c4974vzdpxu65ruphl3zjdvtxw8strf2c2tmqnxz2j2c79gy9l76sdg0xwhd7r0c0kna0tycz4y5s6mlenh8pq0xmsha',
    tokenA,
    lpToken: null,
    totalLpRaw: null,
    feeAToB: 0.003,
    feeBToA: 0.003,
    utxo: `${'11'.repeat(32)}#${p.id}`,
    createdSlot: slotAt(30 * DAY),
    createdExact: true,
    lastStateSlot: slotAt(MIN),
    priceRaw: Number(p.reserveARaw) / Number(p.reserveBRaw),
    tvlLovelace: ada ? String(2n * BigInt(p.reserveARaw)) : null,
    slot: slotAt(MIN),
    ...p,
  };
}

/** A PoolDoc for a real pool output decoded by its adapter (reserves, fee fractions and the output itself). */
export function poolFromOutput<X>(
  id: number,
  adapter: DexAdapter<X>,
  output: TxOutput,
): { doc: PoolDoc; state: PoolState<X> } {
  const state = adapter.decodePool(output);
  if (!state) throw new Error(`output is not a ${adapter.name} pool`);
  const value: Record<string, string> = { lovelace: String(output.value.ada.lovelace) };
  for (const [policy, names] of Object.entries(output.value))
    if (policy !== 'ada') for (const [name, q] of Object.entries(names)) value[policy + name] = String(q);
  const frac = (n: bigint) => Number(n) / Number(state.fee.denominator);
  return {
    state,
    doc: pool({
      id,
      dex: adapter.name,
      identifier: state.poolId,
      address: output.address,
      tokenA: state.tokenA,
      tokenB: state.tokenB,
      reserveARaw: String(state.reserveA),
      reserveBRaw: String(state.reserveB),
      feeAToB: frac(state.fee.aToB),
      feeBToA: frac(state.fee.bToA),
      poolOutput: { value, datum: output.datum ?? null },
    }),
  };
}

export function token(unit: string, t: Partial<TokenDoc> = {}): TokenDoc {
  return {
    _id: unit,
    policyId: unit.slice(0, 56),
    nameHex: unit.slice(56),
    cip68: null,
    totalSupplyRaw: '0',
    poolIds: [],
    primaryPoolId: null,
    firstPoolSlot: slotAt(30 * DAY),
    firstPoolExact: true,
    slot: slotAt(30 * DAY),
    ...t,
  };
}

export const meta = (unit: string, ticker: string, decimals: number, hasLogo = false) =>
  put(TOKEN_META, {
    _id: unit,
    name: `${ticker} token`,
    ticker,
    decimals,
    description: `About ${ticker}`,
    url: null,
    hasLogo,
  });

let nextTradeId = 1;
export function trade(t: Partial<TradeDoc> & Pick<TradeDoc, 'token' | 'slot'>): TradeDoc {
  const id = t.id ?? nextTradeId++;
  const side = t.side ?? 'buy';
  return {
    _id: String(id).padStart(12, '0'),
    id,
    poolId: 1,
    dex: 'minswap-v2',
    txHash: id.toString(16).padStart(64, '0'),
    orderRef: null,
    status: 'complete',
    side,
    tokenIn: side === 'buy' ? 'lovelace' : t.token,
    tokenOut: side === 'buy' ? t.token : 'lovelace',
    amountInRaw: '1000000',
    amountOutRaw: '1000',
    priceRaw: 5,
    valueLovelace: '1000000',
    maker: 'stake1u8maker',
    makerAddress: 'addr1q8maker',
    // Hand-built trades are in chain order by slot, then id (the seq the sync would have given them).
    seq: t.slot * 1000 + id,
    ...t,
  };
}

export function candle(
  series: string,
  interval: CandleInterval,
  time: number,
  close: number,
  c: Partial<CandleDoc> = {},
): CandleDoc {
  return {
    _id: `${series}|${interval}|${String(time).padStart(12, '0')}`,
    series,
    interval,
    time,
    open: close,
    high: close,
    low: close,
    close,
    volumeLovelace: '0',
    volumeTokenRaw: '0',
    trades: 0,
    ...c,
  };
}

export const putAll = {
  pools: (docs: PoolDoc[]) => docs.map((d) => put(POOLS, d)),
  tokens: (docs: TokenDoc[]) => docs.map((d) => put(TOKENS, d)),
  trades: (docs: TradeDoc[]) => docs.map((d) => put(TRADES, d)),
  candles: (docs: CandleDoc[]) => docs.map((d) => put(CANDLES, d)),
};

const window = (w: Partial<WindowStats> = {}): WindowStats => ({
  volume: 0,
  txns: 0,
  buys: 0,
  sells: 0,
  change: null,
  changeUsd: null,
  ...w,
});

/** Hand-built token stats (every field a ranking reads), for the ranking tests. */
export function stats(
  unit: string,
  s: Partial<TokenStatsDoc> & { w24?: Partial<WindowStats>; w1h?: Partial<WindowStats> } = {},
): TokenStatsDoc {
  const { w24, w1h, ...rest } = s;
  const base: TokenStatsDoc = {
    _id: unit,
    priceAda: null,
    priceUsd: null,
    liquidityAda: null,
    liquidityUsd: null,
    volume24h: w24?.volume ?? 0,
    volume7d: 0,
    change1h: null,
    change24h: w24?.change ?? null,
    change7d: null,
    change1hUsd: null,
    change24hUsd: w24?.changeUsd ?? null,
    change7dUsd: null,
    txns24h: w24?.txns ?? 0,
    buys24h: 0,
    sells24h: 0,
    makers24h: 0,
    mcapAda: null,
    mcapUsd: null,
    fdvUsd: null,
    holders: null,
    totalSupply: null,
    circulatingSupply: null,
    pools: 1,
    firstPoolTime: null,
    firstPoolExact: false,
    updatedAt: new Date(NOW_MS).toISOString(),
    windows: { '5m': window(), '1h': window(w1h), '6h': window(), '24h': window(w24), '7d': window() },
    primaryPoolId: null,
    fdvAda: null,
    holdersCapped: false,
    search: unit,
  };
  return { ...base, ...rest };
}

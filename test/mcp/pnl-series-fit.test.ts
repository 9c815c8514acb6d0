/**
 * get_wallet_pnl for a wallet with a long history: a bot that closed a position every 30 s for a day has 2,880
 * points in its cumulative realised PnL series, more than a tool result may hold (~80,000 characters, api/mcp/fit.ts).
 * The series runs oldest first, so what a cut keeps must be its end: the latest points, the last of which is the
 * wallet's realisedAda. The wallet's document and points are written here by hand (a round trip realising exactly
 * 1 ADA per close, so point i is worth i ADA); the REST route of the same wallet answers the whole series.
 */
import assert from 'node:assert/strict';
import { enterpriseAddress } from '../../cardano/address.js';
import { RESULT_MAX_CHARS } from '../../api/mcp/fit.js';
import { ADDRESSES } from '../../mongo/collections/chain.js';
import { pnlPointDocs, WALLET_LOTS, WALLET_PNL_POINTS, type WalletLotsDoc } from '../../mongo/collections/pnl.js';
import { put, type Store } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { NOW_MS, checkpointOps, prepare, slotAt, unitOf } from '../market-read/seed.js';
import { callTool2026 } from './call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results

const BOT = enterpriseAddress('mainnet', '7a'.repeat(28));
const TOKEN = unitOf('d5', 'BOTT');
const CLOSES = 2_880;
/** Unix seconds of close i (0-based): every 30 s, the last one 30 s before the indexed tip. */
const closeTime = (i: number) => NOW_MS / 1000 - 30 * (CLOSES - i);

/** Each round trip: 100 tokens bought for 10 ADA, sold for 11 ADA: +1 ADA realised, nothing left open. */
const lots: WalletLotsDoc = {
  _id: BOT,
  tokens: [
    {
      unit: TOKEN,
      lots: [],
      buys: CLOSES,
      sells: CLOSES,
      volumeLovelace: String(21_000_000n * BigInt(CLOSES)),
      boughtRaw: String(100 * CLOSES),
      soldRaw: String(100 * CLOSES),
      realisedLovelace: String(1_000_000n * BigInt(CLOSES)),
      realisedUsd: 0,
      usdKnown: false,
      unmatchedRaw: '0',
      unmatchedLovelace: '0',
      closed: CLOSES,
      wins: CLOSES,
    },
  ],
  buyCount: CLOSES,
  sellCount: CLOSES,
  unmatchedSells: 0,
  realisedLovelace: String(1_000_000n * BigInt(CLOSES)),
  skipped: { notComplete: 0, noAdaSide: 0, zeroAmount: 0 },
  slot: slotAt(30),
};
const series = Array.from({ length: CLOSES }, (_, i) => ({ time: closeTime(i), value: i + 1 }));

async function seed(store: Store): Promise<void> {
  await prepare(store);
  await store.write([
    ...checkpointOps(),
    put(ADDRESSES, {
      _id: BOT,
      stakeAddress: null,
      paymentCred: null,
      script: false,
      balance: { lovelace: '5000000', assets: {} },
      utxoCount: 1,
      txCount: 4 * CLOSES,
      firstSlot: slotAt(30 * CLOSES),
      lastSlot: slotAt(30),
      slot: slotAt(30),
    }),
    put(WALLET_LOTS, lots),
    ...pnlPointDocs(BOT, series).map((p) => put(WALLET_PNL_POINTS, p)),
  ]);
}

describe('get_wallet_pnl: a series longer than a tool result holds keeps its latest points', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seed, { now: () => NOW_MS });
  });
  after(() => api.close());

  it('REST answers the whole series, ending at realisedAda', async () => {
    const r = await api.get(`/api/v1/wallet/${BOT}/pnl?logos=url`);
    assert.equal(r.status, 200);
    const p = r.body as Json;
    assert.equal(p.realisedAda, CLOSES);
    assert.deepEqual(p.series, series);
  });

  it('the tool result is cut to the budget and keeps the newest points: its series ends where REST’s does', async () => {
    const { text, sc } = await callTool2026(api.url, 'get_wallet_pnl', { address: BOT });
    assert.ok(text.length <= RESULT_MAX_CHARS, `${text.length} characters`);
    assert.equal(sc.realisedAda, CLOSES);
    const shown = sc.series as { time: string; value: number }[];
    assert.ok(shown.length > 100 && shown.length < CLOSES, `${shown.length} points kept`);
    // The last `shown` points of the hand-built series, times as ISO (tool results' times are UTC strings).
    const expected = series.slice(CLOSES - shown.length).map((p) => ({
      time: new Date(p.time * 1000).toISOString(),
      value: p.value,
    }));
    assert.deepEqual(shown, expected);
    assert.equal(shown.at(-1)?.value, sc.realisedAda, 'the last point kept is the cumulative realised PnL now');
    assert.equal(shown.at(-1)?.time, new Date(closeTime(CLOSES - 1) * 1000).toISOString());
    assert.deepEqual(sc.truncated, [{ path: 'series', shown: shown.length, total: CLOSES, kept: 'last' }]);
  });
});

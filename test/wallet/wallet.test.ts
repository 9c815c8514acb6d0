/**
 * Wallet REST routes over documents written through the Store: a stake key with two payment addresses holding ADA
 * and two priced tokens plus an unpriced one, its DEX trades (buys and sells, one token/token swap) and an
 * ADA/USDM pool for the ADA/USD rate.
 */
import assert from 'node:assert/strict';
import { bech32 } from '@scure/base';
import { applyFifoTrade, computePnl, emptyFifo } from '../../cardano/pnl/fifo.js';
import { docOfFifo } from '../../cardano/pnl/stored.js';
import { pnlPointDocs, WALLET_LOTS, WALLET_PNL_POINTS } from '../../mongo/collections/pnl.js';
import { pnlTradeFromDoc, pnlTradesFromDocs } from '../../cardano/pnl/trade.js';
import { walletRoutes } from '../../api/routes/wallet.js';
import { ajv } from '../../api/schema.js';
import { baseAddress, enterpriseAddress, rewardAddress } from '../../cardano/address.js';
import {
  ADDRESS_TXS,
  ADDRESSES,
  STAKE_ACCOUNTS,
  STAKE_SUMMARIES,
  TRANSACTIONS,
  type AddressDoc,
  type TxDoc,
} from '../../mongo/collections/chain.js';
import { HANDLES, type HandleDoc } from '../../mongo/collections/handles.js';
import { STAKE_REWARDS } from '../../mongo/collections/staking.js';
import { DERIVED_RUNS } from '../../mongo/collections/sync-state.js';
import { TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { put, type Store } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import {
  DAY,
  NOW_MS,
  USDM,
  checkpointOps,
  meta,
  pool,
  prepare,
  putAll,
  slotAt,
  stats,
  token,
  trade,
  unitOf,
} from '../market-read/seed.js';
import { callTool2026 } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const STAKE_CRED = '3a'.repeat(28);
const STAKE = rewardAddress('mainnet', STAKE_CRED);
const ADDR_A = baseAddress('mainnet', '1b'.repeat(28), STAKE_CRED);
const ADDR_B = baseAddress('mainnet', '2c'.repeat(28), STAKE_CRED);
const ENTERPRISE = enterpriseAddress('mainnet', '4d'.repeat(28));
const UNSEEN = rewardAddress('mainnet', '5e'.repeat(28));
/** A registered key no payment address carries (a stake pool's reward account): it holds only its rewards. */
const REWARDS_ONLY = rewardAddress('mainnet', '6f'.repeat(28));
const TESTNET = rewardAddress('testnet', STAKE_CRED);

const HOSK = unitOf('a1', 'HOSK'); // 0 decimals, 0.002 ADA
const SNEK = unitOf('b2', 'SNEK'); // 6 decimals, 1.5 ADA, has a stored logo
const NOPRICE = unitOf('c3', 'NOPE'); // no market data
const ADA_USD = 0.5; // 1000 ADA : 500 USDM

function addressDoc(id: string, lovelace: string, assets: Record<string, string>): AddressDoc {
  return {
    _id: id,
    stakeAddress: STAKE,
    paymentCred: null,
    script: false,
    balance: { lovelace, assets },
    utxoCount: 1,
    txCount: 1,
    firstSlot: slotAt(10 * DAY),
    lastSlot: slotAt(DAY),
    slot: slotAt(DAY),
  };
}

// Trades of the stake key: SNEK bought twice, partly sold at a profit; HOSK bought and sold at a loss; a
// token/token swap (skipped by PnL); and one trade of somebody else.
const buy = (id: number, unit: string, ago: number, lovelace: string, tokenRaw: string) =>
  trade({ id, token: unit, slot: slotAt(ago), side: 'buy', amountInRaw: lovelace, amountOutRaw: tokenRaw, maker: STAKE, makerAddress: ADDR_A, valueLovelace: lovelace }); // prettier-ignore
const sell = (id: number, unit: string, ago: number, tokenRaw: string, lovelace: string) =>
  trade({ id, token: unit, slot: slotAt(ago), side: 'sell', amountInRaw: tokenRaw, amountOutRaw: lovelace, maker: STAKE, makerAddress: ADDR_B, valueLovelace: lovelace }); // prettier-ignore
const TRADES = [
  buy(101, SNEK, 5 * DAY, '100000000', '100000000'), // 100 SNEK for 100 ADA
  buy(102, HOSK, 4 * DAY, '20000000', '10000'), // 10000 HOSK for 20 ADA
  buy(103, SNEK, 3 * DAY, '150000000', '50000000'), // 50 SNEK for 150 ADA
  sell(104, SNEK, 2 * DAY, '120000000', '240000000'), // 120 SNEK for 240 ADA
  sell(105, HOSK, DAY, '10000', '15000000'), // all HOSK for 15 ADA
  trade({ id: 106, token: SNEK, slot: slotAt(DAY / 2), side: null, tokenIn: HOSK, tokenOut: SNEK, maker: STAKE, priceRaw: null, valueLovelace: null }), // prettier-ignore
  trade({ id: 107, token: SNEK, slot: slotAt(DAY / 3), maker: 'stake1uxsomebodyelse', amountInRaw: '5000000', amountOutRaw: '4000000' }), // prettier-ignore
];

// The stake key's reward account: 5 ADA as the staking recompute read it from the ledger 2 days ago; since then a
// valid transaction withdrew 2 ADA into ADDR_A (so the UTxO balance above already holds them) and one that failed
// phase-2 validation withdrew nothing. Left to withdraw: 3 ADA.
const REWARDS_READ_AT = new Date(NOW_MS - 2 * DAY * 1000).toISOString();
const WITHDRAWAL = 'e1'.repeat(32);
const FAILED_WITHDRAWAL = 'e2'.repeat(32);
function withdrawalTx(id: string, ago: number, valid: boolean, lovelace: string): TxDoc {
  return {
    _id: id,
    blockHash: 'f0'.repeat(32),
    blockHeight: 1,
    blockIndex: 0,
    slot: slotAt(ago),
    time: new Date(NOW_MS - ago * 1000).toISOString(),
    valid,
    fee: '200000',
    size: null,
    inputs: [],
    referenceInputs: [],
    collaterals: [],
    collateralReturn: null,
    outputs: [],
    totalOutput: '0',
    mint: {},
    certificates: [],
    withdrawals: { [STAKE]: lovelace },
    metadata: null,
    validityInterval: { invalidBefore: null, invalidAfter: null },
    proposals: 0,
    votes: 0,
    addresses: [ADDR_A],
  };
}
const rewardOps = () => [
  put(STAKE_ACCOUNTS, {
    _id: STAKE,
    credential: STAKE_CRED,
    script: false,
    registered: true,
    deposit: '2000000',
    poolId: null,
    drep: null,
    withdrawn: '2000000',
    slot: slotAt(DAY / 2),
  }),
  put(STAKE_REWARDS, { _id: STAKE, rewards: '5000000' }),
  put(STAKE_ACCOUNTS, {
    _id: REWARDS_ONLY,
    credential: '6f'.repeat(28),
    script: false,
    registered: true,
    deposit: '2000000',
    poolId: null,
    drep: null,
    withdrawn: '0',
    slot: slotAt(3 * DAY),
  }),
  put(STAKE_REWARDS, { _id: REWARDS_ONLY, rewards: '7000000' }),
  put(DERIVED_RUNS, {
    _id: 'recomputeStaking',
    generation: 0,
    from: null,
    startedAt: REWARDS_READ_AT,
    finishedAt: REWARDS_READ_AT,
  }),
  put(TRANSACTIONS, withdrawalTx(WITHDRAWAL, DAY, true, '2000000')),
  put(TRANSACTIONS, withdrawalTx(FAILED_WITHDRAWAL, DAY / 2, false, '1000000')),
  // A withdrawal before the reading is in the ledger's figure already.
  put(TRANSACTIONS, withdrawalTx('e3'.repeat(32), 3 * DAY, true, '4000000')),
  ...[
    [WITHDRAWAL, DAY],
    [FAILED_WITHDRAWAL, DAY / 2],
    ['e3'.repeat(32), 3 * DAY],
  ].map(([tx, ago]) =>
    put(ADDRESS_TXS, {
      _id: `${ADDR_A}|${slotAt(Number(ago))}|0|${tx}`,
      stakeAddress: STAKE,
      slot: slotAt(Number(ago)),
      blockIndex: 0,
    }),
  ),
];

/** A handle collector's wallet: the stake key holds 130 legacy handles, h000 … h129, at ADDR_A. */
const HELD_HANDLES = Array.from({ length: 130 }, (_, i) => `h${String(i).padStart(3, '0')}`);
const handleDoc = (name: string): HandleDoc => ({
  _id: name,
  kind: 'legacy',
  root: name,
  policyId: 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a',
  unit: `f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a${Buffer.from(name).toString('hex')}`,
  address: ADDR_A,
  stakeAddress: STAKE,
  script: false,
  utxo: `${'d4'.repeat(32)}#0`,
  referenceUnit: null,
  referenceUtxo: null,
  image: null,
  defaultHandle: null,
  ogNumber: null,
  rarity: null,
  mintSlot: null,
  updatedSlot: slotAt(DAY),
});

async function seed(store: Store): Promise<void> {
  await prepare(store);
  await store.write([
    ...checkpointOps(),
    put(ADDRESSES, addressDoc(ADDR_A, '12500000', { [SNEK]: '20000000', [HOSK]: '500' })),
    put(ADDRESSES, addressDoc(ADDR_B, '7500000', { [SNEK]: '10000000', [NOPRICE]: '3' })),
    put(ADDRESSES, { ...addressDoc(ENTERPRISE, '1000000', {}), stakeAddress: null }),
    // The stake key's totals as the sync keeps them: ADDR_A + ADDR_B, summed by hand.
    put(STAKE_SUMMARIES, {
      _id: STAKE,
      balance: { lovelace: '20000000', assets: { [SNEK]: '30000000', [HOSK]: '500', [NOPRICE]: '3' } },
      utxoCount: 2,
      addressCount: 2,
      txCount: 2,
      first: { slot: slotAt(10 * DAY), txId: 'aa'.repeat(32), time: '' },
      last: { slot: slotAt(DAY), txId: 'bb'.repeat(32), time: '' },
      slot: slotAt(DAY),
    }),
    meta(SNEK, 'SNEK', 6, true),
    meta(HOSK, 'HOSK', 0),
    ...putAll.tokens([token(SNEK), token(HOSK), token(USDM)]),
    ...putAll.pools([pool({ id: 9, tokenB: USDM, reserveARaw: '1000000000', reserveBRaw: '500000000' })]),
    put(TOKEN_STATS, stats(SNEK, { priceAda: 1.5, change24h: 10 })),
    put(TOKEN_STATS, stats(HOSK, { priceAda: 0.002, change24h: -5 })),
    ...putAll.trades(TRADES),
    ...lotsOf(STAKE),
    ...rewardOps(),
    // Written in reverse: the answer's order is the names', not the writes'.
    ...HELD_HANDLES.toReversed().map((h) => put(HANDLES, handleDoc(h))),
  ]);
}

/**
 * The wallet's FIFO state and series points as the market sync leaves them after these trades (chain order; no
 * ADA/USD then).
 */
function lotsOf(maker: string) {
  const fifo = emptyFifo();
  const skipped = { notComplete: 0, noAdaSide: 0, zeroAmount: 0 };
  for (const t of TRADES.filter((x) => x.maker === maker).sort((a, b) => a.seq - b.seq)) {
    const p = pnlTradeFromDoc(t, 0, (slot) => Math.floor(NOW_MS / 1000 - (slotAt(0) - slot)));
    if (typeof p === 'string') skipped[p] += 1;
    else applyFifoTrade(fifo, p, null);
  }
  return [
    put(WALLET_LOTS, docOfFifo(maker, fifo, skipped, slotAt(0))),
    ...pnlPointDocs(maker, fifo.series).map((p) => put(WALLET_PNL_POINTS, p)),
  ];
}

const validPortfolio = ajv.compile(walletRoutes.portfolio.response);
const validPnl = ajv.compile(walletRoutes.pnl.response);
const validTrades = ajv.compile(walletRoutes.trades.response);
const schemaOk = (check: typeof validPnl, body: unknown) =>
  assert.ok(check(body), `response does not match its schema: ${JSON.stringify(check.errors)}`);

describe('wallet REST routes', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seed, { now: () => NOW_MS });
  });
  after(() => api.close());

  describe('GET /wallet/{address}', () => {
    it('combines the holdings of every address of a stake key and values them', async () => {
      const r = await api.get(`/api/v1/wallet/${STAKE}?logos=url`);
      assert.equal(r.status, 200);
      const w = r.body as Json;
      schemaOk(validPortfolio, w);
      assert.equal(w.stakeAddress, STAKE);
      assert.equal(w.addresses, 2);
      assert.equal(w.adaBalance, 20);
      assert.equal(w.adaBalanceLovelace, '20000000');
      assert.equal(w.adaUsd, ADA_USD);
      assert.deepEqual(
        w.positions.map((p: Json) => [p.asset.unit, p.balance, p.balanceRaw, p.priceAda, p.valueAda]),
        [
          [SNEK, 30, '30000000', 1.5, 45],
          [HOSK, 500, '500', 0.002, 1],
          [NOPRICE, 3, '3', null, null],
        ],
      );
      assert.equal(w.positions[0].valueUsd, 22.5);
      assert.equal(w.positions[0].change24h, 10);
      // 20 ADA + 3 ADA of rewards + 45 + 1 ADA of tokens, at 0.5 USD per ADA.
      assert.equal(w.rewards, 3);
      assert.equal(w.rewardsLovelace, '3000000');
      assert.equal(w.rewardsAsOf, REWARDS_READ_AT);
      assert.deepEqual(w.totals, {
        ada: 69,
        usd: 34.5,
        tokensAda: 46,
        nftsAda: 0,
        nfts: 0,
        rewardsAda: 3,
        unpriced: 1,
      });
      assert.equal(w.positions[0].asset.logo, `http://api.test/api/v1/assets/${SNEK}/logo`, 'logos=url honoured');
      assert.equal(w.asOf, new Date(NOW_MS).toISOString());
    });

    it('lists a collector’s first 100 handles by name and says how many it holds', async () => {
      const w = (await api.get(`/api/v1/wallet/${STAKE}`)).body as Json;
      schemaOk(validPortfolio, w);
      assert.deepEqual(
        w.handles,
        HELD_HANDLES.slice(0, 100).map((h) => `$${h}`),
      );
      assert.equal(w.handlesTotal, 130);
      // One payment address of the key holds them too; the other none.
      assert.equal(((await api.get(`/api/v1/wallet/${ADDR_A}`)).body as Json).handlesTotal, 130);
      assert.deepEqual(((await api.get(`/api/v1/wallet/${ADDR_B}`)).body as Json).handles, []);
      const md = await api.get(`/api/md/wallet/${STAKE}`);
      assert.equal(md.status, 200);
      assert.ok(String(md.body).includes('$h099 (the first 100 of 130)'), String(md.body).slice(0, 400));
    });

    it('answers one payment address alone', async () => {
      const w = (await api.get(`/api/v1/wallet/${ADDR_B}`)).body as Json;
      assert.equal(w.addresses, 1);
      assert.equal(w.stakeAddress, STAKE);
      assert.equal(w.adaBalance, 7.5);
      // The rewards are the key's, counted in its portfolio only: never once per address.
      assert.equal(w.rewards, null);
      assert.equal(w.rewardsLovelace, null);
      assert.equal(w.totals.rewardsAda, 0);
      assert.equal(w.totals.ada, 7.5 + 10 * 1.5);
      assert.deepEqual(
        w.positions.map((p: Json) => [p.asset.unit, p.balance]),
        [
          [SNEK, 10],
          [NOPRICE, 3],
        ],
      );
    });

    it('shows the key’s rewards in the explorer as in the portfolio: the reading less the withdrawals since', async () => {
      // Both the key and an address carrying it show the key's account; 5 ADA read, 2 withdrawn since: 3 ADA.
      for (const address of [STAKE, ADDR_A]) {
        const r = await api.get(`/api/v1/explorer/address/${address}`);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const account = (r.body as Json).stakeAccount as Json;
        assert.deepEqual(
          [account.rewards, account.rewardsLovelace, account.rewardsAsOf, account.withdrawn],
          [3, '3000000', REWARDS_READ_AT, 2],
          address,
        );
      }
    });

    it('answers 400 for malformed or wrong-network addresses and 404 for unseen ones', async () => {
      for (const bad of ['addr1notbech32', 'stake1qqqqqqqqqq', TESTNET, 'pool1abcdefghij']) {
        const r = await api.get(`/api/v1/wallet/${bad}`);
        assert.equal(r.status, 400, bad);
        assert.equal(typeof (r.body as Json).error, 'string');
      }
      // Capitals: the key itself in capitals is told to write it in lowercase; the same with one character mistyped
      // is no address in any case (bech32's own decoder refuses its lowercase checksum), so no such hint.
      const typo = `${STAKE.slice(0, -1)}${STAKE.endsWith('q') ? 'p' : 'q'}`;
      assert.throws(() => bech32.decode(typo as `${string}1${string}`, 1023), /checksum/i);
      for (const route of ['wallet', 'explorer/address']) {
        const upper = await api.get(`/api/v1/${route}/${STAKE.toUpperCase()}`);
        assert.equal(upper.status, 400);
        assert.match((upper.body as Json).error, /write the Bech32 address in lowercase/);
        const mistyped = await api.get(`/api/v1/${route}/${typo.toUpperCase()}`);
        assert.equal(mistyped.status, 400);
        assert.doesNotMatch((mistyped.body as Json).error, /lowercase/, route);
        assert.match((mistyped.body as Json).error, /checksum/i, route);
      }
      const r = await api.get(`/api/v1/wallet/${UNSEEN}`);
      assert.equal(r.status, 404);
      assert.equal((await api.get(`/api/v1/wallet/${UNSEEN}/trades`)).status, 404);
      assert.equal((await api.get(`/api/v1/wallet/${UNSEEN}/pnl`)).status, 404);
    });

    it('answers a registered key no address carries with its rewards, as the explorer does', async () => {
      // The ledger's reading: 7 ADA of rewards, nothing withdrawn since. The explorer shows the key's account.
      const explorer = await api.get(`/api/v1/explorer/address/${REWARDS_ONLY}`);
      assert.equal(explorer.status, 200, JSON.stringify(explorer.body));
      assert.equal(((explorer.body as Json).stakeAccount as Json).rewardsLovelace, '7000000');
      const r = await api.get(`/api/v1/wallet/${REWARDS_ONLY}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const w = r.body as Json;
      schemaOk(validPortfolio, w);
      assert.deepEqual(
        [w.addresses, w.adaBalanceLovelace, w.rewardsLovelace, w.rewards, w.positions, w.totals.ada, w.totals.usd],
        [0, '0', '7000000', 7, [], 7, 7 * ADA_USD],
      );
      // It made no trade: an empty list and a PnL of nothing, not "not found".
      const trades = await api.get(`/api/v1/wallet/${REWARDS_ONLY}/trades`);
      assert.equal(trades.status, 200, JSON.stringify(trades.body));
      assert.deepEqual((trades.body as Json).items, []);
      const pnl = await api.get(`/api/v1/wallet/${REWARDS_ONLY}/pnl`);
      assert.equal(pnl.status, 200, JSON.stringify(pnl.body));
      assert.equal((pnl.body as Json).tradeCount, 0);
      const md = await api.get(`/api/md/wallet/${REWARDS_ONLY}`);
      assert.equal(md.status, 200);
      assert.ok(String(md.body).includes('| 0 | 7 |'), String(md.body).slice(0, 600));
    });
  });

  describe('GET /wallet/{address}/trades', () => {
    it('pages the stake key’s trades newest first with a cursor', async () => {
      const first = (await api.get(`/api/v1/wallet/${STAKE}/trades?limit=4`)).body as Json;
      schemaOk(validTrades, first);
      assert.deepEqual(
        first.items.map((t: Json) => t.id),
        [106, 105, 104, 103],
      );
      assert.ok(first.nextCursor);
      const second = (await api.get(`/api/v1/wallet/${STAKE}/trades?limit=4&cursor=${first.nextCursor}`)).body as Json;
      assert.deepEqual(
        second.items.map((t: Json) => t.id),
        [102, 101],
      );
      assert.equal(second.nextCursor, null);
      assert.equal(second.items[1].amountOut, 100, 'decimal-adjusted');
      assert.equal(second.items[1].valueUsd, null, 'USD at the trade’s time: no ADA/USD series is indexed');
    });

    it('attributes an addr1… with a stake part to its stake key; an address without one has none', async () => {
      const viaAddr = (await api.get(`/api/v1/wallet/${ADDR_A}/trades`)).body as Json;
      assert.equal(viaAddr.items.length, 6);
      const none = await api.get(`/api/v1/wallet/${ENTERPRISE}/trades`);
      assert.equal(none.status, 200);
      const empty = none.body as Json;
      assert.deepEqual(empty, { items: [], nextCursor: null, asOf: empty.asOf, coverageFrom: empty.coverageFrom });
    });

    it('rejects a limit out of range and a foreign cursor', async () => {
      assert.equal((await api.get(`/api/v1/wallet/${STAKE}/trades?limit=201`)).status, 400);
      assert.equal((await api.get(`/api/v1/wallet/${STAKE}/trades?cursor=bm9wZQ`)).status, 400);
    });
  });

  describe('GET /wallet/{address}/pnl', () => {
    it('equals computePnl over the wallet’s trades with the current marks', async () => {
      const r = await api.get(`/api/v1/wallet/${STAKE}/pnl`);
      assert.equal(r.status, 200);
      const p = r.body as Json;
      schemaOk(validPnl, p);

      const mine = TRADES.filter((t) => t.maker === STAKE);
      const decimals = (u: string) => (u === SNEK ? 6 : 0);
      const { trades } = pnlTradesFromDocs(mine, decimals, (slot) => Math.floor((NOW_MS / 1000) - (slotAt(0) - slot))); // prettier-ignore
      const prices = new Map([
        [SNEK, 1.5],
        [HOSK, 0.002],
      ]);
      const expected = computePnl(
        trades,
        { priceAda: (u) => prices.get(u) ?? null, adaUsdAt: () => null, adaUsdNow: ADA_USD },
        { coverageFrom: new Date(NOW_MS).toISOString() },
      );
      // Realised: SNEK 240 − (100 + 20·3) = 80; HOSK 15 − 20 = −5. Unrealised: 30 SNEK × 1.5 − 90 = −45.
      assert.equal(expected.realisedAda, 75);
      assert.equal(p.realisedAda, expected.realisedAda);
      assert.equal(p.unrealisedAda, expected.unrealisedAda);
      assert.equal(p.tradeCount, 5);
      assert.equal(p.volumeAda, expected.volumeAda);
      assert.equal(p.winRatePercent, 50);
      assert.deepEqual(p.skippedTrades, { notComplete: 0, noAdaSide: 1, zeroAmount: 0 });
      assert.deepEqual(p.series, expected.series);
      assert.equal(p.coverageFrom, new Date(NOW_MS).toISOString(), 'the only indexed block');
      assert.equal(p.realisedUsd, null, 'no ADA/USD series at trade time');
      assert.deepEqual(
        p.tokens.map((t: Json) => [t.asset.unit, t.pnlAda]),
        expected.tokens.map((t) => [t.unit, t.pnlAda]),
      );
      assert.deepEqual(
        p.topTokens.map((t: Json) => t.asset.ticker),
        ['SNEK', 'HOSK'],
      );
    });

    it('answers the stake key and an address carrying it the same', async () => {
      const a = (await api.get(`/api/v1/wallet/${STAKE}/pnl?logos=url`)).body as Json;
      const b = (await api.get(`/api/v1/wallet/${ADDR_A}/pnl?logos=url`)).body as Json;
      assert.equal(a.maker, STAKE);
      assert.equal(b.maker, STAKE);
      assert.deepEqual({ ...a, address: null }, { ...b, address: null });
      assert.equal(a.tokens[0].asset.logo, `http://api.test/api/v1/assets/${SNEK}/logo`);
    });
  });

  describe('get_wallet tool', () => {
    it('reports each position’s change24hPct as 100 × the token’s REST stats.change24h (a fraction)', async () => {
      const { sc } = await callTool2026(api.url, 'get_wallet', { address: STAKE });
      const positions = sc.positions as Json[];
      assert.equal(positions.length, 3);
      for (const p of positions) {
        assert.ok(!('change24h' in p), 'renamed to change24hPct');
        const token = await api.get(`/api/v1/tokens/${p.asset.unit}?logos=url`);
        const fraction = token.status === 200 ? ((token.body as Json).stats.change24h as number | null) : null;
        assert.equal(p.change24hPct, fraction === null ? null : fraction * 100, p.asset.unit);
      }
      // By hand from the seeded stats: SNEK 10 → 1000 %, HOSK −5 → −500 %, the unpriced token null.
      assert.deepEqual(
        positions.map((p) => p.change24hPct),
        [1000, -500, null],
      );
      // The key's unwithdrawn rewards and the total that counts them, as REST answers them (whole ADA).
      assert.deepEqual([sc.rewards, sc.rewardsLovelace, sc.totals.rewardsAda, sc.totals.ada], [3, '3000000', 3, 69]);
    });

    it('counts the swaps of the last 24 h as the market’s windows do, (start, end]', async () => {
      // The seeded key's trades by hand: HOSK sold in the block exactly 24 h before the indexed tip (105: the day
      // before's, as a token's txns24h and volume24h count it since r29-market), the token/token swap 12 h ago (106)
      // inside; 104 and older before. The other maker's trade (107) is not the wallet's.
      const { sc } = await callTool2026(api.url, 'get_wallet', { address: STAKE });
      assert.equal(sc.asOf, new Date(NOW_MS).toISOString());
      assert.deepEqual(
        (sc.trades24h.items as Json[]).map((t) => t.id),
        [106],
      );
      assert.equal(sc.trades24h.count, 1);
    });
  });
});

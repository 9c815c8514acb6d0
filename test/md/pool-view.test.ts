/**
 * The pool view's reserves are the pool's on-chain figures, every digit: a reserve past 2^53 base units is not a
 * JSON number's rounding. On the devnet the ADA/CRAB pool (Minswap V2, #87) held 78,248,458,680,694,955 CRAB
 * (0 decimals; the pool datum's reserve_b in the ledger UTxO set) and the view showed 78,248,458,680,694,960.
 */
import assert from 'node:assert/strict';
import { renderPool } from '../../views/md/pool.js';
import type { Pool, Trade, ViewContext } from '../../views/md/types.js';

const ctx: ViewContext = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-29T11:37:50Z', lagSeconds: 0, height: 8629, tipHeight: 8629 },
};

const ada = {
  unit: 'lovelace',
  policyId: '',
  name: 'Cardano',
  ticker: 'ADA',
  decimals: 6,
  displayName: 'ADA',
};
const crab = {
  unit: '1227478fab1502e9110b7d08631988832e8fa50585ef1951ed33062043524142',
  policyId: '1227478fab1502e9110b7d08631988832e8fa50585ef1951ed330620',
  name: null,
  ticker: null,
  decimals: 0,
  displayName: 'CRAB',
};

/** The pool as GET /pools/87 answered it: reserveA/reserveB are the raw integers as JSON numbers (over 10^decimals). */
const pool = (reserveARaw: string, reserveBRaw: string): Pool => ({
  id: 87,
  dex: 'minswap-v2',
  identifier: '3aa61e2d6db5ecf9df47',
  address: 'addr1z84q0denmyep98ph3tmzwsmw0j7zau9ljmsqx6a4rvaau66j2c79gy9l76sdg0xwhd7r0c0kna0tycz4y5s6mlenh8pq777e2a',
  tokenA: ada,
  tokenB: crab,
  reserveA: Number(reserveARaw) / 1e6,
  reserveB: Number(reserveBRaw),
  reserveARaw,
  reserveBRaw,
  tvlAda: 15409.268058,
  price: 9.84637162048132e-14,
  feePercent: 0.3,
  feePercentBToA: 0.3,
  createdTime: '2026-11-28T18:48:00.000Z',
  createdExact: true,
  lastStateTime: '2026-11-29T07:39:00.000Z',
  volume24h: 10.407575,
  txns24h: 1,
  statsUpdatedAt: '2026-11-29T07:40:20.000Z',
});

/** The value cell of a row of the view's field table. */
const field = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`| ${name} |`));
  assert.ok(line, `no row ${name}`);
  return line.slice(name.length + 5, -2);
};

describe('Markdown pool view: reserves', () => {
  it('shows each reserve exactly from its base-unit integer, past 2^53 too', () => {
    const text = renderPool(ctx, pool('7704634029', '78248458680694955'), { items: [], nextCursor: null });
    // Hand-formatted: 7704634029 lovelace = 7,704.634029 ADA; 78248458680694955 CRAB base units, 0 decimals.
    assert.equal(field(text, 'Reserves (ADA / CRAB)'), '7,704.634029 / 78,248,458,680,694,955');
  });

  it('a reserve under one whole token keeps its digits', () => {
    const text = renderPool(ctx, pool('266291', '5'), { items: [], nextCursor: null });
    assert.equal(field(text, 'Reserves (ADA / CRAB)'), '0.266291 / 5');
  });
});

describe('Markdown pool view: recent trades', () => {
  it("says where the older trades are: REST's next page from the page's own cursor, only when there is one", () => {
    // The cursor is GET /pools/87/trades?limit=20's nextCursor (opaque): the view links it unchanged.
    const more = renderPool(ctx, pool('7704634029', '5'), { items: [], nextCursor: 'dDU3MDIuMjg0N35YWWo2Zlh6UHBweDY' });
    assert.ok(
      more.includes(
        'Older trades: [REST: next page (JSON)](https://cds.example/api/v1/pools/87/trades?cursor=dDU3MDIuMjg0N35YWWo2Zlh6UHBweDY&logos=url)',
      ),
      more,
    );
    const all = renderPool(ctx, pool('7704634029', '5'), { items: [], nextCursor: null });
    assert.doesNotMatch(all, /Older trades/);
  });
});

describe('Markdown pool view: trade amounts', () => {
  it('shows each amount exactly from its base units (past 2^53, and the decimals of amounts over 1,000)', () => {
    // A sell of 78,248,458,680,694,955 CRAB (0 decimals) for 1,234.567891 ADA: as JSON numbers 78248458680694960
    // and 1234.567891, which the view's rounding showed as 78,248,458,680,694,960 and 1,235.
    const trade: Trade = {
      poolId: 87,
      dex: 'minswap-v2',
      txHash: 'ab'.repeat(32),
      time: '2026-11-29T07:39:00.000Z',
      status: 'complete',
      side: 'sell',
      tokenIn: crab,
      tokenOut: ada,
      amountIn: Number('78248458680694955'), // as JSON.parse reads it: 78248458680694960
      amountOut: 1234.567891,
      amountInRaw: '78248458680694955',
      amountOutRaw: '1234567891',
      priceAda: 1.5777e-14,
      valueAda: 1234.567891,
      makerAddress: null,
    };
    const text = renderPool(ctx, pool('7704634029', '5'), { items: [trade], nextCursor: null });
    const row = text.split('\n').find((l) => l.includes('| sell |'));
    assert.ok(row, text);
    const cells = row.slice(2, -2).split(' | ');
    assert.deepEqual(cells.slice(2, 4), ['78,248,458,680,694,955 CRAB', '1,234.567891 ADA']);
  });
});

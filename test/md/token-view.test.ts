/**
 * The token view's pool table against the pools it lists: a pool whose two directions charge different fees
 * (SundaeSwap V3's bid and ask fees, Splash's and Minswap V2's per-direction fees; REST's feePercent and
 * feePercentBToA) shows both, as the pool view does. The token is HOSKY as GET /tokens/{unit} answered it on the
 * devnet, with its SundaeSwap V3 pool given an ask fee of 1 % and a bid fee of 0.5 %.
 */
import assert from 'node:assert/strict';
import { renderToken } from '../../views/md/token.js';
import type { AssetRef, Pool, TokenDetail, ViewContext } from '../../views/md/types.js';

const ctx: ViewContext = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-29T14:33:22Z', lagSeconds: 3, height: 8631, tipHeight: 8631 },
};

const ada: AssetRef = {
  unit: 'lovelace',
  policyId: '',
  name: 'Cardano',
  ticker: 'ADA',
  decimals: 6,
  displayName: 'ADA',
};
const hosky: AssetRef = {
  unit: 'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235484f534b59',
  policyId: 'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235',
  name: 'HOSKY Token',
  ticker: 'HOSKY',
  decimals: 0,
  displayName: 'HOSKY',
};

const pool = (id: number, dex: string, feePercent: number | null, feePercentBToA: number | null): Pool => ({
  id,
  dex,
  identifier: 'ab'.repeat(16),
  address: 'addr1z84q0denmyep98ph3tmzwsmw0j7zau9ljmsqx6a4rvaau66j2c79gy9l76sdg0xwhd7r0c0kna0tycz4y5s6mlenh8pq777e2a',
  tokenA: ada,
  tokenB: hosky,
  reserveA: 1012346.513248,
  reserveB: 21224497087944,
  reserveARaw: '1012346513248',
  reserveBRaw: '21224497087944',
  tvlAda: 2024693.026496,
  price: 4.76970789486002e-8,
  feePercent,
  feePercentBToA,
  createdTime: '2026-11-27T14:37:01.000Z',
  createdExact: true,
  lastStateTime: '2026-11-29T14:19:00.000Z',
  volume24h: 122517.338388,
  txns24h: 100,
  statsUpdatedAt: '2026-11-29T07:40:20.000Z',
});

const token = (pools: Pool[]): TokenDetail => ({
  asset: hosky,
  stats: {
    priceAda: 4.7697078948600203e-8,
    priceUsd: 3.0501452374099104e-8,
    liquidityAda: 3544011.814888,
    volume24h: 178578.902481,
    volume7d: 351110.336588,
    change1h: -0.012242397366,
    change24h: -0.179898682572,
    change7d: null,
    change1hUsd: -0.022319286191,
    change24hUsd: -0.22612405682,
    change7dUsd: null,
    txns24h: 293,
    buys24h: 22,
    sells24h: 271,
    makers24h: 35,
    mcapAda: 47697078.9486002,
    mcapUsd: 30501452.374099102,
    fdvUsd: 30501452.374099102,
    holders: 17,
    totalSupply: 1e15,
    circulatingSupply: 1e15,
    pools: pools.length,
    firstPoolTime: '2026-11-27T14:37:01.000Z',
    firstPoolExact: true,
    updatedAt: '2026-11-29T14:36:18.404Z',
  },
  primaryPoolId: 17,
  description: null,
  url: null,
  pools,
  adaUsd: 0.6394826066176584,
});

/** The fee cell of each row of the pools table, by pool. */
const feeCells = (text: string) => {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('| Pool | DEX |'));
  const header = lines[at]!.slice(2, -2).split(' | ');
  const fee = header.indexOf('Fee (%)');
  const rows: string[][] = [];
  for (let i = at + 2; at >= 0 && lines[i]?.startsWith('|'); i++) rows.push(lines[i]!.slice(2, -2).split(' | '));
  return rows.map((r) => [r[0]!.replace(/\].*/, '').slice(1), r[fee]!]);
};

describe('Markdown token view: pools', () => {
  it("shows both directions' fees of a pool that charges two (it showed the A → B fee alone)", () => {
    const text = renderToken(ctx, token([pool(17, 'minswap-v2', 0.3, 0.3), pool(18, 'sundaeswap-v3', 1, 0.5)]));
    assert.deepEqual(feeCells(text), [
      ['#17', '0.30'],
      ['#18', '1.00 (A → B) / 0.50 (B → A)'],
    ]);
  });
});

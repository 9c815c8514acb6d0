/**
 * The market view's gainers and losers say which price they rank and which tokens they are drawn from (spec:
 * market overview: the 24 h change among tokens traded in those 24 h with liquidity of 10,000 ADA or more). On the
 * devnet USDM was a top gainer at +3.82 % in ADA while its USD change was −0.27 %: a table headed only "Top gainers"
 * beside a negative USD column reads as a contradiction to an agent.
 */
import assert from 'node:assert/strict';
import { renderMarket } from '../../views/md/market.js';
import type { MarketOverview, TokenRow, ViewContext } from '../../views/md/types.js';

const ctx: ViewContext = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-29T09:17:46Z', lagSeconds: 46, height: 8628, tipHeight: 8628 },
} as ViewContext;

// USDM as the devnet's market overview showed it: +3.82 % in ADA, −0.27 % in USD.
const usdm = {
  asset: {
    unit: 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d',
    displayName: 'USDM',
  },
  stats: {
    priceAda: 1.543117875191047,
    priceUsd: 1.0060514062654446,
    change24h: 0.03818451651312116,
    change24hUsd: -0.002659155794134449,
    change7d: null,
    volume24h: 240869.376493,
    liquidityAda: 12005936.567124,
    mcapUsd: 30181542.187963337,
    holders: 207,
  },
  primaryPoolId: 1,
} as unknown as TokenRow;

const overview: MarketOverview = {
  adaUsd: 0.6519601790892932,
  volume24h: 1230470.082617,
  tvlAda: 48600077.602443,
  txns24h: 3263,
  dexes: [],
  topGainers: [usdm],
  topLosers: [],
  trending: [usdm],
  sync: { lagSeconds: 46, height: 8628, tipHeight: 8628 },
  updatedAt: '2026-11-29T09:18:53.378Z',
};

/** The lines between a heading and its table. */
function intro(text: string, heading: string): string {
  const lines = text.split('\n');
  const at = lines.indexOf(heading);
  assert.ok(at >= 0, `no heading ${heading}`);
  const table = lines.findIndex((l, i) => i > at && l.startsWith('|'));
  return lines.slice(at + 1, table).join(' ');
}

describe('Markdown market view: what the gainers, losers and trending lists rank', () => {
  const text = renderMarket(ctx, overview);

  it('the gainers and losers name the ADA price and the 10,000 ADA liquidity floor of the spec', () => {
    for (const heading of ['## Top gainers (24 h)', '## Top losers (24 h)']) {
      const said = intro(text, heading);
      assert.match(said, /24 h change of the ADA price/, heading);
      assert.match(said, /traded in those 24 h with liquidity of 10,000 ADA or more/, heading);
    }
    // The row it explains: a gainer in ADA whose USD change is negative.
    assert.match(text, /\| 1 \| \[USDM\]\([^)]+\) \| 1\.54312 \| \+3\.82 \| 1\.00605 \| -0\.27 \|/);
  });

  it('trending names its order: 24 h volume in ADA', () => {
    assert.match(intro(text, '## Trending (24 h volume)'), /Largest 24 h volume in ADA/);
  });
});

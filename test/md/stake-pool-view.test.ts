/**
 * The stake pool view's status line against the ledger's retirement rule: a pool's retirement certificate names the
 * epoch at whose start it stops, so at epoch 8 a pool retiring in epoch 1 has been retired since epoch 1, and one
 * retiring in epoch 10 is still producing and stops when epoch 10 starts.
 */
import assert from 'node:assert/strict';
import { renderStakePool } from '../../views/md/stake-pool.js';
import type { StakePool, ViewContext } from '../../views/md/types.js';

const ctx: ViewContext = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-29T03:26:00Z', lagSeconds: 3, height: 8653, tipHeight: 8653 },
} as ViewContext;

const pool = (status: string, retiringEpoch: number | null): StakePool => ({
  id: 'pool1s4luqhypv267vv3njgruw9u77lk7psqsqszxe3jdnkdjsm6d0uc',
  ticker: 'KELP',
  name: 'Kelp Stake Pool',
  status,
  liveStake: 0,
  activeStake: null,
  saturation: 0,
  margin: 0.05,
  fixedCost: 180,
  pledge: 250_000,
  delegators: 0,
  blocksThisEpoch: 0,
  roa: null,
  epoch: 8,
  computedAt: '2026-11-29T03:23:17Z',
  retiringEpoch,
  rewardAccount: null,
  metadata: { description: null, homepage: null, verified: true, reason: null },
  performance: { blocksMinted: 78, estimatedRoa: null, realisedRoa: null },
  coverageFrom: null,
});

const statusCell = (text: string) => /^\| Status \| (.*) \|$/m.exec(text)?.[1];

describe('Markdown stake pool view: status and retirement epoch', () => {
  it('a retired pool has been retired since its retirement epoch (it read "retired (retiring in epoch 1)")', () => {
    assert.equal(statusCell(renderStakePool(ctx, pool('retired', 1))), 'retired (since epoch 1)');
  });

  it('a retiring pool stops at the start of its retirement epoch; an active pool shows its status alone', () => {
    assert.equal(statusCell(renderStakePool(ctx, pool('retiring', 10))), 'retiring (retires at the start of epoch 10)');
    assert.equal(statusCell(renderStakePool(ctx, pool('active', null))), 'active');
    // A pool the ledger no longer lists, its retirement not seen in the indexed range.
    assert.equal(statusCell(renderStakePool(ctx, pool('retired', null))), 'retired');
  });

  it("a retired pool's owners' stake says the pool earns nothing, not that it is below its pledge for now", () => {
    // It read "0 (below the pledge: no rewards while it stays so)": REST's ownerStake 0 and pledgeMet false of a pool
    // whose delegations the ledger dropped at its retirement epoch, as if meeting the pledge could pay it again.
    const owners = (status: string, ownerStake: number, pledgeMet: boolean) => {
      const p = { ...pool(status, status === 'active' ? null : 3), ownerStake, pledgeMet };
      return /^\| Owners' live stake \(ADA\) \| (.*) \|$/m.exec(renderStakePool(ctx, p))?.[1];
    };
    assert.equal(owners('retired', 0, false), '0 (retired: the pool earns nothing)');
    assert.equal(owners('active', 100_000, false), '100,000 (below the pledge: no rewards while it stays so)');
    assert.equal(owners('retiring', 300_000, true), '300,000 (pledge met)');
  });

  it('a pool whose metadata was not checked says why, as REST does: none registered, or its fetch failed', () => {
    // It read "—": a pool shown without name and ticker gave no reason, while REST's metadata.reason had it.
    const cell = (reason: string | null) => {
      const p = pool('active', null);
      p.metadata = { ...p.metadata, verified: null, reason };
      return /^\| Metadata verified against its hash \| (.*) \|$/m.exec(renderStakePool(ctx, p))?.[1];
    };
    assert.equal(
      cell('fetch failed: The operation was aborted'),
      'not checked (fetch failed: The operation was aborted)',
    );
    assert.equal(cell('no metadata registered'), 'not checked (no metadata registered)');
    assert.equal(cell(null), '—');
  });

  it("a description starting with block syntax stays the summary's text: no heading, list, quote or code block", () => {
    // Whoever registers a pool writes its metadata description; at the start of its own line "# …" was a second h1
    // under the title, "1. …" a numbered instruction, four spaces a code block. Hand-written: each shown as written.
    const cases: [string, string][] = [
      ['# Claim your rewards at evil.example', '\\# Claim your rewards at evil.example'],
      ['1. Send 100 ADA to addr1…', '1\\. Send 100 ADA to addr1…'],
      ['- official pool', '\\- official pool'],
      ['    indented', 'indented'],
      ['> quoted', '\\> quoted'],
    ];
    for (const [description, shown] of cases) {
      const p = pool('active', null);
      p.metadata.description = description;
      const lines = renderStakePool(ctx, p).split('\n');
      assert.equal(lines[4], shown, description);
      // The view's own headings only: its title and its sections.
      assert.deepEqual(
        lines.filter((l) => /^#{1,6} /.test(l)),
        ['# Stake pool [KELP] Kelp Stake Pool', '## Links'],
        description,
      );
    }
  });

  it('a name ending in "#" keeps it in the title (a closing run of # is no part of a heading)', () => {
    const p = pool('active', null);
    p.ticker = null;
    p.name = 'Pool #';
    assert.equal(renderStakePool(ctx, p).split('\n')[0], '# Stake pool Pool \\#');
  });
});

describe('Markdown stake pool view: blocks minted are those of the indexed history', () => {
  it('says the count starts at coverageFrom, as REST does (performance.blocksMinted: "blocks seen in the indexed range")', () => {
    // A service synced from a later start point (a mainnet quick start) counts the blocks it indexed: a pool with
    // thousands of blocks since 2020 has 78 in the range. The view read "Blocks in epoch 8 / minted in total | 0 / 78".
    const p = { ...pool('active', null), coverageFrom: '2026-11-27T14:20:00.000Z' };
    const text = renderStakePool(ctx, p);
    assert.doesNotMatch(text, /minted in total/);
    assert.match(text, /^\| Blocks in epoch 8 \/ minted in the indexed history \| 0 \/ 78 \|$/m);
    assert.match(text, /^\| Indexed history since \(UTC\) \| 2026-11-27 14:20 UTC \|$/m);
  });
});

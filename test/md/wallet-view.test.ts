/**
 * The wallet view's heading against the handles the chain names: an ADA Handle may hold `_`, `.` and `-` (Kora Labs'
 * rule: 1-28 of `a-z 0-9 _ - .`), so `$_gm_` is a handle, and after its `$` Markdown read `_gm_` as emphasis: the
 * heading showed "$gm" in italics, not the handle to type.
 */
import assert from 'node:assert/strict';
import { renderWallet } from '../../views/md/wallet.js';
import type { ViewContext, Wallet } from '../../views/md/types.js';

const ctx: ViewContext = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-29T14:33:22Z', lagSeconds: 3, height: 8631, tipHeight: 8631 },
};

const address =
  'addr1q9c49gdd96vtafzhxm545z38x2ey572krv4ejtmxt4vhr2q8ztaed3j3slwxang2kld3w6r8pf6jh05cnv9uw0lqlt9qkchcum';

/** GET /wallet/$_gm_ as REST answers it: the handle asked for, and every handle the address holds. */
const wallet: Wallet = {
  address,
  stakeAddress: null,
  addresses: 1,
  complete: true,
  adaBalance: 10,
  rewards: null,
  positions: [],
  totals: { ada: 10, usd: 6.39, tokensAda: 0, rewardsAda: 0, unpriced: 0 },
  adaUsd: 0.639,
  handles: ['$_gm_', '$my_wallet', '$x.y-z'],
  handlesTotal: 3,
  handle: { name: '$_gm_', script: false },
};

describe('Markdown wallet view: handles', () => {
  it('names a handle with underscores as written, not as emphasis', () => {
    const lines = renderWallet(ctx, wallet, { items: [], nextCursor: null }, '$_gm_').split('\n');
    // Hand-escaped: an underscore at a word's edge after a backslash; one inside a word (my_wallet) opens nothing.
    assert.equal(lines[0], '# Wallet $\\_gm\\_');
    assert.equal(lines[4], `$\\_gm\\_ (${address}) · handles $\\_gm\\_, $my_wallet, $x.y-z`);
  });

  it('a stake key says when its rewards were read from the ledger (REST rewardsAsOf), not only the indexed tip', () => {
    // GET /wallet/stake1… on the devnet: rewards 21.347549 ADA, read by the staking recompute at 14:37:02, four
    // minutes after the indexed tip block (14:33) the as-of line names.
    const stake = 'stake1uyr397ukcegc0hrwe59t0kchdpns5afth6vfkz788ls04jsfzul3q';
    const key: Wallet = {
      ...wallet,
      address: stake,
      stakeAddress: stake,
      handles: [],
      handlesTotal: 0,
      rewards: 21.347549,
      rewardsAsOf: '2026-11-29T14:37:02.277Z',
      totals: { ...wallet.totals, ada: 31.347549, rewardsAda: 21.347549 },
    };
    delete key.handle;
    const text = renderWallet(ctx, key, { items: [], nextCursor: null }, stake);
    assert.match(text, /^\| 10 \| 21\.347549 \|/m);
    assert.match(
      text,
      /^_Staking rewards as the ledger reported them at 2026-11-29 14:37 UTC, less the withdrawals indexed since_$/m,
    );
    // A payment address has no rewards of its own: no such line.
    assert.doesNotMatch(renderWallet(ctx, wallet, { items: [], nextCursor: null }, '$_gm_'), /Staking rewards as/);
  });
});

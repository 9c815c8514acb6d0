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
});

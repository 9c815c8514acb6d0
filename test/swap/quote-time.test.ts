/**
 * The swap page's "as of" beside its quote (api/pages/swap/quote-time.ts, bundled into the page): the time of the pool
 * states the quote was computed on (the quote's asOf, the indexed tip's block time), not the moment the page fetched it.
 */
import assert from 'node:assert/strict';
import { quoteTimeText } from '../../api/pages/swap/quote-time.js';

describe('swap page: the time its quote is as of', () => {
  const now = Date.parse('2026-12-01T06:46:20.000Z');

  it('is the quote’s asOf, not the time the page fetched it', () => {
    assert.equal(quoteTimeText('2026-12-01T06:46:10.000Z', now), 'as of 06:46:10 UTC');
  });

  it('names the day when the pool states are not from today: an index hours behind the chain is not "now"', () => {
    // A quote fetched at 06:46 on 1 December from an index at 12:27 the day before (a catch-up 18 h behind) read
    // "as of 06:46:20 UTC".
    assert.equal(quoteTimeText('2026-11-30T12:27:54.000Z', now), 'as of 2026-11-30 12:27:54 UTC');
  });

  it('says nothing when the quote names no time (no block indexed yet)', () => {
    assert.equal(quoteTimeText(null, now), '');
    assert.equal(quoteTimeText(undefined, now), '');
    assert.equal(quoteTimeText('not a time', now), '');
  });
});

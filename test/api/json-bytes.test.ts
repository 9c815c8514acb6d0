/**
 * JSON answers with long strings (inline logos) spliced in from serialised copies: the bytes must be exactly
 * JSON.stringify's, and the ETag must change with the bytes and nothing else.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonBytes } from '../../api/json-bytes.js';

/** A data URI as the logo store serves them, `n` characters of base64 after the prefix. */
const dataUri = (seed: string, n: number) =>
  `data:image/png;base64,${Buffer.from(seed.repeat(Math.ceil((n * 3) / 4 / seed.length) + 1))
    .toString('base64')
    .slice(0, n)}`;

const longText = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), fc.integer({ min: 2048, max: 9000 }))
  .map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n));
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    longText,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('JSON answers as bytes (api/json-bytes.ts)', () => {
  it('a trade list repeating two inline logos: the same bytes as JSON.stringify, and the same ETag every time', () => {
    const logoA = dataUri('token A logo', 40_000);
    const logoB = dataUri('token B "quoted" é ✓ logo', 9_000);
    const body = {
      items: Array.from({ length: 100 }, (_, i) => ({
        txHash: `${i}`.padStart(64, '0'),
        base: { ticker: 'A', logo: logoA },
        quote: { ticker: 'ADA', logo: i % 3 ? logoB : null },
        amount: i * 1.5,
      })),
      asOf: '2026-11-25T00:00:00.000Z',
    };
    const plain = Buffer.from(JSON.stringify(body));
    const first = jsonBytes(body, true);
    const again = jsonBytes(structuredClone(body), true);
    assert.ok(first.bytes.equals(plain));
    assert.ok(again.bytes.equals(plain));
    assert.equal(again.etag, first.etag, 'an equal answer (new objects, cached logos) keeps its ETag');
    const changed = structuredClone(body);
    (changed.items[7] as { amount: number }).amount = 0;
    assert.notEqual(jsonBytes(changed, true).etag, first.etag, 'a changed amount changes the ETag');
    const otherLogo = structuredClone(body);
    otherLogo.items[0]!.base.logo = logoA.slice(0, -1) + (logoA.endsWith('A') ? 'B' : 'A');
    assert.notEqual(jsonBytes(otherLogo, true).etag, first.etag, 'one changed logo byte changes the ETag');
  });

  it('an answer without long strings (logos=url, no logo) gets the same bytes and ETag with or without splicing', () => {
    const body = {
      items: Array.from({ length: 50 }, (_, i) => ({
        unit: `${i}`.padStart(56, 'a'),
        logo: `https://example.org/api/v1/assets/${i}/logo`,
        when: new Date(Date.UTC(2026, 0, 1 + i)),
        tags: ['x'.repeat(2047), null, i],
      })),
      asOf: '2026-11-25T00:00:00.000Z',
    };
    const spliced = jsonBytes(body, true);
    const plain = jsonBytes(body, false);
    assert.ok(spliced.bytes.equals(Buffer.from(JSON.stringify(body))));
    assert.ok(spliced.bytes.equals(plain.bytes));
    assert.equal(spliced.etag, plain.etag);
    // One string reaching the limit, deep in the last item, switches to splicing: the same bytes, another ETag form.
    const withLogo = structuredClone(body);
    withLogo.items[49]!.tags[0] = 'x'.repeat(2048);
    const long = jsonBytes(withLogo, true);
    assert.ok(long.bytes.equals(Buffer.from(JSON.stringify(withLogo))));
    assert.notEqual(long.etag, jsonBytes(withLogo, false).etag, 'the long string was spliced in');
  });

  it('any JSON value: the same bytes as JSON.stringify, equal values get equal ETags, different bytes different ones', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const ja = jsonBytes(a, true);
        assert.ok(ja.bytes.equals(Buffer.from(JSON.stringify(a))));
        assert.equal(jsonBytes(structuredClone(a), true).etag, ja.etag);
        const jb = jsonBytes(b, true);
        if (!ja.bytes.equals(jb.bytes)) assert.notEqual(ja.etag, jb.etag);
      }),
      { numRuns: 300, seed: 16 },
    );
  });
});

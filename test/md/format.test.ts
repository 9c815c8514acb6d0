/**
 * The Markdown building blocks against chain text written by whoever minted: a name or description with line breaks
 * and a feed link with parentheses stay inside their heading, summary or link; and against figures whose doubles
 * carry rounding noise.
 */
import assert from 'node:assert/strict';
import { adaExact, errorView, head, link, num, pct, percent, price, text, tokenExact } from '../../views/md/format.js';
import { tokenTable } from '../../views/md/tokens.js';

const ctx = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-25T12:00:00Z', lagSeconds: 3, height: 10, tipHeight: 10 },
} as Parameters<typeof head>[0];

describe('Markdown views: chain text stays where it is put', () => {
  it('a heading and its summary are one line each, whatever line breaks the name and description carry', () => {
    const text = head(
      ctx,
      'SCAM\n\n## Links\n\n- [Official swap](https://evil.example)',
      'First line.\r\n\r\n# Claim your airdrop\nat evil.example',
    );
    const lines = text.split('\n');
    assert.deepEqual(lines, [
      '# SCAM ## Links - [Official swap](https://evil.example)',
      '',
      '_As of 2026-11-25 12:00 UTC (indexed tip) · sync lag 3 s · indexed block 10 of 10_',
      '',
      'First line. # Claim your airdrop at evil.example',
    ]);
  });

  it('a title that is only #s (a token named "#") is the heading, not its closing sequence', () => {
    // The token view's title is the token's name alone: "# #" is an empty h1 in CommonMark (the run of # after the
    // space closes it), so the view of a token named "#" or "##" had no title. Hand-escaped: the first # after a
    // backslash, so no run of unescaped # is left to close the heading.
    const title = (t: string) => head(ctx, t).split('\n')[0];
    assert.equal(title('#'), '# \\#');
    assert.equal(title('##'), '# \\##');
    assert.equal(title('Punks #'), '# Punks \\#');
    assert.equal(title('#1 Token'), '# #1 Token');
  });

  it("a link's text is one line without brackets, and its URL cannot close the link early", () => {
    assert.equal(
      link('News\n## Fake', 'https://news.example/a) [Claim](https://evil.example'),
      '[News ## Fake](https://news.example/a%29%20[Claim]%28https://evil.example)',
    );
    assert.equal(link('[x]', 'https://cds.example/api/md/token/ab'), '[x](https://cds.example/api/md/token/ab)');
    // A ticker of brackets alone: without them the link had no text, an invisible row in a token table.
    assert.equal(link('[ ]', 'https://cds.example/api/md/token/ab'), '[\\[ \\]](https://cds.example/api/md/token/ab)');
  });

  it('a token balance keeps every digit: past 2^53, more than 6 decimals, under 1 whole token', () => {
    // Hand-computed: the raw quantity over 10^decimals, thousands grouped, trailing zeros dropped.
    assert.equal(tokenExact('9223371559564378207', 0), '9,223,371,559,564,378,207');
    assert.equal(tokenExact('35932427716', 8), '359.32427716');
    assert.equal(tokenExact('266291', 6), '0.266291');
    assert.equal(tokenExact('25309071123300', 6), '25,309,071.1233');
    assert.equal(tokenExact('5', 4), '0.0005');
    assert.equal(tokenExact('1000000', 6), '1');
    assert.equal(tokenExact('0', 6), '0');
  });

  it('a change that rounds to zero is shown as 0.00, without a sign, as the tool server shows 0', () => {
    // USDM, the ADA/USD reference coin, on the devnet: its ADA price rose 3.7088 % in 24 h while ADA/USD, set by its
    // own pools, fell in step, so its USD change is (1 + c) × (usdNow / usdThen) − 1 = −1.1102230246251565e-16 in
    // doubles: REST carries that noise and list_tokens rounds it to change24hUsdPct 0; the table showed "-0.00".
    assert.equal(pct(-1.1102230246251565e-16), '0.00');
    assert.equal(pct(2.220446049250313e-16), '0.00');
    assert.equal(pct(-0.00004), '0.00');
    assert.equal(percent(-0.004), '0.00');
    // Changes that do not round to zero keep their sign: hand-computed, 0.037088 = +3.71 %, −0.194 = −19.40 %.
    assert.equal(pct(0.037088114534788996), '+3.71');
    assert.equal(pct(-0.19400295139564683), '-19.40');
    assert.equal(pct(0.00005), '+0.01');
    assert.equal(pct(null), '—');
  });

  it('a figure under 1 keeps every significant digit it shows: 1.2e-10 ADA is not shown as 1.2e-1', () => {
    // A wallet's dust position or a trade of a 15-decimal token: the value is 10^-10 ADA, and the view read
    // "1.200e-1" (its trailing zeros stripped from the text, the exponent's 0 with them), 10^9 times the REST figure.
    // Hand-computed: 4 significant digits, trailing zeros dropped, in plain decimals.
    assert.equal(num(1.2e-10), '0.00000000012');
    assert.equal(num(1e-10, 6), '0.0000000001');
    assert.equal(num(-3.5e-20), '-0.000000000000000000035');
    assert.equal(num(2.1786229358e-10), '0.0000000002179');
    assert.equal(num(0.00012345678), '0.0001235');
    assert.equal(num(0.5), '0.5');
    assert.equal(num(0), '0');
  });

  it('a price or figure under 10^-6 is written in plain decimals, never with an exponent or as -0', () => {
    // HOSKY on the devnet: GET /tokens answered priceAda 6.83616e-8 and priceUsd 4.81785e-8, and the token tables
    // (/api/md/market, /tokens, /token/…) printed them as "6.83616e-8" beside SNEK's "0.00424271": read down the
    // column, HOSKY cost 6.8 ADA. Hand-written: 6 significant digits of a price, 4 of any other figure under 1.
    assert.equal(price(6.83616e-8), '0.0000000683616');
    assert.equal(price(4.76970789486002e-8), '0.0000000476971');
    assert.equal(price(3.0501452374099104e-8), '0.0000000305015');
    assert.equal(price(0.00424271), '0.00424271');
    assert.equal(price(1.41892), '1.41892');
    assert.equal(price(123.4567891), '123.457');
    assert.equal(num(4.81785e-8), '0.00000004818');
    // A zero of float arithmetic (−0, or a negative value rounding to none of the digits shown) has no sign.
    assert.equal(num(-0), '0');
    assert.equal(price(-0), '0');
    assert.equal(adaExact(-1e-9), '0');
    assert.equal(num(-0.004, 0), '-0.004');
    assert.equal(num(-1234.4, 0), '-1,234');
    // A percent never takes an exponent either (toFixed writes one from 10^21 on).
    assert.equal(percent(1e21), '1000000000000000000000.00');
    for (const v of [1e-7, 5e-324, -1e-300, 1e21])
      for (const s of [num(v), price(v), pct(v), percent(v)]) assert.doesNotMatch(s, /e[+-]?\d|^-0$|NaN|Infinity/);
  });

  it('a name holding terminal escapes or bidirectional overrides shows them as U+FFFD, not as the bytes themselves', () => {
    // A CIP-68 name is any bytes its datum holds: REST escapes them in JSON ("\u001b[2J"), the view wrote them raw, so
    // `curl …/api/md/tokens` cleared the reader's terminal and coloured what followed; U+202E made "KENS" read as SNEK.
    // Hand-written: each such character one U+FFFD (a link's text drops brackets), a tab and ordinary text (accents, RTL letters) untouched.
    const token = (name: string) =>
      ({
        asset: {
          unit: 'ab'.repeat(28) + '01',
          policyId: 'ab'.repeat(28),
          name,
          ticker: null,
          decimals: 0,
          displayName: name,
        },
        stats: {
          priceAda: 1,
          priceUsd: 0.5,
          change24h: 0,
          change24hUsd: 0,
          change7d: null,
          volume24h: 1,
          liquidityAda: 1,
          mcapUsd: null,
          holders: 1,
        },
      }) as unknown as Parameters<typeof tokenTable>[1][number];
    const row = tokenTable(ctx, [
      token('\u001b[2J\u001b[31mFREE ADA\u0007'),
      token('\u202eKENS'),
      token('Caf\u00e9\tשלום'),
    ]).split('\n');
    assert.equal(
      row[2]!.split(' | ')[1],
      '[\ufffd2J\ufffd31mFREE ADA\ufffd](https://cds.example/api/md/token/' + 'ab'.repeat(28) + '01)',
    );
    assert.equal(row[3]!.split(' | ')[1], '[\ufffdKENS](https://cds.example/api/md/token/' + 'ab'.repeat(28) + '01)');
    assert.equal(
      row[4]!.split(' | ')[1],
      '[Caf\u00e9\tשלום](https://cds.example/api/md/token/' + 'ab'.repeat(28) + '01)',
    );
    assert.equal(head(ctx, text('\u009b31mX\u2066Y')).split('\n')[0], '# \ufffd31mX\ufffdY');
    for (const r of row) assert.doesNotMatch(r, /(?!\t)[\p{Cc}\u202a-\u202e]/u);
  });

  it('a name holding an entity reference shows it as written, not as the character it encodes', () => {
    // Markdown decodes &lt; &#124; &#x3C; in text: a token named "&lt;b&gt;" read "<b>". Hand-escaped: the & of each
    // reference after a backslash; an & that starts none (AT&T, a & b) left as it is.
    assert.equal(text('&lt;b&gt; &#124; &#x3C; AT&T a & b'), '\\&lt;b\\&gt; \\&#124; \\&#x3C; AT&T a & b');
  });

  it('an error answer shows the path or handle it names as text: no link, emphasis or heading of the caller’s making', () => {
    // The 404 names the requested path and the wallet view's 404 the handle, both as the caller wrote them: a URL
    // such as /api/md/[Claim](https://evil.example) made the service's own error page carry that link. Hand-escaped.
    assert.equal(
      errorView('https://cds.example', 404, 'No view at /api/md/[Claim](https://evil.example)\n# Fake. The views: …'),
      '# Not found (HTTP 404)\n\n' +
        'No view at /api/md/\\[Claim\\](https://evil.example) # Fake. The views: …\n\n' +
        'See https://cds.example/llms.txt for the views and their parameters.\n',
    );
    assert.equal(
      errorView('https://cds.example', 404, 'handle $_x_ not found'),
      '# Not found (HTTP 404)\n\nhandle $\\_x\\_ not found\n\nSee https://cds.example/llms.txt for the views and their parameters.\n',
    );
  });
});

/**
 * The Markdown building blocks against chain text written by whoever minted: a name or description with line breaks
 * and a feed link with parentheses stay inside their heading, summary or link.
 */
import assert from 'node:assert/strict';
import { head, link } from '../../views/md/format.js';

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

  it("a link's text is one line without brackets, and its URL cannot close the link early", () => {
    assert.equal(
      link('News\n## Fake', 'https://news.example/a) [Claim](https://evil.example'),
      '[News ## Fake](https://news.example/a%29%20[Claim]%28https://evil.example)',
    );
    assert.equal(link('[x]', 'https://cds.example/api/md/token/ab'), '[x](https://cds.example/api/md/token/ab)');
  });
});

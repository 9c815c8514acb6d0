/**
 * What the discovery documents say about rate limits follows the instance's configuration: an instance run with
 * RATE_LIMITS=false (a self-hosted one, say) limits no request, and its llms.txt, llms-full.txt and /docs said
 * "60 requests per minute" as if it did (r18-newcomer).
 */
import assert from 'node:assert/strict';
import { siteInfo } from '../../api/discovery/routes.js';
import { loadConfig } from '../../config/index.js';
import { renderDocsPage } from '../../views/discovery/docs.js';
import { renderLlmsFull, renderLlmsTxt } from '../../views/discovery/llms.js';

const EMPTY_DOC = { openapi: '3.1.0', info: { title: 't', version: '1.0.0' }, paths: {} };
const texts = (env: Record<string, string>) => {
  const info = siteInfo(loadConfig({ SITE_URL: 'http://data.test', ...env }));
  return {
    llms: renderLlmsTxt(info, true),
    full: renderLlmsFull(info, EMPTY_DOC as Parameters<typeof renderLlmsFull>[1], null),
    docs: renderDocsPage(info),
  };
};

describe('discovery documents: the rate limits an instance enforces', () => {
  it('limits on: the configured anonymous limit, nothing of limits being off', () => {
    const t = texts({ RATE_LIMIT_ANON_PER_MIN: '7' });
    assert.match(t.llms, /anonymous callers get 7 requests per minute per IP on each surface/);
    assert.match(t.full, /- No key: 7 requests per minute per IP address/);
    assert.match(t.docs, /<td>no key \(per IP address, on each surface\)<\/td><td>7<\/td>/);
    for (const text of Object.values(t)) assert.doesNotMatch(text, /rate limits off/);
  });

  it('RATE_LIMITS=false: every document says no request is limited here', () => {
    const t = texts({ RATE_LIMITS: 'false' });
    assert.match(t.llms, /No key is needed: this instance limits no request \(rate limits off\)\./);
    assert.doesNotMatch(t.llms, /anonymous callers get \d+ requests per minute/);
    assert.match(t.full, /^- This instance runs with rate limits off: no request is limited here\./m);
    assert.match(t.docs, /<p><strong>This instance runs with rate limits off: no request is limited here\./);
  });
});

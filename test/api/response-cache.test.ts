import assert from 'node:assert/strict';
import { ResponseCache } from '../../api/response-cache.js';

describe('ResponseCache', () => {
  it('serves the serialized bytes it stored and evicts the least recently used past its entry bound', () => {
    const c = new ResponseCache(2, 1_000_000);
    assert.equal(c.set('a', { n: 1 }).toString(), '{"n":1}');
    c.set('b', { n: 2 });
    assert.ok(c.get('a')); // a is now the most recently used
    c.set('c', { n: 3 });
    assert.equal(c.get('b'), undefined);
    assert.equal(c.get('a')?.toString(), '{"n":1}');
    assert.equal(c.get('c')?.toString(), '{"n":3}');
  });

  it('stays within its byte bound and does not keep an answer larger than a sixteenth of it', () => {
    const c = new ResponseCache(100, 1600);
    for (let i = 0; i < 20; i++) c.set(`k${i}`, { pad: 'x'.repeat(80) });
    const kept = Array.from({ length: 20 }, (_, i) => c.get(`k${i}`)).filter(Boolean);
    assert.ok(kept.length > 0 && kept.reduce((n, b) => n + (b as Buffer).length, 0) <= 1600);
    assert.ok(c.get('k19'), 'the newest stays');
    assert.equal(c.set('big', { pad: 'y'.repeat(200) }).length > 100, true);
    assert.equal(c.get('big'), undefined);
  });
});

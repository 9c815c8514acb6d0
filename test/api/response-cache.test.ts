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

  it('lets go of answers whose window has ended once a later answer is kept (a burst does not stay held)', () => {
    let now = 1_000_000;
    const c = new ResponseCache<{ expires: number }>(5_000, 64 * 1024 * 1024, () => now);
    // A burst of distinct URLs within one window of 1 s: each answer is kept until its window ends.
    for (let i = 0; i < 100; i++) c.setBytes(`/pools?x=${i}`, Buffer.alloc(10_000), { expires: now + 1_000 });
    assert.ok(c.peek('/pools?x=0') && c.peek('/pools?x=99'));
    now += 500;
    c.setBytes('/tokens', Buffer.alloc(10), { expires: now + 1_000 });
    assert.ok(c.peek('/pools?x=0'), 'an answer still in its window stays');
    // The burst's window is over: no reader serves those answers again, and the next answer kept drops them.
    now += 600;
    c.setBytes('/market', Buffer.alloc(10), { expires: now + 1_000 });
    for (let i = 0; i < 100; i++) assert.equal(c.peek(`/pools?x=${i}`), undefined, `/pools?x=${i} is still held`);
    assert.ok(c.peek('/tokens') && c.peek('/market'), 'answers in their window stay');
  });
});

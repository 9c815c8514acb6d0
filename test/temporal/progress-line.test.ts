import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { progressPrinter } from '../../temporal/embedded.js';

/**
 * The sync's progress line, as `npm run worker` logs it (and `npm start` when its stdout is not a terminal). On
 * FerretDB a slice commits 10-20 devnet blocks in a minute or two: seen in an r26 run, "sync: block 70/732 … 0
 * blocks/s" while the sync was progressing at about 0.1 blocks/s, which reads as a stalled sync.
 */
function printed(blocks: number, seconds: number, height: number): { msg: string; blocksPerSecond: number } {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = pino({ level: 'info' }, out);
  progressPrinter(
    log,
    () => true,
  )({
    blocks,
    rollbacks: 0,
    rolledBackBlocks: 0,
    deepestRollback: 0,
    deepRollback: false,
    height,
    slot: height * 20,
    tipHeight: 732,
    tipSlot: 14_391,
    atTip: false,
    blocksPerSecond: blocks / seconds,
  });
  assert.equal(lines.length, 1, lines.join(''));
  return JSON.parse(lines[0]!) as { msg: string; blocksPerSecond: number };
}

describe('sync progress line', () => {
  it('a slow slice (12 blocks in 100 s on FerretDB) says 0.12 blocks/s, not 0', () => {
    const p = printed(12, 100, 72);
    assert.equal(p.msg, 'sync: block 72/732 slot 1440/14391 (660 behind) 0.12 blocks/s');
    assert.equal(p.blocksPerSecond, 0.12);
  });

  it('a fast slice keeps whole numbers (500 blocks in 1.1 s: 455 blocks/s)', () => {
    const p = printed(500, 1.1, 600);
    assert.equal(p.msg, 'sync: block 600/732 slot 12000/14391 (132 behind) 455 blocks/s');
    assert.equal(p.blocksPerSecond, 455);
  });

  it('between 1 and 10 blocks/s: two significant digits (30 blocks in 8 s: 3.8)', () => {
    assert.equal(printed(30, 8, 100).blocksPerSecond, 3.8);
  });
});

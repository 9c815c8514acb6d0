/**
 * Compressed answers whose last bytes are written per request (api/compress-tail.ts): the kept part is compressed
 * once, each request adds its tail, and what goes out must be one stream that a standard decoder reads as the
 * identity bytes. The oracles are decoders other than this code: zlib's gunzip and brotli decoders (the reference C
 * libraries Node ships) and the system's `gzip -d`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { answerWithTail, codedWithTail, type TailCoded } from '../../api/compress-tail.js';
import type { Coding } from '../../api/compress.js';

const decode = (bytes: Buffer, coding: Coding) => (coding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes));

/** Real chain JSON of the size of a tool answer: a recorded Ogmios Conway block (42 KB). */
const recorded = readFileSync(
  path.resolve(
    process.cwd(),
    '../shared/fixtures/chain/ogmios/generated-v6.14.0/chainsync/nextBlock.rollForward.conway.023.json',
  ),
);

describe('compressed answers with a per-request tail', () => {
  const kepts: [string, Buffer][] = [
    [
      'a 42 KB block as JSON text, as a result carries it',
      Buffer.from(JSON.stringify({ result: { text: recorded.toString() } })),
    ],
    ['1 KB of random bytes (incompressible)', randomBytes(1024)],
    ['300 KB of repeated text', Buffer.from('{"unit":"f43a62fdc3965df486de8a0d","qty":"1"},'.repeat(6_700))],
  ];
  const tails = [',"id":1}', ',"id":"a string id with \\"quotes\\" and ünïcode"}', 'x', 'y'.repeat(65_535)];

  for (const coding of ['br', 'gzip'] as const)
    for (const [name, kept] of kepts)
      it(`${coding}: ${name} + each tail decodes to the identity bytes`, () => {
        const coded: TailCoded = {};
        for (const tail of tails.map((t) => Buffer.from(t))) {
          const bytes = codedWithTail(kept, coded, tail, coding);
          assert.ok(bytes);
          assert.ok(decode(bytes, coding).equals(Buffer.concat([kept, tail])), `tail of ${tail.length} bytes`);
        }
      });

  it('gzip: the system gzip reads the stream, trailer (CRC-32, length) included', () => {
    const kept = kepts[0]![1];
    const tail = Buffer.from(',"id":42}');
    const bytes = codedWithTail(kept, {}, tail, 'gzip')!;
    const out = execFileSync('gzip', ['-dc'], { input: bytes });
    assert.ok(out.equals(Buffer.concat([kept, tail])));
    // A wrong CRC is caught: the trailer is checked, so the test above checked it.
    const bad = Buffer.from(bytes);
    bad.writeUInt8(bad.readUInt8(bad.length - 8) ^ 1, bad.length - 8);
    assert.throws(() => execFileSync('gzip', ['-dc'], { input: bad, stdio: 'pipe' }));
  });

  it('compresses the kept part once per coding; a request adds only its tail', () => {
    const kept = kepts[2]![1];
    const coded: TailCoded = {};
    const a = codedWithTail(kept, coded, Buffer.from(',"id":1}'), 'br')!;
    const head = coded.br!;
    const b = codedWithTail(kept, coded, Buffer.from(',"id":2}'), 'br')!;
    assert.equal(coded.br, head, 'the same compressed head');
    assert.ok(a.subarray(0, head.length).equals(head) && b.subarray(0, head.length).equals(head));
    assert.equal(b.length - head.length, 3 + 8 + 1, 'a literal meta-block: 3-byte header, the tail, the last block');
    assert.ok(head.length < kept.length / 20, `${head.length} compressed bytes of ${kept.length}`);
    codedWithTail(kept, coded, Buffer.from(',"id":3}'), 'gzip');
    const gz = coded.gzip!.head;
    codedWithTail(kept, coded, Buffer.from(',"id":4}'), 'gzip');
    assert.equal(coded.gzip!.head, gz);
  });

  it('answers in identity bytes when the kept part is under 1 KB, no coding is taken, or the tail is too long', () => {
    const small = Buffer.from('{"result":{},"jsonrpc":"2.0"');
    const tail = Buffer.from(',"id":1}');
    assert.deepEqual(answerWithTail(small, {}, tail, 'br'), { bytes: Buffer.concat([small, tail]), coding: null });
    const big = kepts[2]![1];
    assert.equal(answerWithTail(big, {}, tail, null).coding, null);
    const huge = Buffer.from('z'.repeat(65_536));
    assert.equal(codedWithTail(big, {}, huge, 'gzip'), null);
    const sent = answerWithTail(big, {}, huge, 'br');
    assert.equal(sent.coding, null);
    assert.ok(sent.bytes.equals(Buffer.concat([big, huge])));
    const br = answerWithTail(big, {}, tail, 'br');
    assert.equal(br.coding, 'br');
    assert.ok(brotliDecompressSync(br.bytes).equals(Buffer.concat([big, tail])));
  });
});

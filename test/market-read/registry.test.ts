import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { imageType, importRegistry, logRegistryImport, parseRegistryEntry } from '../../activities/registry/import.js';
import { loadAssets } from '../../api/present/market.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { LOGOS, TOKENS, TOKEN_META } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';

const REGISTRY = path.resolve(process.cwd(), 'registry');
const BTN = '016be5325fd988fea98ad422fcfd53e5352cacfced5c106a932a35a442544e';
/** The logo image of a registry entry, as its file holds it. */
const logoBytes = (dir: string, unit: string) =>
  Buffer.from(
    (JSON.parse(readFileSync(path.join(dir, 'mappings', `${unit}.json`), 'utf8')) as { logo: { value: string } }).logo
      .value,
    'base64',
  );

/** Registry metadata documents in the store. */
async function countOf(store: Store): Promise<number> {
  let n = 0;
  for await (const _ of store.collection(TOKEN_META).scan()) n++;
  return n;
}

describe('token registry import (real CIP-26 files)', () => {
  let store: Store;
  let dir: string;
  before(async () => {
    store = await openMemoryStore();
    await store.ensureIndexes([TOKEN_META, LOGOS, TOKENS]);
    dir = mkdtempSync(path.join(tmpdir(), 'registry-'));
    cpSync(REGISTRY, dir, { recursive: true });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports every mapping: name, ticker, decimals, description, url, and the logo with its type and sha-256', async () => {
    const r = await importRegistry(store, dir);
    assert.equal(r.files, 170);
    assert.equal(r.written, 170);
    assert.deepEqual(r.skipped, []);
    const m = await store.collection(TOKEN_META).get(BTN);
    assert.deepEqual(m, {
      _id: BTN,
      name: 'BTN',
      ticker: 'BTN',
      decimals: 6,
      description: 'BTN is the native token of Butane, an advanced synthetics protocol.',
      url: 'https://butane.dev',
      hasLogo: true,
      logoVersion: `image/png ${createHash('sha256').update(logoBytes(dir, BTN)).digest('hex')}`,
    });
    const logo = await store.collection(LOGOS).get(BTN);
    const bytes = logoBytes(dir, BTN);
    assert.equal(logo?.contentType, 'image/png');
    assert.equal(logo?.etag, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(logo?.base64, bytes.toString('base64'));
  });

  it('is idempotent: a second import writes nothing', async () => {
    const r = await importRegistry(store, dir);
    assert.deepEqual([r.written, r.unchanged, r.removed], [0, 170, 0]);
  });

  it('picks up a changed entry and removes one whose file is gone', async () => {
    const file = path.join(dir, 'mappings', `${BTN}.json`);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { value: unknown }>;
    (entry.ticker as { value: unknown }).value = 'BTN2';
    writeFileSync(file, JSON.stringify(entry));
    const other = (await store.collection(TOKEN_META).find('_id', { limit: 2 }))[1]?._id as string;
    rmSync(path.join(dir, 'mappings', `${other}.json`));
    const r = await importRegistry(store, dir);
    assert.deepEqual([r.written, r.removed], [1, 1]);
    assert.equal((await store.collection(TOKEN_META).get(BTN))?.ticker, 'BTN2');
    assert.equal(await store.collection(TOKEN_META).get(other), null);
    assert.equal(await store.collection(LOGOS).get(other), null);
  });

  it('a changed logo is served at once: answers with inline logos carry the new image, not a reused one', async () => {
    const dataUri = async () => (await loadAssets(store, [BTN], 'http://x', 'data')).ref(BTN).logo;
    const before = await dataUri();
    assert.equal(before, `data:image/png;base64,${logoBytes(dir, BTN).toString('base64')}`);
    assert.equal(await dataUri(), before, 'the same image while the registry entry is unchanged');
    // Another real registry image in BTN's entry, as a registry update would bring it.
    const other = (await store.collection(TOKEN_META).find('_id', { limit: 50 })).find(
      (m) => m.hasLogo && m._id !== BTN,
    )?._id as string;
    const file = path.join(dir, 'mappings', `${BTN}.json`);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { value: unknown }>;
    (entry.logo as { value: unknown }).value = logoBytes(dir, other).toString('base64');
    writeFileSync(file, JSON.stringify(entry));
    assert.equal((await importRegistry(store, dir)).written, 1);
    assert.equal(await dataUri(), `data:image/png;base64,${logoBytes(dir, other).toString('base64')}`);
  });

  it('a TOKEN_REGISTRY_DIR without mappings is a warning at start and removes nothing; a real one is an info line', async () => {
    const lines: { level: number; msg: string; files: number }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const before = await countOf(store);
    assert.ok(before > 0);
    const typo = path.join(dir, 'no-such-folder');
    logRegistryImport(log, typo, await importRegistry(store, typo));
    logRegistryImport(log, dir, await importRegistry(store, dir));
    assert.equal(await countOf(store), before, 'nothing removed');
    assert.deepEqual(
      lines.map((l) => [l.level, l.files]),
      [
        [40, 0],
        [30, before],
      ],
    );
    assert.match(
      lines[0]!.msg,
      /no mappings\/\*\.json under TOKEN_REGISTRY_DIR=.*no-such-folder; tokens get no registry/,
    );
  });

  it('recognises image types by their magic bytes and rejects entries that are not tokens', () => {
    assert.equal(imageType(Buffer.from('89504e470d0a1a0a0000', 'hex')), 'image/png');
    assert.equal(imageType(Buffer.from('ffd8ffe000104a464946', 'hex')), 'image/jpeg');
    assert.equal(imageType(Buffer.from('GIF89a')), 'image/gif');
    assert.equal(imageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'image/svg+xml');
    assert.equal(imageType(Buffer.from('hello')), null);
    assert.throws(() => parseRegistryEntry({ subject: 'nope' }), /subject/);
    assert.equal(parseRegistryEntry({ subject: 'aa'.repeat(28), logo: { value: 'aGVsbG8=' } }).meta.hasLogo, false);
  });
});

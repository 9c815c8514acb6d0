import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { imageType, importRegistry, logRegistryImport, parseRegistryEntry } from '../../activities/registry/import.js';
import { loadAssets } from '../../api/present/market.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { LOGOS, TOKENS, TOKEN_META, type TokenDoc } from '../../mongo/collections/market.js';
import { put } from '../../mongo/store.js';
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

  it('a mapping file that cannot be read (cut short by a copy) keeps the entry imported before, and says so', async () => {
    const file = path.join(dir, 'mappings', `${BTN}.json`);
    const good = readFileSync(file, 'utf8');
    const before = await store.collection(TOKEN_META).get(BTN);
    assert.ok(before);
    writeFileSync(file, good.slice(0, 200));
    try {
      const r = await importRegistry(store, dir);
      assert.equal(r.removed, 0);
      assert.deepEqual(
        r.skipped.map((s) => s.file),
        [`${BTN}.json`],
      );
      assert.match(r.skipped[0]!.reason, /JSON.*; the entry imported before is kept$/);
      assert.deepEqual(await store.collection(TOKEN_META).get(BTN), before);
      assert.ok(await store.collection(LOGOS).get(BTN));
    } finally {
      writeFileSync(file, good);
    }
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

  it('a TOKEN_REGISTRY_DIR that is a file is the same warning, with the reason, and removes nothing', async () => {
    // It stopped the worker at every start (npm start restarted it until its crash loop ended the service).
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const before = await countOf(store);
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    logRegistryImport(log, file, await importRegistry(store, file));
    assert.equal(await countOf(store), before, 'nothing removed');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.level, 40);
    assert.match(
      lines[0]!.msg,
      /^token registry: no mappings\/\*\.json under TOKEN_REGISTRY_DIR=.*a-file \(ENOTDIR: not a directory, scandir '.*a-file\/mappings'\); tokens get no registry/,
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

describe('token registry import: entries with unusable fields', () => {
  /** A CIP-68 (333) token whose reference datum says 6 decimals, as USDM's does on mainnet. */
  const FT = `${'c4'.repeat(28)}0014df10${Buffer.from('FOO').toString('hex')}`;
  const cip68Token: TokenDoc = {
    _id: FT,
    policyId: FT.slice(0, 56),
    nameHex: FT.slice(56),
    cip68: { name: 'Foo', ticker: 'FOO', decimals: 6, description: null, url: null, logo: null },
    totalSupplyRaw: '1000000000000',
    supplyFromMint: true,
    poolIds: [],
    primaryPoolId: null,
    firstPoolSlot: null,
    firstPoolExact: false,
    slot: 1,
  };
  let store: Store;
  let dir: string;
  const lines: { level: number; msg: string }[] = [];
  const write = (entry: Record<string, unknown>) =>
    writeFileSync(path.join(dir, 'mappings', `${entry.subject as string}.json`), JSON.stringify(entry));
  const prop = (value: unknown) => ({ sequenceNumber: 0, value, signatures: [] });
  const btnEntry = () =>
    JSON.parse(readFileSync(path.join(REGISTRY, 'mappings', `${BTN}.json`), 'utf8')) as Record<string, unknown>;
  before(async () => {
    store = await openMemoryStore();
    await store.ensureIndexes([TOKEN_META, LOGOS, TOKENS]);
    await store.write([put(TOKENS, cip68Token)]);
    dir = mkdtempSync(path.join(tmpdir(), 'registry-bad-'));
    mkdirSync(path.join(dir, 'mappings'));
    copyFileSync(path.join(REGISTRY, 'mappings', `${BTN}.json`), path.join(dir, 'mappings', `${BTN}.json`));
    // Registered in CIP-26 without decimals (optional there): the on-chain decimals still apply.
    write({ subject: FT, name: prop('Foo Token'), description: prop('Foo') });
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    logRegistryImport(log, dir, await importRegistry(store, dir));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a registry entry without decimals keeps the CIP-68 decimals: amounts are not shown in base units', async () => {
    const ref = (await loadAssets(store, [FT], 'http://x', 'url')).ref(FT);
    assert.equal(ref.name, 'Foo Token', 'the registry name comes first');
    assert.equal(ref.ticker, 'FOO', 'a field the registry lacks comes from CIP-68');
    assert.equal(ref.decimals, 6);
    assert.deepEqual(
      lines.map((l) => l.level),
      [30],
      'a clean registry logs its info line only',
    );
  });

  it('decimals of the wrong type or out of range, a non-text name, a non-image or oversized logo: left out and named in a warning', async () => {
    const bad = { ...btnEntry(), decimals: prop('6'), name: prop(42) };
    write(bad);
    const big = `${'a'.repeat(56)}4249474c4f474f`;
    const png = Buffer.from((btnEntry().logo as { value: string }).value, 'base64');
    write({
      subject: big,
      name: prop('Big logo'),
      decimals: prop(300),
      logo: prop(Buffer.concat([png, Buffer.alloc(70_000)]).toString('base64')),
    });
    const text = `${'b'.repeat(56)}54455854`;
    write({
      subject: text,
      name: prop('Text logo'),
      decimals: prop(2.5),
      logo: prop(Buffer.from('hello').toString('base64')),
    });
    writeFileSync(path.join(dir, 'mappings', 'broken.json'), '{"subject": ');
    lines.length = 0;
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const r = await importRegistry(store, dir);
    logRegistryImport(log, dir, r);

    const metas = await store.collection(TOKEN_META).getMany([BTN, big, text]);
    assert.deepEqual(
      metas.map((m) => [m?.name, m?.decimals, m?.hasLogo]),
      [
        [null, null, true],
        ['Big logo', null, false],
        ['Text logo', null, false],
      ],
    );
    assert.equal(await store.collection(LOGOS).get(big), null, 'an oversized logo is not served');
    const refs = await loadAssets(store, [BTN, big], 'http://x', 'data');
    assert.equal(refs.ref(big).logo, null);
    assert.equal(refs.ref(BTN).decimals, 0, 'no usable decimals anywhere: base units');

    assert.deepEqual(
      lines.map((l) => l.level),
      [30, 40],
    );
    const warn = lines[1]!.msg;
    assert.match(warn, /token registry: 1 of 5 mapping files skipped, 3 imported with unusable fields left out/);
    assert.match(
      warn,
      new RegExp(
        `${BTN}\\.json: decimals "6" is not an integer from 0 to 255; left out; name is not text \\(42\\); left out`,
      ),
    );
    assert.match(
      warn,
      new RegExp(
        `${big}\\.json: decimals 300 is not an integer from 0 to 255; left out; logo is \\d+ base64 characters, over the registry's 87400`,
      ),
    );
    assert.match(warn, new RegExp(`${text}\\.json: decimals 2\\.5 .*; logo is not a base64 PNG`));
  });
});

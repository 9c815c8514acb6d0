/**
 * A MONGODB_URI whose server does not answer, as an operator meets it: `npm start`, `npm run ops` and
 * `npm run mongo:indexes` stop with exit code 1 and one line naming MONGODB_URI and the driver's reason, the URI's
 * password redacted, no stack trace. (Each case starts a tsx process; the driver gives up after 500 ms.)
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../config/index.js';

const URI = 'mongodb://user:secret@127.0.0.1:1/?serverSelectionTimeoutMS=500';
const LINE =
  'MONGODB_URI=mongodb://user:***@127.0.0.1:1/?serverSelectionTimeoutMS=500: cannot open the store: ' +
  'MongoServerSelectionError: connect ECONNREFUSED 127.0.0.1:1';

describe('a MongoDB store that cannot be reached', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-unreachable-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const entryPoints: [string, string[]][] = [
    ['npm start', ['scripts/start.ts']],
    ['npm run ops -- status', ['scripts/ops.ts', 'status']],
    ['npm run mongo:indexes', ['scripts/mongo-indexes.ts']],
  ];
  for (const [what, args] of entryPoints)
    it(`${what}: exit 1, one line naming MONGODB_URI and the reason, the password never shown`, () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
        env: {
          ...process.env,
          MONGODB_URI: URI,
          DATA_DIR: dir,
          PORT: '0',
          // No devnet child: only the store is in question.
          OGMIOS_URL: 'ws://127.0.0.1:1',
          TEMPORAL_ADDRESS: '',
          LOG_LEVEL: 'warn',
        },
        encoding: 'utf8',
        timeout: 90_000,
      });
      const out = `${r.stdout}${r.stderr}`;
      assert.equal(r.status, 1, out);
      assert.ok(r.stderr.split('\n').includes(LINE), out);
      assert.doesNotMatch(out, /secret/);
      assert.doesNotMatch(out, /fatal:|^\s+at /m, 'no stack trace');
    });

  it('npm start as a deployed API replica (MongoDB, Temporal, Ogmios) creates no DATA_DIR', () => {
    // deploy/Dockerfile runs it as `node` in the root-owned /app, where ./data cannot be created: an API replica keeps
    // nothing there, so it must reach its store. DATA_DIR under a regular file cannot be created, even by root.
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...process.env,
        MONGODB_URI: URI,
        DATA_DIR: join(file, 'data'),
        PORT: '0',
        OGMIOS_URL: 'ws://127.0.0.1:1',
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        LOG_LEVEL: 'warn',
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 1, out);
    assert.ok(r.stderr.split('\n').includes(LINE), out);
    assert.doesNotMatch(out, /ENOTDIR|fatal:/);
  });

  it('a replica set URI (hosts with ports) is a MONGODB_URI', () => {
    const uri = 'mongodb://user:secret@db1.example:27017,db2.example:27018/?replicaSet=rs0&authSource=admin';
    assert.equal(loadConfig({ MONGODB_URI: uri }).MONGODB_URI, uri);
    assert.ok(loadConfig({ MONGODB_URI: 'mongodb+srv://user:secret@cluster0.example.net/db' }).MONGODB_URI);
  });

  it("a MONGODB_URI the driver cannot parse: exit 1, one line with the driver's reason, the password never shown", () => {
    // An '@' of the password not percent-encoded (the driver needs %40): the commonest mistake in a connection string.
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', 'status'], {
      env: {
        ...process.env,
        MONGODB_URI: 'mongodb://user:p@ssw0rd@127.0.0.1:1/db',
        DATA_DIR: dir,
        TEMPORAL_ADDRESS: '',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 1, out);
    assert.equal(
      out.trim(),
      'MONGODB_URI=mongodb://user:***@127.0.0.1:1/db: cannot open the store: MongoParseError: Invalid connection string',
    );
  });

  it('a bad MONGODB_URI is named without its password', () => {
    assert.throws(
      () => loadConfig({ MONGODB_URI: 'http://user:secret@db.example:27017' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message.includes('MONGODB_URI="http://user:***@db.example:27017": must be a URL') &&
        !e.message.includes('secret'),
    );
  });
});

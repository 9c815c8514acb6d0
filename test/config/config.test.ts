import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configTable, ConfigError, loadConfig } from '../../config/index.js';

describe('config', () => {
  it('uses the documented defaults with an empty environment (the embedded defaults)', () => {
    const c = loadConfig({});
    assert.equal(c.PORT, 8080);
    assert.equal(c.DATA_DIR, './data');
    assert.equal(c.MONGODB_URI, undefined);
    assert.equal(c.TEMPORAL_ADDRESS, undefined);
    assert.equal(c.OGMIOS_URL, undefined);
    assert.equal(c.SITE_URL, 'http://localhost:8080');
    assert.equal(c.RATE_LIMITS, true);
  });

  it('parses numbers, booleans and URLs', () => {
    const c = loadConfig({
      PORT: '9000',
      TRUST_PROXY: 'true',
      SITE_URL: 'https://data.example/',
      DEVNET_FORK_RATE: '0.1',
    });
    assert.equal(c.PORT, 9000);
    assert.equal(c.TRUST_PROXY, true);
    assert.equal(c.SITE_URL, 'https://data.example');
    assert.equal(c.DEVNET_FORK_RATE, 0.1);
  });

  it('names every bad key with what it must be', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', OGMIOS_URL: 'http://node:1337', TEMPORAL_ADDRESS: 'nohost' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /PORT="eighty": must be a whole number/.test(e.message) &&
        /OGMIOS_URL=.*ws: or wss:/.test(e.message) &&
        /TEMPORAL_ADDRESS=.*host:port/.test(e.message),
    );
    assert.throws(() => loadConfig({ PORT: '70000' }), ConfigError);
  });

  it('a name or folder with whitespace at either end is refused, not taken as a new folder or name', () => {
    // DATA_DIR=" /srv/cds" (a space after '=' in an env file) started on the folder " /srv/cds" under the working
    // directory: a new, empty store beside the service's real one.
    const keys = [
      'HOST',
      'DATA_DIR',
      'TOKEN_REGISTRY_DIR',
      'MONGODB_DB',
      'TEMPORAL_NAMESPACE',
      'TEMPORAL_TASK_QUEUE',
      'DEVNET_SEED',
    ];
    for (const key of keys)
      for (const bad of ['   ', ' /srv/cds', 'cds\t'])
        assert.throws(
          () => loadConfig({ [key]: bad }),
          (e: unknown) =>
            e instanceof ConfigError &&
            e.message.includes(`${key}=${JSON.stringify(bad)}: must not be blank nor begin or end with whitespace`),
          `${key}=${JSON.stringify(bad)}`,
        );
    assert.equal(loadConfig({ DATA_DIR: '/srv/my data' }).DATA_DIR, '/srv/my data');
  });

  it('a number past 2^53 is refused, not rounded to another (SYNC_START_POINT slot, PLAN_LIMITS)', () => {
    const hash = 'ab'.repeat(32);
    assert.throws(
      () => loadConfig({ SYNC_START_POINT: `99999999999999999999.${hash}` }),
      (e: unknown) =>
        e instanceof ConfigError && /SYNC_START_POINT=.*: its slot must be at most 9007199254740991/.test(e.message),
    );
    assert.deepEqual(loadConfig({ SYNC_START_POINT: `9007199254740991.${hash}` }).SYNC_START_POINT, {
      slot: 9007199254740991,
      id: hash,
    });
    assert.throws(
      () => loadConfig({ PLAN_LIMITS: `free=${'9'.repeat(400)}/1,plus=1/1,pro=1/1` }),
      (e: unknown) => e instanceof ConfigError && /PLAN_LIMITS=.*: .*limits from 1 to 9007199254740991/.test(e.message),
    );
    assert.equal(
      loadConfig({ PLAN_LIMITS: 'free=1/1,plus=1/1,pro=9007199254740991/1' }).PLAN_LIMITS.pro.perMinute,
      9007199254740991,
    );
  });

  it('SITE_URL is a site root: a query, fragment or credentials would break or leak in every link', () => {
    for (const bad of [
      'https://data.example/?ref=1',
      'https://data.example/#top',
      'https://user:pw@data.example',
      'https://data.example?',
    ])
      assert.throws(
        () => loadConfig({ SITE_URL: bad }),
        (e: unknown) =>
          e instanceof ConfigError &&
          /SITE_URL=".*": must be the site root, without a query, fragment, user or password/.test(e.message) &&
          !e.message.includes('pw@'),
        bad,
      );
    // A path prefix (a reverse proxy serving the site under /cardano) is a root.
    assert.equal(loadConfig({ SITE_URL: 'https://data.example/cardano/' }).SITE_URL, 'https://data.example/cardano');
  });

  it('TEMPORAL_ADDRESS is host:port with a port from 1 to 65535 (npm start served on with localhost:99999)', () => {
    for (const bad of ['localhost:99999', 'localhost:0', 'localhost:', ':7233', 'http://temporal:7233', 'a b:7233'])
      assert.throws(
        () => loadConfig({ TEMPORAL_ADDRESS: bad }),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.message.includes(`TEMPORAL_ADDRESS=${JSON.stringify(bad)}: must be host:port (a port from 1 to 65535)`),
        bad,
      );
    for (const good of ['localhost:7233', 'temporal_frontend:7233', '10.0.0.5:65535', '[::1]:7233'])
      assert.equal(loadConfig({ TEMPORAL_ADDRESS: good }).TEMPORAL_ADDRESS, good);
  });

  it('a bad configuration is one line per bad key, each naming the key, the value and what it must be', () => {
    assert.throws(
      () => loadConfig({ PORT: '-1', LOG_LEVEL: 'loud' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message ===
          'Invalid configuration: PORT="-1": Too small: expected number to be >=0\n' +
            'Invalid configuration: LOG_LEVEL="loud": Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
    );
  });

  it('the README documents every key exactly as the module does', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const row of configTable().split('\n')) assert.ok(readme.includes(row), `README lacks or differs on: ${row}`);
  });
});

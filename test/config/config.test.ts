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

  it('the README documents every key exactly as the module does', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const row of configTable().split('\n')) assert.ok(readme.includes(row), `README lacks or differs on: ${row}`);
  });
});

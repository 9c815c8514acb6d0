/**
 * `npm run devnet` on a DEVNET_PORT it cannot listen on (another devnet, another service has it), as an operator
 * meets it following the README (Configuration: a PORT it cannot listen on stops the process with one line naming
 * it). It crashed with the WebSocket server's unhandled `Error: listen EADDRINUSE` and a Node stack trace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heldPort } from './held-port.js';

describe('npm run devnet on a DEVNET_PORT it cannot listen on', function () {
  this.timeout(120_000);
  const held = heldPort('cds-devnet-port-');

  it('a port in use: exit 1, one line naming DEVNET_PORT, no stack trace', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/devnet.ts'], {
      env: {
        ...process.env,
        DATA_DIR: join(held.dir, 'data'),
        DEVNET_PORT: String(held.port),
        DEVNET_BACKFILL_HOURS: '0',
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    const lines = out.split('\n').filter((l) => l.trim() !== '');
    assert.equal(r.status, 1, out);
    assert.equal(lines.length, 1, out);
    assert.equal(
      lines[0],
      `DEVNET_PORT=${held.port} HOST=127.0.0.1: cannot listen there (the port is in use): listen EADDRINUSE: address already in use 127.0.0.1:${held.port}`,
    );
  });
});

describe('npm run devnet with a bad configuration value', function () {
  this.timeout(120_000);
  it('exits 2 with the message naming the key, as npm start, ops and the worker do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-devnet-config-'));
    try {
      for (const [key, value] of [
        ['DEVNET_PORT', 'abc'],
        ['DEVNET_FORK_RATE', '2'],
      ] as const) {
        const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/devnet.ts'], {
          env: { ...process.env, DATA_DIR: join(dir, 'data'), [key]: value },
          encoding: 'utf8',
          timeout: 90_000,
        });
        const out = `${r.stdout}${r.stderr}`;
        assert.equal(r.status, 2, `${key}=${value}: ${out}`);
        assert.match(out, new RegExp(`^Invalid configuration: ${key}="${value}": [^\\n]+\\n$`), out);
        // The same value stops npm start with exit 2 (the oracle: the README's rule as every other entry point keeps it).
        const start = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
          env: { ...process.env, DATA_DIR: join(dir, 'data'), [key]: value },
          encoding: 'utf8',
          timeout: 90_000,
        });
        assert.equal(start.status, 2, `npm start ${key}=${value}: ${start.stdout}${start.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

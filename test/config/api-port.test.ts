/**
 * `npm start` on a PORT it cannot listen on (another service has it; a second `npm start` on the default 8080), as an
 * operator meets it: exit 1 and one line naming PORT, HOST and the reason, before the devnet and the worker start.
 * It printed `fatal: Error: listen EADDRINUSE` with a stack trace after both had started, and the worker, its
 * parent gone, its own `embedded worker: fatal: Error: write EPIPE` stack.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { heldPort } from './held-port.js';

describe('npm start on a port it cannot listen on', function () {
  this.timeout(120_000);
  const held = heldPort('cds-api-port-');

  const start = (env: Record<string, string>) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...process.env,
        DATA_DIR: join(held.dir, 'data'),
        OGMIOS_URL: '',
        MONGODB_URI: '',
        TEMPORAL_ADDRESS: '',
        LOG_LEVEL: 'warn',
        ...env,
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    return { status: r.status, out, lines: out.split('\n').filter((l) => l.trim() !== '') };
  };

  it('a port in use: exit 1, one line naming PORT and HOST, no stack trace', () => {
    const { status, out, lines } = start({ PORT: String(held.port), HOST: '127.0.0.1' });
    assert.equal(status, 1, out);
    assert.equal(lines.length, 1, out);
    assert.equal(
      lines[0],
      `PORT=${held.port} HOST=127.0.0.1: cannot listen there (the port is in use): listen EADDRINUSE: address already in use 127.0.0.1:${held.port}`,
    );
  });

  it('a HOST that is no address of this machine: exit 1, one line', () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never assigned to a host.
    const { status, out, lines } = start({ PORT: String(held.port), HOST: '192.0.2.1' });
    assert.equal(status, 1, out);
    assert.equal(lines.length, 1, out);
    assert.match(
      lines[0] as string,
      /^PORT=\d+ HOST=192\.0\.2\.1: cannot listen there \(no such address\): .*EADDRNOTAVAIL/,
    );
  });
});

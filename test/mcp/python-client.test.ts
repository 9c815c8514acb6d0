/**
 * A second, independent client: the official Python MCP SDK (`mcp` 2.3.0 from PyPI) against /api/mcp on the devnet
 * world, in both eras (`auto` = server/discover then 2026-07-28; `legacy` = initialize, 2025-11-25). The SDK is
 * installed into a virtualenv at .tmp/mcp-py (or MCP_PYTHON names a python that has it); where PyPI or python3 is
 * not reachable the test prints a skip line.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '../../api/app.js';
import { TOOL_DEFINITIONS } from '../../api/mcp/tools.js';
import { acquireWorld, releaseWorld } from './world.js';

const run = promisify(execFile);
const VENV = resolve('.tmp/mcp-py');
const SCRIPT = new URL('./python/client.py', import.meta.url).pathname;

/** A python with the SDK: MCP_PYTHON, the venv, or a fresh venv with `pip install mcp==2.3.0`; null if impossible. */
async function pythonWithSdk(): Promise<string | null> {
  const candidates = [process.env.MCP_PYTHON, `${VENV}/bin/python`].filter((p): p is string => !!p);
  for (const py of candidates) {
    if (!existsSync(py)) continue;
    try {
      await run(py, ['-c', 'import mcp.client.client']);
      return py;
    } catch {
      /* not this one */
    }
  }
  try {
    await run('python3', ['-m', 'venv', VENV], { timeout: 60_000 });
    await run(`${VENV}/bin/pip`, ['install', '-q', 'mcp==2.3.0'], { timeout: 180_000 });
    return `${VENV}/bin/python`;
  } catch {
    return null;
  }
}

describe('MCP through the official Python SDK client', function () {
  this.timeout(300_000);
  let python: string | null = null;
  let server: Server | null = null;
  let url = '';
  let unit = '';

  before(async function () {
    python = await pythonWithSdk();
    if (!python) {
      console.log('      skipped: the Python MCP SDK (pip install mcp==2.3.0) could not be installed here');
      this.skip();
    }
    const world = await acquireWorld();
    server = createServer(createApp(world.deps).callback());
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `${base}/api/mcp`;
    const tokens = (await (await fetch(`${base}/api/v1/tokens?sort=liquidity&pageSize=1`)).json()) as {
      items: { asset: { unit: string } }[];
    };
    unit = tokens.items[0]!.asset.unit;
  });
  after(async () => {
    if (!server) return;
    server.close();
    await releaseWorld();
  });

  for (const [mode, revision] of [
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ] as const) {
    it(`${mode}: negotiates ${revision}, lists the tools in order, calls one, gets isError for a bad argument`, async () => {
      const { stdout } = await run(python!, [SCRIPT, url, mode, unit], { timeout: 60_000 });
      const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        protocolVersion: string;
        tools: string[];
        readOnly: boolean;
        token: { asset: { unit: string }; asOf: string };
        tokenIsError: boolean;
        badIsError: boolean;
        badText: string;
        searchHits: number;
      };
      assert.equal(r.protocolVersion, revision);
      assert.deepEqual(
        r.tools,
        TOOL_DEFINITIONS.map((t) => t.name),
      );
      assert.equal(r.readOnly, true);
      assert.equal(r.tokenIsError, false);
      assert.equal(r.token.asset.unit, unit);
      assert.ok(r.token.asOf);
      assert.equal(r.badIsError, true);
      assert.match(r.badText, /call it again/);
      assert.ok(r.searchHits > 0);
    });
  }
});

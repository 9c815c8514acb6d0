/**
 * `npm run ops -- status` and `runs` over a MongoDB server that stops answering once the store is open (a frozen
 * process, a stalled disk: its connections stay open, nothing comes back). The driver sets no socket timeout, so
 * the command waited for good; now it exits 1 with one line naming the store. The server is the real one
 * (MONGODB_URI, FerretDB in CI) behind a proxy that lets the handshake and the open's ping through and holds every
 * command from the first read on.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const uri = process.env.MONGODB_URI;

/**
 * A TCP proxy to `target` that forwards whole wire-protocol messages (little-endian int32 length first) until one
 * carries a read command (`find`, `count`, `aggregate` as a BSON string element name), then holds that one and every
 * later message of every connection: the server, seen from the client, froze.
 */
function freezingProxy(target: { host: string; port: number }): Promise<{ close(): Promise<void>; port: number }> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const isRead = (msg: Buffer) => ['find', 'count', 'aggregate'].some((c) => msg.includes(Buffer.from(`\x02${c}\x00`)));
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    client.on('data', (d: Buffer) => {
      pending = Buffer.concat([pending, d]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const msg = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(msg.length);
        if (!frozen && isRead(msg)) frozen = true;
        if (!frozen) upstream.write(msg);
      }
    });
    upstream.on('data', (d: Buffer) => client.write(d));
    for (const s of [client, upstream]) s.on('error', () => undefined).on('close', () => sockets.delete(s));
  });
  const close = () => {
    sockets.forEach((s) => s.destroy());
    return new Promise<void>((r) => server.close(() => r()));
  };
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ close, port: (server.address() as { port: number }).port })),
  );
}

describe('npm run ops over a MongoDB server that stops answering (MONGODB_URI)', function () {
  this.timeout(120_000);
  let dir: string;
  before(function () {
    if (!uri) {
      console.log('    skipped: ops over a frozen MongoDB server (set MONGODB_URI to run it)');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'cds-ops-frozen-'));
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  /** `npm run ops -- <args>` through its own freezing proxy: how it ended, what it printed, the URI it was given. */
  async function opsOverFrozenStore(args: string[]) {
    const target = new URL(uri as string);
    const proxy = await freezingProxy({ host: target.hostname, port: Number(target.port || 27017) });
    try {
      const proxied = new URL(uri as string);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', ...args], {
        env: {
          ...process.env,
          MONGODB_URI: proxied.toString(),
          MONGODB_DB: 'cardano_ops_frozen',
          DATA_DIR: dir,
          TEMPORAL_ADDRESS: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const ended = await new Promise<number | string | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve('still waiting after 60 s');
        }, 60_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
      return { ended, out: out.trim(), uri: proxied.toString() };
    } finally {
      await proxy.close();
    }
  }

  it('ops status and ops runs: exit 1 with one line naming the store, instead of waiting for good', async () => {
    // Both at once: each waits out the 15 s the reads are given.
    for (const r of await Promise.all([opsOverFrozenStore(['status']), opsOverFrozenStore(['runs', '--failed'])])) {
      assert.equal(r.ended, 1, r.out);
      assert.equal(r.out, `the store (MONGODB_URI=${r.uri}) did not answer within 15 s`);
    }
  });
});

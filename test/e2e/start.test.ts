/**
 * `npm start` as a newcomer runs it, on the embedded defaults with an empty DATA_DIR: the devnet comes up, the sync
 * follows it to the tip, the scheduled recomputes run, and the ledger-derived endpoints answer with devnet data.
 * The sync and the scheduled jobs run in the embedded worker, a child process beside the devnet's: a worker killed
 * with SIGKILL is logged at error level, /readyz is 503 saying so until a new worker runs, and the service goes on.
 * Then SIGTERM stops the service and both children cleanly; a service killed with SIGKILL takes its children with
 * it. (A shorter backfill than the default 48 h keeps this under a minute; the wiring is the same.)
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { DERIVED_RUNS, readSyncLag, syncCondition } from '../../mongo/collections/sync-state.js';
import { UNRESPONSIVE_MS } from '../../temporal/worker-child.js';
import { freePort } from '../free-port.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** Whether `pid` runs (a zombie left for a parent that never reaps it does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** What a failing test says of a process still running: its command line, state, parent and where it waits. */
function describeProcess(pid: number): string {
  const read = (f: string) => {
    try {
      return readFileSync(`/proc/${pid}/${f}`, 'utf8');
    } catch {
      return '?';
    }
  };
  // stat: "pid (comm) state ppid …"; the state letter and the parent tell a sleeping orphan from a busy one.
  const [state, ppid] = read('stat')
    .replace(/^.*\) /s, '')
    .split(' ');
  return `${pid} (${read('cmdline').split('\0').join(' ').trim()}; state ${state}, ppid ${ppid}, wchan ${read('wchan')})`;
}

/** Resolves once none of `pids` runs; fails after `ms`, saying what they are and what `context` gives. */
async function gone(pids: number[], ms: number, what: string, context: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(alive)) {
    if (Date.now() > deadline)
      assert.fail(`${what}: still running: ${pids.filter(alive).map(describeProcess).join('; ')}\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `node scripts/start.ts` (what `npm start` runs) on the embedded defaults with a devnet of `env`'s seed and
 * history: no external chain source, store or Temporal, no news feeds. Its stdout and stderr go to `onLog`.
 */
function spawnStart(
  dir: string,
  port: number,
  env: Record<string, string>,
  onLog: (text: string) => void,
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      OGMIOS_URL: '',
      MONGODB_URI: '',
      TEMPORAL_ADDRESS: '',
      NEWS_FEEDS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => onLog(d.toString()));
  child.stderr?.on('data', (d: Buffer) => onLog(d.toString()));
  return child;
}

/** The pids of the children `npm start` logged: its devnet and its embedded worker (the latest one). */
function childPidsOf(log: string): { devnet: number; worker: number } {
  const devnets = [...log.matchAll(/"pid":(\d+),"msg":"devnet running/g)].map((m) => Number(m[1]));
  const workers = [...log.matchAll(/"pid":(\d+),"msg":"embedded worker running/g)].map((m) => Number(m[1]));
  return { devnet: devnets.at(-1) ?? NaN, worker: workers.at(-1) ?? NaN };
}

describe('npm start on the embedded defaults', function () {
  this.timeout(180_000);
  let dir: string;
  let child: ChildProcess;
  let base: string;
  let log = '';
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** Polls until `ok` holds for the answer (recomputes fire every 15 s while catching up and once at the tip). */
  const until = async (path: string, ok: (b: Json) => boolean): Promise<Json> => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const r = await get(path).catch(() => null);
      if (r?.status === 200 && ok(r.body)) return r.body;
      if (Date.now() > deadline) assert.fail(`${path} never answered with data: ${JSON.stringify(r)}\n${log}`);
      await new Promise((res) => setTimeout(res, 500));
    }
  };

  let port = 0;
  /** npm start on `dir` (the same DATA_DIR each time). */
  const start = () => {
    child = spawnStart(
      dir,
      port,
      { DEVNET_BACKFILL_HOURS: '14', DEVNET_BLOCK_MS: '3600000', DEVNET_SEED: 'start-test', RATE_LIMITS: 'false' },
      (t) => (log += t),
    );
  };

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'cds-start-'));
    port = await freePort();
    base = `http://127.0.0.1:${port}/api/v1`;
    start();
    await until('/../../readyz', (b) => b.status === 'ready' && b.height === b.tipHeight);
  });
  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers the ledger-derived endpoints with devnet data', async () => {
    const tokens = await until('/tokens?sort=liquidity&pageSize=5&logos=url', (b) =>
      b.items.some((i: Json) => i.stats.holders > 0),
    );
    const unit = tokens.items.find((i: Json) => i.stats.holders > 0).asset.unit as string;
    const holders = (await get(`/tokens/${unit}/holders`)).body;
    assert.ok(holders.items.length > 0 && holders.total >= holders.items.length);
    const wallet = (await get(`/wallet/${holders.items[0].address}?logos=url`)).body;
    assert.ok(
      wallet.positions.some((p: Json) => p.asset.unit === unit),
      'the top holder holds the token',
    );
    assert.equal((await get(`/wallet/${holders.items[0].address}/pnl`)).status, 200);

    // The wallet's holdings are its UTxO set: every address of the stake key, asked of the devnet's ledger.
    const explorer = (await get(`/explorer/address/${holders.items[0].address}`)).body;
    assert.equal(explorer.complete, true);
    const devnetUrl = /"url":"(ws:[^"]+)"/.exec(log)?.[1] as string;
    const chain = await connectOgmios(devnetUrl);
    const utxos = await chain.query<{ value: Record<string, Record<string, bigint>> }[]>('queryLedgerState/utxo', {
      addresses: explorer.addresses.map((a: Json) => a.address),
    });
    await chain.close();
    const held = new Map<string, bigint>();
    for (const u of utxos)
      for (const [policy, names] of Object.entries(u.value))
        for (const [name, q] of Object.entries(names)) {
          const k = policy === 'ada' ? 'lovelace' : policy + name;
          held.set(k, (held.get(k) ?? 0n) + BigInt(q));
        }
    assert.equal(wallet.adaBalanceLovelace, String(held.get('lovelace')));
    held.delete('lovelace');
    assert.deepEqual(
      new Map(wallet.positions.map((p: Json) => [p.asset.unit, BigInt(p.balanceRaw)])),
      held,
      'positions = the UTxO set of the stake key',
    );

    const pools = await until('/staking/pools', (b) => b.items.some((p: Json) => p.ticker && p.roa !== null));
    // Saturation = live stake × k / circulation: the largest devnet pools are near the saturation point.
    assert.ok(pools.items.some((p: Json) => p.saturation > 0.3));
    await until('/nft/collections', (b) => b.items.length > 0 && b.items.some((c: Json) => c.owners > 0));
    await until('/governance/proposals', (b) => b.items.length > 0);
    await until('/governance/dreps', (b) => b.items.length > 0);
    const storage = await until('/storage-network/overview', (b) => b.network === 'iagon');
    assert.ok(storage.market.priceAda.value > 0);
    const news = (await get('/news')).body;
    assert.deepEqual(news.items, []);
    assert.match(news.reason, /NEWS_FEEDS/);
  });

  it('restarts a worker that crashed; /readyz is 503 saying so until the new one runs', async () => {
    const before = childPidsOf(log);
    assert.ok(alive(before.worker) && alive(before.devnet), log.slice(-2000));
    process.kill(before.worker, 'SIGKILL');
    let down: Json | null = null;
    const deadline = Date.now() + 30_000;
    while (!down) {
      assert.ok(Date.now() < deadline, `/readyz never said the worker is down\n${log.slice(-3000)}`);
      const r = await get('/../../readyz').catch(() => null);
      if (r?.status === 503) down = r.body;
      else await new Promise((res) => setTimeout(res, 50));
    }
    assert.match(down.error, /^not ready: the embedded worker .*(exited \(signal SIGKILL\)|restarting)/);
    // Logged at error level (the line may reach this process's pipe after the HTTP answer).
    const crashLine = /"level":50[^\n]*"signal":"SIGKILL"[^\n]*embedded worker \(sync and scheduled jobs\) exited/;
    for (let i = 0; i < 100 && !crashLine.test(log); i++) await new Promise((res) => setTimeout(res, 50));
    assert.match(log, crashLine);
    // A new worker follows the same devnet; the service never stopped serving.
    await until('/../../readyz', (b) => b.status === 'ready' && b.height === b.tipHeight);
    // The new worker's line may reach this pipe after /readyz answers ready (as the crash line above).
    for (let i = 0; i < 100 && childPidsOf(log).worker === before.worker; i++)
      await new Promise((res) => setTimeout(res, 50));
    const after = childPidsOf(log);
    assert.notEqual(after.worker, before.worker, log.slice(-3000));
    assert.ok(alive(after.worker));
    assert.equal(after.devnet, before.devnet, 'the devnet kept running');
    assert.equal((await get('/explorer/blocks/1')).status, 200);
  });

  it('restarts a devnet that died, on its port; the sync follows it again where it was', async () => {
    const before = childPidsOf(log);
    const height = (await get('/../../readyz')).body.height as number;
    process.kill(before.devnet, 'SIGKILL');
    const crashLine =
      /"level":50[^\n]*the devnet \(the chain source\) exited \(signal SIGKILL\); restarting it on port/;
    for (let i = 0; i < 200 && !crashLine.test(log); i++) await new Promise((res) => setTimeout(res, 50));
    assert.match(log, crashLine);
    const restarted = /"msg":"devnet running again/;
    for (let i = 0; i < 400 && !restarted.test(log); i++) await new Promise((res) => setTimeout(res, 50));
    assert.match(log, restarted, log.slice(-3000));
    await until('/../../healthz/sync', (b) => b.status === 'ok' && Date.parse(b.lastContact) > Date.now() - 5_000);
    await until('/../../readyz', (b) => b.status === 'ready' && b.height === b.tipHeight && b.height >= height);
    const after = childPidsOf(log);
    assert.notEqual(after.devnet, before.devnet);
    assert.ok(alive(after.devnet));
    assert.equal(after.worker, before.worker, 'the worker kept running');
    // The same chain, continued: no rollback of the indexed chain, no stall.
    assert.doesNotMatch(log, /RollbackTooDeepError/);
    assert.equal((await get('/../../healthz/sync')).body.status, 'ok');
  });

  it('a worker that stops answering (SIGSTOP) makes /readyz 503 saying so; answering again, it is ready', async () => {
    const { worker } = childPidsOf(log);
    process.kill(worker, 'SIGSTOP');
    try {
      let down: Json | null = null;
      const deadline = Date.now() + UNRESPONSIVE_MS + 30_000;
      while (!down) {
        assert.ok(Date.now() < deadline, `/readyz never said the worker does not answer\n${log.slice(-3000)}`);
        const r = await get('/../../readyz').catch(() => null);
        if (r?.status === 503) down = r.body;
        else await new Promise((res) => setTimeout(res, 500));
      }
      assert.match(
        down.error,
        new RegExp(`^not ready: the embedded worker \\(pid ${worker}, .*\\) has not answered for \\d+ s`),
      );
      // Logged at error level by the supervisor's next ping (up to 5 s after /readyz first says it).
      const silentLine = /"level":50[^\n]*has not answered for/;
      for (let i = 0; i < 200 && !silentLine.test(log); i++) await new Promise((res) => setTimeout(res, 50));
      assert.match(log, silentLine);
    } finally {
      process.kill(worker, 'SIGCONT');
    }
    await until('/../../readyz', (b) => b.status === 'ready');
    assert.equal(childPidsOf(log).worker, worker, 'the same worker, not restarted');
    for (let i = 0; i < 200 && !/embedded worker answers again/.test(log); i++)
      await new Promise((res) => setTimeout(res, 50));
    assert.match(log, /embedded worker answers again/);
  });

  it('stops on SIGTERM, its children with it', async () => {
    const kids = childPidsOf(log);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, log.slice(-2000));
    // The service waited for its worker and its devnet before it exited.
    assert.deepEqual([kids.worker, kids.devnet].filter(alive), [], log.slice(-2000));
    // Monitors reading the store (ops status) say the sync is not running, not what its last attempt met.
    const store = await openEmbeddedStore({ path: join(dir, 'store'), readOnly: true });
    try {
      const now = Date.now();
      const c = syncCondition(await readSyncLag(store, now), now);
      assert.equal(c.status, 'silent', JSON.stringify(c));
      assert.match(c.reason ?? '', /^sync not running: its worker stopped at /);
    } finally {
      await store.close();
    }
  });

  it('starts again on the same DATA_DIR and resumes from its checkpoint, with no rollback of its chain', async () => {
    const height = Number(/"height":(\d+)[^\n]*"msg":"sync reached the chain tip/.exec(log)?.[1] ?? 0);
    log = '';
    start();
    try {
      // The devnet regenerates its history while the sync asks where the chains meet: at its own tip. Meanwhile,
      // once the new worker runs (/readyz 200), the sync is starting: not 'not running: its worker stopped at …'
      // (the stop recorded above, whose action is to start the service that runs).
      const atTip = /"msg":"sync reached the chain tip/;
      const seen = new Set<string>();
      for (let i = 0; i < 1200 && !atTip.test(log); i++) {
        const ready = await get('/../../readyz').catch(() => null);
        if (ready?.status === 200 && !atTip.test(log)) seen.add(ready.body.sync.status as string);
        await new Promise((res) => setTimeout(res, 50));
      }
      assert.match(log, atTip, log.slice(-3000));
      assert.ok(seen.has('starting') && !seen.has('silent'), `sync states while it started: ${[...seen].join(', ')}`);
      assert.doesNotMatch(log, /RollbackTooDeepError|run failed/);
      const sync = (await get('/../../healthz/sync')).body;
      assert.equal(sync.status, 'ok', `${JSON.stringify(sync)}\n${log.slice(-3000)}`);
      assert.ok(sync.height >= height, `${sync.height} ≥ ${height}`);
      assert.equal(sync.lastDeepRollback, null, 'no deep rollback recorded');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('npm start killed with SIGKILL', function () {
  this.timeout(120_000);
  it('takes its devnet and its embedded worker with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-start-kill-'));
    const port = await freePort();
    let log = '';
    const child = spawnStart(dir, port, { DEVNET_BACKFILL_HOURS: '1', DEVNET_SEED: 'start-kill' }, (t) => (log += t));
    try {
      const deadline = Date.now() + 90_000;
      while (!/embedded worker running/.test(log)) {
        assert.ok(Date.now() < deadline && child.exitCode === null, `the worker never ran\n${log.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const kids = childPidsOf(log);
      assert.ok(alive(kids.worker) && alive(kids.devnet), log.slice(-2000));
      child.kill('SIGKILL');
      // They notice at their next turn of the event loop; a devnet still generating its history on a loaded 2-core
      // machine can take seconds to get there.
      await gone([kids.worker, kids.devnet], 30_000, 'the children of a killed npm start', () => log.slice(-3000));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm start whose devnet dies during the catch-up', function () {
  this.timeout(180_000);
  it('reports the tip and reruns the jobs only once the restarted devnet has its whole history again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-start-devnet-'));
    const port = await freePort();
    let log = '';
    const child = spawnStart(
      dir,
      port,
      {
        DEVNET_BACKFILL_HOURS: '14',
        DEVNET_BLOCK_MS: '3600000',
        DEVNET_SEED: 'start-devnet-dies',
        RATE_LIMITS: 'false',
      },
      (t) => (log += t),
    );
    const waitFor = async (what: string, ms: number, ok: () => boolean | Promise<boolean>) => {
      const deadline = Date.now() + ms;
      while (!(await ok())) {
        assert.ok(Date.now() < deadline && child.exitCode === null, `${what}\n${log.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const height = async () => {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      return r?.ok ? ((await r.json()) as Json).height : 0;
    };
    let worker = NaN;
    let throttle: NodeJS.Timeout | undefined;
    try {
      // The worker is held with its first batch written, far behind the devnet's tip.
      await waitFor('the worker never ran', 90_000, () => /embedded worker running/.test(log));
      worker = childPidsOf(log).worker;
      await waitFor('the sync never wrote its first batch', 90_000, async () => (await height()) > 0);
      process.kill(worker, 'SIGSTOP');
      const generated = /"tipHeight":(\d+)[^\n]*"msg":"devnet history generated"/;
      await waitFor('the devnet never finished its history', 90_000, () => generated.test(log));
      const tipHeight = Number(generated.exec(log)?.[1]);
      const held = await height();
      assert.ok(held < tipHeight - 100, `the sync is behind the tip (${held} of ${tipHeight})`);
      // The devnet dies; the one npm start restarts publishes its history from origin again.
      process.kill(childPidsOf(log).devnet, 'SIGKILL');
      await waitFor('the devnet never came back', 60_000, () => /devnet running again/.test(log));
      // On a loaded machine the new devnet publishes its history slower than the sync reads it, so the sync meets the
      // end of what is published so far: for a few seconds it runs a quarter of the time.
      const devnet = childPidsOf(log).devnet;
      let tick = 0;
      throttle = setInterval(() => {
        if (alive(devnet)) process.kill(devnet, tick++ % 4 === 0 ? 'SIGCONT' : 'SIGSTOP');
      }, 50);
      process.kill(worker, 'SIGCONT');
      await new Promise((r) => setTimeout(r, 4_000));
      clearInterval(throttle);
      if (alive(devnet)) process.kill(devnet, 'SIGCONT');

      const reached = /"height":(\d+)[^\n]*"msg":"sync reached the chain tip/;
      await waitFor('the sync never reached the tip', 120_000, () => reached.test(log));
      const at = Number(reached.exec(log)?.[1]);
      assert.ok(at >= tipHeight, `the tip is reported at ${at}, the chain's is at least ${tipHeight}`);
      // The jobs fired at the tip read the whole history: stake pools are not those of the first half of it.
      const store = await openEmbeddedStore({ path: join(dir, 'store'), readOnly: true });
      try {
        await waitFor('the staking job never ran from the tip', 60_000, async () => {
          const run = await store.collection(DERIVED_RUNS).get('recomputeStaking');
          return (run?.from?.height ?? 0) >= tipHeight;
        });
      } finally {
        await store.close();
      }
    } finally {
      clearInterval(throttle);
      for (const pid of [worker, childPidsOf(log).devnet]) if (alive(pid)) process.kill(pid, 'SIGCONT');
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

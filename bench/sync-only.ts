/**
 * The sync row of `npm run bench` alone, for working on the sync: BENCH_HOURS (48) of devnet history, the devnet in
 * its own process, every extension on, into a fresh lmdb store. Prints blocks/s and the CPU time this process spent
 * per block (user + sys over the sync only: on a shared machine it moves much less with the load than blocks/s), and
 * store bytes per block, the CPU time of the main thread alone per block (the sync's critical path: the total does
 * not show work moved to lmdb's writer thread), and the devnet process's CPU time per block. Run under `node --cpu-prof --import tsx bench/sync-only.ts` for a profile of the sync.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importRegistry } from '../activities/registry/import.js';
import { loadConfig } from '../config/index.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import { procCpuMs } from './http.js';
import { storeTxSample } from './mainnet-weight.js';
import { startDevnetProcess, storeBytes, syncToTip } from './sync.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 48);

/** CPU µs the main thread has used (its /proc task: the main thread's id is the process id), null off Linux. */
function mainThreadCpuUs(): number | null {
  const ms = procCpuMs(`/proc/self/task/${process.pid}/stat`);
  return Number.isNaN(ms) ? null : ms * 1000;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cds-bench-sync-'));
  try {
    const devnet = await startDevnetProcess(join(dir, 'devnet'), HOURS);
    const storePath = join(dir, 'sync-store');
    const store = await openEmbeddedStore({ path: storePath });
    await importRegistry(store, loadConfig({}).TOKEN_REGISTRY_DIR);
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuUs();
    const devnetStat = `/proc/${devnet.pid}/stat`;
    const devnet0 = procCpuMs(devnetStat);
    const s = await syncToTip(store, devnet.url);
    const cpu = process.cpuUsage(cpu0);
    const main1 = mainThreadCpuUs();
    const devnetUs = (procCpuMs(devnetStat) - devnet0) * 1000;
    const chain = await storeTxSample(store);
    await store.close();
    await devnet.stop();
    const bytes = storeBytes(storePath);
    const cpuUs = cpu.user + cpu.system;
    console.log(
      JSON.stringify({
        hours: HOURS,
        blocks: s.blocks,
        rollbacks: s.rollbacks,
        syncSeconds: +(s.syncMs / 1000).toFixed(2),
        blocksPerSecond: Math.round(s.blocksPerSecond),
        cpuUsPerBlock: Math.round(cpuUs / s.blocks),
        cpuUserUsPerBlock: Math.round(cpu.user / s.blocks),
        cpuSysUsPerBlock: Math.round(cpu.system / s.blocks),
        mainThreadCpuUsPerBlock: main0 === null || main1 === null ? null : Math.round((main1 - main0) / s.blocks),
        // The chain source serving the blocks (NaN off Linux): on 2 cores it takes from what the sync can use.
        devnetCpuUsPerBlock: Number.isNaN(devnetUs) ? null : Math.round(devnetUs / s.blocks),
        storeKbPerBlock: +(bytes / s.blocks / 1024).toFixed(1),
        // The blocks' own average size: the devnet's blocks grow with its history, so per-block figures at two
        // history sizes compare different work; the CPU per KB of chain compares the same.
        blockKb: +(chain.bytes / chain.blocks / 1024).toFixed(2),
        cpuUsPerChainKb: Math.round(cpuUs / s.blocks / (chain.bytes / chain.blocks / 1024)),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

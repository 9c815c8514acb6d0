/**
 * `npm run devnet`: the devnet alone, on DEVNET_PORT (an Ogmios v6 stand-in for tools and other processes).
 * Its identity is kept in DATA_DIR/devnet.json, so a restart continues the same chain. `npm start` runs it as a child
 * process (devnet/child.ts).
 */
import { ConfigError, loadConfig, StartupError } from '../config/index.js';
import type { DevnetMessage } from '../devnet/child.js';
import { startDevnet } from '../devnet/index.js';
import { writableDataDir } from './data-dir.js';
import { checkListen } from './api-port.js';
import { onParentGone } from './parent-gone.js';

async function main() {
  const config = loadConfig();
  writableDataDir(config.DATA_DIR); // its identity (devnet.json) is kept there
  // A DEVNET_PORT taken (another devnet, another service) crashed the process with the WebSocket server's unhandled
  // EADDRINUSE and a stack trace; it is one line naming DEVNET_PORT, exit 1, as npm start does for PORT. The devnet
  // listens on loopback only (devnet/server.ts). Port 0 (any free port) needs no check.
  if (config.DEVNET_PORT !== 0) await checkListen(config.DEVNET_PORT, '127.0.0.1', 'DEVNET_PORT');
  const started = Date.now();
  const devnet = await startDevnet({
    seed: config.DEVNET_SEED,
    backfillHours: config.DEVNET_BACKFILL_HOURS,
    blockMs: config.DEVNET_BLOCK_MS,
    forkRate: config.DEVNET_FORK_RATE,
    forkDepth: config.DEVNET_FORK_DEPTH,
    port: config.DEVNET_PORT,
    dataDir: config.DATA_DIR,
    streamBackfill: config.DEVNET_STREAM_BACKFILL,
  });
  const stop = (signal: string) => {
    console.log(`devnet: ${signal}, stopping`);
    // Closing waits for its open connections to end; a follower that does not hang up must not keep it running.
    setTimeout(() => process.exit(0), 2_000).unref();
    devnet.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Started by `npm start` (devnet/child.ts): report the address at once and the end of the backfill, and stop
  // with the parent.
  // Only while the channel is open: a parent that exited meanwhile (its store failed to open) is not an error here.
  // A parent that goes while the message is written (a SIGTERM to npm start alone during startup, as `docker stop`
  // sends) fails the write with EPIPE: without a callback that is an uncaught 'error' and a stack trace here (the
  // embedded worker's `tell` does the same); its going is handled by onParentGone.
  const report = (type: DevnetMessage['type']) =>
    process.connected &&
    process.send?.(
      {
        type,
        url: devnet.url,
        tip: devnet.tip(),
        blocks: devnet.canonicalBlocks().length,
        generatedMs: Date.now() - started,
      } satisfies DevnetMessage,
      undefined,
      undefined,
      () => undefined,
    );
  if (process.send) {
    report('devnet-ready');
    onParentGone(() => stop('parent gone'));
  }
  await devnet.backfilled;
  report('devnet-backfilled');
  const tip = devnet.tip();
  console.log(
    `devnet (Ogmios v6 JSON-RPC) at ${devnet.url}: tip height ${tip.height}, slot ${tip.slot}, id ${tip.id} ` +
      `(${devnet.canonicalBlocks().length} blocks generated in ${Date.now() - started} ms; ` +
      `live blocks at their slot time, checked every ${config.DEVNET_BLOCK_MS} ms)`,
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError || e instanceof StartupError ? e.message : e);
  // A bad value is exit 2, as at every other entry point (config/index.ts runWithConfig, README: Configuration); a
  // DATA_DIR or port it cannot use (StartupError) and anything else, 1.
  process.exit(e instanceof ConfigError ? 2 : 1);
});

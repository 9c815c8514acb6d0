/**
 * `npm run devnet`: the devnet alone, on DEVNET_PORT (an Ogmios v6 stand-in for tools and other processes).
 * Its identity is kept in DATA_DIR/devnet.json, so a restart continues the same chain.
 */
import { ConfigError, loadConfig } from '../config/index.js';
import { startDevnet } from '../devnet/index.js';

async function main() {
  const config = loadConfig();
  const started = Date.now();
  const devnet = await startDevnet({
    seed: config.DEVNET_SEED,
    backfillHours: config.DEVNET_BACKFILL_HOURS,
    blockMs: config.DEVNET_BLOCK_MS,
    forkRate: config.DEVNET_FORK_RATE,
    port: config.DEVNET_PORT,
    dataDir: config.DATA_DIR,
  });
  const tip = devnet.tip();
  console.log(
    `devnet (Ogmios v6 JSON-RPC) at ${devnet.url}: tip height ${tip.height}, slot ${tip.slot}, id ${tip.id} ` +
      `(${devnet.canonicalBlocks().length} blocks generated in ${Date.now() - started} ms; ` +
      `a new block every ${config.DEVNET_BLOCK_MS} ms)`,
  );
  const stop = (signal: string) => {
    console.log(`devnet: ${signal}, stopping`);
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
}

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});

/**
 * `npm test`: .mocharc.json's options, every test file in parallel on three workers, the longest files first.
 * Workers take files in this order, and the suite is CPU-bound on two cores: a long file started last ran alone at
 * the end (wallet/rewards-devnet, 90 s after every other file had finished). Files not named here follow
 * alphabetically; a name that no longer exists is dropped, so a renamed file only loses its place.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Longest first, by wall time in a full run on 2 cores (seconds in parentheses). */
const LONGEST = [
  'test/e2e/start.test.ts', // (175)
  'test/governance/governance-chain.test.ts', // (124)
  'test/nft/devnet-nft.test.ts', // (116)
  'test/wallet/rewards-devnet.test.ts', // (87)
  'test/mcp/http.test.ts', // (60)
  'test/e2e/sync-outage.test.ts', // (59)
  'test/e2e/market.test.ts', // (56)
  'test/temporal/ops.test.ts', // (50)
  'test/storage/devnet.test.ts', // (49)
  'test/e2e/sync-switch.test.ts', // (48)
  'test/config/temporal-unreachable.test.ts', // (43)
  'test/pnl/lots-devnet.test.ts', // (42)
  'test/api/openapi-answers.test.ts', // (39)
  'test/devnet/devnet.test.ts', // (38)
];

const all = readdirSync('test', { recursive: true })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f))
  .sort();
const first = LONGEST.filter((f) => existsSync(f));

export default {
  ...JSON.parse(readFileSync('.mocharc.json', 'utf8')),
  parallel: true,
  jobs: 3,
  spec: [...first, ...all.filter((f) => !first.includes(f))],
};

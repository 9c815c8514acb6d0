/**
 * The bench's replay projection weighs devnet blocks against the recorded mainnet blocks: the sample must be the
 * three Conway blocks (14, 59 and 16 transactions, as their provenance lists them; 15,924, 56,708 and 19,634 bytes
 * by their Ogmios `size`), not the Mary block before Alonzo, and the weighted figures must scale the per-block one by
 * the transactions-per-block and bytes-per-block ratios.
 */
import assert from 'node:assert/strict';
import { mainnetTxSample } from '../../bench/mainnet-weight.js';
import { MAINNET_ALONZO_BLOCKS, replayProjection } from '../../bench/report.js';

describe('bench: the mainnet replay projection', () => {
  it('samples the recorded Alonzo-era-or-later mainnet blocks only', () => {
    assert.deepEqual(mainnetTxSample(), { blocks: 3, txs: 14 + 59 + 16, bytes: 15_924 + 56_708 + 19_634 });
  });

  it('weights blocks/s by mainnet transactions per block over the run’s own', () => {
    // 500 blocks/s; the devnet run indexed 3 transactions per block; the sample holds 89 / 3 per block.
    const text = replayProjection(500, { blocks: 1000, txs: 3000, bytes: 0 });
    const perBlockHours = MAINNET_ALONZO_BLOCKS / 500 / 3600;
    const weightedHours = perBlockHours * (89 / 3 / 3);
    assert.match(text, new RegExp(`\\*\\*${perBlockHours.toFixed(1)} h\\*\\*`));
    assert.match(text, new RegExp(`weighted by transactions, \\*\\*${weightedHours.toFixed(1)} h\\*\\*`));
    assert.match(text, /29\.7 transactions, a devnet block of this run 3\.0 \(9\.9 ×\)/);
  });

  it('weights blocks/s by mainnet block bytes over the run’s own', () => {
    // The devnet run's blocks average 4,000 bytes; the sample's (15,924 + 56,708 + 19,634) / 3 = 30,755.33.
    const text = replayProjection(500, { blocks: 1000, txs: 3000, bytes: 4_000_000 });
    const byteHours = (MAINNET_ALONZO_BLOCKS / 500 / 3600) * (30_755.33 / 4000);
    assert.match(text, new RegExp(`weighted by block bytes, \\*\\*${byteHours.toFixed(1)} h\\*\\*`));
    assert.match(text, /\(7\.7 ×\)/);
  });

  it('says the per-block figure is a lower bound when it has no transaction counts', () => {
    assert.match(replayProjection(500), /a lower bound: mainnet blocks carry more transactions/);
  });
});

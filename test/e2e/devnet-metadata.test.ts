/**
 * `npm start` following the standalone devnet (`npm run devnet`) with OGMIOS_IS_DEVNET=true: its stake pools' metadata
 * documents live under `.devnet` hosts that only the devnet serves, and the setting says to fetch them from it, as
 * `npm run worker` does. The oracle is the certificate itself: each pool registered
 * `https://{ticker}.stakepool.devnet/v{n}/poolMetadata.json`, so a fetched and verified document names that ticker.
 * (npm start's embedded worker ignored the setting: every pool's metadata was "fetch failed", its ticker null.)
 * The same setting says the devnet's Iagon staking and reward scripts are the ones to follow (its seed given as
 * DEVNET_SEED): the storage overview's staking figures are the IAG the devnet's chain holds at its staking script,
 * read back through the explorer. (They were "unavailable: the mainnet script hashes … are not known".)
 */
import assert from 'node:assert/strict';
import { enterpriseAddress } from '../../cardano/address.js';
import { IAG_UNIT } from '../../cardano/iagon.js';
import { freePort } from '../free-port.js';
import { client, startDevnetProcess, startService, tempDir, type Proc } from './processes.js';

describe('npm start with OGMIOS_IS_DEVNET: stake pool metadata and Iagon scripts of the standalone devnet', function () {
  this.timeout(240_000);
  const devDir = tempDir('cds-devmeta-devnet-');
  const dataDir = tempDir('cds-devmeta-data-');
  let devnet: Proc | null = null;
  let service: Proc | null = null;
  let port = 0;
  const log = () => `${service?.log() ?? ''}\n--- devnet ---\n${devnet?.log() ?? ''}`;
  after(async () => {
    await service?.kill();
    await devnet?.kill();
    devDir.remove();
    dataDir.remove();
  });

  it("fetches each pool's registered document from the devnet and verifies it", async () => {
    const devPort = await freePort();
    devnet = await startDevnetProcess({ port: devPort, dir: devDir.dir, seed: 'devmeta', backfillHours: 1 });
    port = await freePort();
    service = await startService({
      port,
      dir: dataDir.dir,
      ogmiosUrl: `ws://127.0.0.1:${devPort}`,
      env: { OGMIOS_IS_DEVNET: 'true', DEVNET_SEED: 'devmeta' },
    });
    const api = client(`http://127.0.0.1:${port}`);
    // The staking recompute runs every 15 s while the sync catches up and once more at the tip.
    const list = await api.until(
      '/api/v1/staking/pools?pageSize=100',
      (r) => r.status === 200 && r.body.items.length > 0,
      120_000,
      log,
    );
    const details = await Promise.all(
      (list.body.items as { id: string }[]).map(async (p) => (await api.get(`/api/v1/staking/pools/${p.id}`)).body),
    );
    const devnetHosted = details.filter((d) => /^https:\/\/[a-z0-9]+\.stakepool\.devnet\//.test(d.metadata?.url));
    assert.ok(devnetHosted.length >= 5, `pools registered on .devnet hosts: ${devnetHosted.length}`);
    const verified = devnetHosted.filter((d) => d.metadata.verified === true);
    assert.ok(verified.length >= devnetHosted.length / 2, JSON.stringify(devnetHosted.map((d) => d.metadata)));
    for (const d of verified) {
      const label = /^https:\/\/([a-z0-9]+)\./.exec(d.metadata.url)![1]!;
      assert.equal(d.ticker, label.toUpperCase(), d.metadata.url);
    }
  });

  it("follows the devnet's Iagon staking script: the overview's staked IAG is what the chain holds there", async () => {
    const api = client(`http://127.0.0.1:${port}`);
    // The devnet publishes no live block within the test (one tick an hour): its tip is where the sync stops.
    const tip = await api.until(
      '/readyz',
      (r) => r.status === 200 && r.body.height > 0 && r.body.height === r.body.tipHeight,
      120_000,
      log,
    );
    // The storage recompute runs every 15 s while the sync catches up and once more at the tip.
    const overview = await api.until(
      '/api/v1/storage-network/overview',
      (r) => r.status === 200 && r.body.slot === tip.body.slot,
      120_000,
      log,
    );
    const staking = overview.body.staking;
    assert.equal(staking.available, true, staking.reason);
    assert.equal(staking.stakeScripts.length, 1);
    // The oracle: the explorer's view of the staking script's enterprise address (the sync's UTxO set, not the
    // storage extension) at the same tip. The devnet's providers stake within its first hour.
    const at = await api.get(`/api/v1/explorer/address/${enterpriseAddress('mainnet', staking.stakeScripts[0], true)}`);
    assert.equal(at.status, 200, JSON.stringify(at.body));
    const iag = (at.body.assets as { unit: string; quantity: number }[]).find((a) => a.unit === IAG_UNIT);
    assert.ok(iag && iag.quantity > 0, JSON.stringify(at.body));
    assert.equal(staking.figures.totalStaked.value, iag.quantity);
    assert.equal(staking.figures.stakeOutputs.value, at.body.utxoCount);
  });
});

/**
 * The Markdown views' cache (api/md/respond.ts) keeps a rendered view for the window under its URL and the sync
 * checkpoint read when the request began. A view rendered while a block landed shows that block's state; kept under
 * the checkpoint before it, a fork rolling the chain back to that checkpoint within the window had the view of the
 * orphaned block served as the view of the block before it.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { pino } from 'pino';
import type { ApiDeps } from '../../api/deps.js';
import { mdResponder } from '../../api/md/respond.js';
import type { MdSource } from '../../api/md/source.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import { checkpoint } from '../api/checkpoint.js';
import type { MarketOverview } from '../../views/md/types.js';

describe('Markdown views cache: a view rendered while a block landed', () => {
  let store: Store;
  let server: ReturnType<Koa['listen']>;
  let url: string;
  let renders = 0;
  let blockMidRender = false;

  before(async () => {
    store = await openMemoryStore();
    await store.ensureIndexes([CHECKPOINTS]);
    await store.write([put(CHECKPOINTS, checkpoint(20, 'a20'))]);
    const deps = {
      store,
      config: { SITE_URL: 'http://md.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
      log: pino({ level: 'silent' }),
      cacheMs: 60_000,
    } as ApiDeps;
    const source = {
      async marketOverview(): Promise<MarketOverview> {
        renders++;
        if (blockMidRender) {
          // Block 21 commits while the view is read: the figures are block 21's.
          blockMidRender = false;
          await store.write([put(CHECKPOINTS, checkpoint(21, 'b21'))]);
        }
        return {
          adaUsd: 0.65,
          volume24h: renders,
          tvlAda: 1,
          txns24h: renders,
          dexes: [],
          topGainers: [],
          topLosers: [],
          trending: [],
          sync: { lagSeconds: 0, height: 20, tipHeight: 20 },
          updatedAt: '2026-11-30T23:00:00.000Z',
        } as MarketOverview;
      },
    } as unknown as MdSource;
    const md = mdResponder(deps, () => source);
    const app = new Koa();
    app.use((ctx) => md.respond(ctx, { view: 'market' }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((res) => server.once('listening', res));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/md/market`;
  });
  after(async () => {
    server.close();
    await store.close();
  });

  it('is not kept, so a rollback to the block before it renders that block again', async () => {
    blockMidRender = true;
    const during = await (await fetch(url)).text();
    assert.equal(blockMidRender, false, 'the block landed during the render');
    assert.equal(renders, 1);
    await store.write([put(CHECKPOINTS, checkpoint(20, 'a20'))]); // a fork rolls the chain back to block 20
    const afterRollback = await (await fetch(url)).text();
    assert.equal(renders, 2, "the view rendered at block 21 was served as block 20's");
    assert.notEqual(afterRollback, during);
    // Rendered at block 20 throughout, the view is kept as before.
    assert.equal(await (await fetch(url)).text(), afterRollback);
    assert.equal(renders, 2);
  });
});

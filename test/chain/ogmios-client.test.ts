import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { safeJSON } from '@cardano-ogmios/client';
import { createServer, type AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import {
  connectOgmios,
  createOgmiosClient,
  IntersectionNotFoundError,
  OgmiosConnectionError,
  OgmiosError,
} from '../../activities/chain/ogmios-client.js';
import { slotToEpoch, slotToMs, type ChainSource } from '../../activities/chain/source.js';
import type { Block, ChainEvent, Point, Tip } from '../../cardano/chain/types.js';
import { startDevnet } from '../../devnet/index.js';
import { FIXED_NOW } from '../devnet/helpers.js';
import { buildChain } from '../sync/build-chain.js';
import { startFakeOgmios, type FakeFrame, type FakeOgmios, type FakeOgmiosOptions } from './fake-ogmios.js';

const OGMIOS = new URL('../../../shared/fixtures/chain/ogmios/', import.meta.url);
const read = (rel: string) => readFileSync(new URL(rel, OGMIOS), 'utf8');

const MARY = read('real/nextBlock.rollForward.mainnet-mary-5567164.kupo-golden-1.json');
const CONWAY = [
  'real/block.mainnet-conway-11321965-slot144711632.koralabs.json',
  'real/block.mainnet-conway-11322286-slot144718140.koralabs.json',
  'real/block.mainnet-conway-11322313-slot144718597.koralabs.json',
].map(read);
const vector = (name: string) => read(`generated-v6.14.0/${name}`);

/** Everything the client is asked to do runs against a fake; both are torn down after each test. */
let fake: FakeOgmios | null = null;
let client: ChainSource | null = null;
async function setup(frames: readonly FakeFrame[], opts: FakeOgmiosOptions = {}, pipeline = 100) {
  fake = await startFakeOgmios(frames, opts);
  client = await connectOgmios(fake.url, { pipeline, requestTimeoutMs: 5_000 });
  return { fake, client };
}
afterEach(async () => {
  await client?.close();
  await fake?.close();
  client = null;
  fake = null;
});

/** All events until the follower is at the tip (an empty answer). */
async function drain(c: ChainSource, max: number): Promise<ChainEvent[]> {
  const out: ChainEvent[] = [];
  for (;;) {
    // These chains report every block as the tip, so the client waits only this long for the next answer; the fake
    // answers from this same process, which a busy machine can hold up for more than 100 ms (then a drain ended
    // early, with events still coming).
    const evs = await c.nextEvents(max, 500);
    assert.ok(evs.length <= max, `at most ${max} events per call`);
    if (evs.length === 0) return out;
    out.push(...evs);
  }
}

const forward = (ev: ChainEvent | undefined): Block => {
  assert.equal(ev?.direction, 'forward');
  return (ev as Extract<ChainEvent, { direction: 'forward' }>).block;
};
const pointOf = (b: Block): Point => ({ slot: b.slot as number, id: b.id });
const tipOf = (b: Block): Tip => ({ slot: b.slot as number, id: b.id, height: b.height });

describe('Ogmios client: real mainnet frames', () => {
  it('yields the recorded blocks with exact ids, heights, slots, transactions and bigint amounts', async () => {
    const conway = CONWAY.map((t) => safeJSON.parse(t) as Block);
    const tip = tipOf(conway[2] as Block);
    const mary = safeJSON.parse(MARY) as { result: { block: Block; tip: Tip } };
    const { client } = await setup([MARY, ...conway.map((block) => ({ direction: 'forward', block, tip }))]);

    const events = await drain(client, 100);
    assert.equal(events.length, 4);
    const blocks = events.map(forward);
    // The whole block equals the recording read with safeJSON: same fields, same bigints.
    assert.deepStrictEqual(blocks[0], mary.result.block);
    assert.deepStrictEqual(events[0]?.tip, mary.result.tip);
    for (const [i, b] of conway.entries()) assert.deepStrictEqual(blocks[i + 1], b);
    assert.deepStrictEqual(events[3]?.tip, tip);

    // Known facts of these blocks.
    assert.deepEqual(
      blocks.map((b) => [b.era, b.height, b.slot, b.transactions?.length]),
      [
        ['mary', 5567164, 26366727, 11],
        ['conway', 11321965, 144711632, 14],
        ['conway', 11322286, 144718140, 59],
        ['conway', 11322313, 144718597, 16],
      ],
    );
    const b1 = blocks[1] as Block;
    assert.equal(b1.id, '11628cb458a2b87c64b14cc3dc9d86bf9f010b137980da2404a5553566c69dcf');
    const tx0 = b1.transactions?.[0];
    assert.equal(tx0?.id, 'a9b070949528c40482db7c115cc340f04c135a0a2a16acc8ac89e5d6b98cb674');
    assert.equal(tx0?.inputs.length, 1);
    assert.equal(tx0?.outputs.length, 3);
    assert.equal(tx0?.outputs[0]?.value.ada.lovelace, 1_172_320n);
    // A Minswap V2 pool output holding LP tokens close to 2^63: beyond 2^53, exact only as bigint.
    const pool = b1.transactions?.[9]?.outputs[2]?.value;
    const lp = pool?.['f5808c2c990d86da54bfc97d89cee6efa20cd8461616359478d96b4c'];
    assert.equal(lp?.['f7db6b529f3475849e545e3a5769530af7623cfd56bb52dccc5be34ada28f903'], 9_223_372_035_044_673_418n);
    const mtx = blocks[0]?.transactions?.[0];
    assert.equal(mtx?.id, '9a47e091709e4fe1a8ba1291bc8cfd0c0ed0bb9220688b3ccfad5f2d961e8d8e');
    assert.equal(mtx?.outputs[0]?.value.ada.lovelace, 50_000_000n);
    for (const b of blocks) {
      assert.equal(typeof b.height, 'number');
      assert.equal(typeof b.slot, 'number');
      for (const tx of b.transactions ?? [])
        for (const o of tx.outputs) assert.equal(typeof o.value.ada.lovelace, 'bigint');
    }
  });
});

describe('Ogmios client: generated v6.14 vectors', () => {
  it('decodes findIntersection found, found with tip origin, not found (1000) and interleaved (1001)', async () => {
    let next = '';
    const { client, fake } = await setup([], { findIntersection: () => ({ text: next }) });
    const somePoint: Point = { slot: 1, id: '00'.repeat(32) };

    next = vector('chainsync/findIntersection.response.found.003.json');
    assert.deepEqual(await client.findIntersection([somePoint]), {
      intersection: { slot: 5022, id: '2263b986b6c29a3611469b0076d9a5156582f96f945dff5f51f545811d071b89' },
      tip: { slot: 78536, id: '7997f21c164d67cef8bdf3a3a903646678a2f4bb0e9209d80db1c9dfff7869a7', height: 0 },
    });

    next = vector('chainsync/findIntersection.response.found-tipOrigin.002.json');
    const found = await client.findIntersection([somePoint]);
    assert.equal(found.tip, 'origin');
    assert.deepEqual(found.intersection, {
      slot: 61355,
      id: 'aad78a13b50a014a24633c7d44fd8f8d18f67bbb3fa9cbcedf834ac899759dcd',
    });

    next = vector('chainsync/findIntersection.response.notFound.008.json');
    await assert.rejects(client.findIntersection([somePoint]), (e: unknown) => {
      assert.ok(e instanceof IntersectionNotFoundError);
      assert.equal(e.code, 1000);
      assert.equal(e.message, 'No intersection found.');
      assert.deepEqual(e.tip, {
        slot: 68040,
        id: 'ce8c0f3211d39ae0db42fb105d076f91132449d0a96e8ff092b01488af3ae12b',
        height: 13,
      });
      return true;
    });

    next = vector('chainsync/findIntersection.response.interleaved.000.json');
    await assert.rejects(client.findIntersection([somePoint]), (e: unknown) => {
      assert.ok(e instanceof OgmiosError && !(e instanceof IntersectionNotFoundError));
      assert.equal(e.code, 1001);
      return true;
    });
    // The connection whose cursor state is unknown is not reused.
    next = vector('chainsync/findIntersection.response.found.003.json');
    await client.findIntersection([somePoint]);
    assert.equal(fake.connections, 2);
  });

  it('decodes nextBlock RollBackward and RollForward vectors of every era into events', async () => {
    const names = [
      'nextBlock.rollBackward.010.json',
      'nextBlock.rollBackward.012.json',
      'nextBlock.rollForward.byron-bft.000.json',
      'nextBlock.rollForward.byron-ebb.029.json',
      'nextBlock.rollForward.babbage.003.json',
      'nextBlock.rollForward.babbage.049.json',
      'nextBlock.rollForward.conway.023.json',
      'nextBlock.rollForward.conway.043.json',
    ];
    const texts = names.map((n) => vector(`chainsync/${n}`));
    const { client } = await setup(texts);
    // The vectors' random tips claim more blocks follow, so read exactly as many as were recorded.
    const events: ChainEvent[] = [];
    while (events.length < names.length) events.push(...(await client.nextEvents(3, 1_000)));
    assert.equal(events.length, names.length);
    assert.deepEqual(events[0], {
      direction: 'backward',
      point: { slot: 92267, id: 'b5f556f2ff67952ca1237ccb40dbf33f213ce15b769597d12188e9ab8fbd7bdf' },
      tip: { slot: 4744, id: '669ea8a00b7307b08fae2a6eb3a59d42f7d32e80860320208938019789bef05f', height: 3015040 },
    });
    assert.equal(events[1]?.direction, 'backward');
    for (const [i, ev] of events.slice(2).entries()) {
      const recorded = JSON.parse(texts[i + 2] as string) as {
        result: { block: { id: string; era: string; type: string } };
      };
      const b = forward(ev);
      assert.equal(b.id, recorded.result.block.id);
      assert.equal(b.era, recorded.result.block.era);
      assert.equal(b.type, recorded.result.block.type);
      // Generated heights exceed 2^53; the port's type is number all the same.
      assert.equal(typeof b.height, 'number');
      if (b.type !== 'ebb') assert.equal(typeof b.slot, 'number');
      for (const tx of b.transactions ?? [])
        for (const o of tx.outputs) assert.equal(typeof o.value.ada.lovelace, 'bigint');
    }
    // conway.023 holds a float safeJSON.parse cannot read (8.421946154024626e18): decoded, kept a number.
    assert.equal(forward(events[6]).era, 'conway');
  });
});

describe('Ogmios client: pipelined chain-sync', () => {
  it('keeps many nextBlock requests in flight and never loses or repeats an event across small calls', async () => {
    const { events: stream } = buildChain({ blocks: 60, forkEvery: 9 });
    assert.ok(
      stream.some((e) => e.direction === 'backward'),
      'the stream has rollbacks in the middle',
    );
    const { client, fake } = await setup(stream, {}, 16);
    const got: ChainEvent[] = [];
    for (const max of [1, 2, 3, 5, 7]) got.push(...(await client.nextEvents(max, 1_000)));
    got.push(...(await drain(client, 4)));
    assert.ok(fake.maxInFlight > 1, `requests in flight at once: ${fake.maxInFlight}`);
    assert.ok(fake.maxInFlight <= 16, 'never more than the pipeline depth');
    assert.equal(got.length, stream.length);
    assert.deepStrictEqual(got, stream);
  });

  it('after findIntersection, delivers the RollBackward to the intersection, then the blocks after it', async () => {
    const { events: stream, canonical } = buildChain({ blocks: 30 });
    const { client } = await setup(stream, {}, 8);
    await client.nextEvents(5, 1_000); // leaves requests in flight with answers on their way
    const at = canonical[19] as Block;
    const r = await client.findIntersection([pointOf(at), 'origin']);
    assert.deepEqual(r.intersection, pointOf(at));
    assert.deepEqual(r.tip, tipOf(canonical[canonical.length - 1] as Block));
    const evs = await drain(client, 6);
    assert.deepEqual(evs[0], { direction: 'backward', point: pointOf(at), tip: r.tip });
    assert.deepEqual(
      evs.slice(1).map((e) => forward(e).height),
      [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    );
  });

  it('at the tip returns [] after waiting, then the next block when it comes; re-intersects from the tip', async () => {
    const { events: stream, canonical } = buildChain({ blocks: 12 });
    const { client, fake } = await setup(stream.slice(0, 8), {}, 10);
    assert.equal((await drain(client, 50)).length, 8);
    assert.deepEqual(await client.nextEvents(10, 150), []);
    assert.deepEqual(await client.nextEvents(10, 0), []);
    // A block arrives while the follower waits.
    setTimeout(() => fake.push(stream[8] as ChainEvent), 50);
    const evs = await client.nextEvents(10, 5_000);
    assert.deepEqual(evs, [stream[8]]);
    // Requests are parked at the tip (Ogmios would answer 1001): the client replaces the connection.
    const last = canonical[8] as Block;
    const r = await client.findIntersection([pointOf(last)]);
    assert.deepEqual(r.intersection, pointOf(last));
    assert.equal(fake.connections, 2);
    fake.push(...stream.slice(9));
    const rest = await drain(client, 50);
    assert.equal(rest[0]?.direction, 'backward');
    assert.deepEqual(rest.slice(1), stream.slice(9));
  });

  it('a dropped connection fails the waiting call; later calls re-intersect on a new connection', async () => {
    const { events: stream, canonical } = buildChain({ blocks: 10 });
    const { client, fake } = await setup(stream.slice(0, 5), {}, 4);
    await drain(client, 10);
    const waiting = client.nextEvents(10, 5_000);
    setTimeout(() => fake.dropConnections(), 20);
    await assert.rejects(waiting, OgmiosConnectionError);
    // Following on from a new connection's origin cursor would roll the consumer back to genesis: refused.
    await assert.rejects(client.nextEvents(10, 0), /findIntersection/);
    fake.push(...stream.slice(5));
    const at = canonical[4] as Block;
    assert.deepEqual((await client.findIntersection([pointOf(at)])).intersection, pointOf(at));
    const rest = await drain(client, 10);
    assert.deepEqual(rest.slice(1), stream.slice(5));
  });
});

describe('Ogmios client: a node not up yet', () => {
  it('a client made before its node listens connects on first use: connection errors until then, then it follows', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    // What a worker does at start: a node still starting must not be a crash, only an outage the sync retries.
    const client = createOgmiosClient(`ws://127.0.0.1:${port}`);
    await assert.rejects(client.findIntersection(['origin']), OgmiosConnectionError);
    const devnet = await startDevnet({
      seed: 'late-node',
      backfillHours: 1,
      blockMs: 0,
      forkRate: 0,
      now: FIXED_NOW,
      port,
    });
    try {
      assert.equal((await client.findIntersection(['origin'])).intersection, 'origin');
      const events: ChainEvent[] = [];
      while (events.filter((e) => e.direction === 'forward').length < 3)
        events.push(...(await client.nextEvents(10, 0)));
      const first = events.find((e) => e.direction === 'forward');
      assert.equal(first?.direction === 'forward' && first.block.id, devnet.canonicalBlocks()[0]?.id);
    } finally {
      await client.close();
      await devnet.close();
    }
  });
});

describe('Ogmios client: queries', () => {
  it('returns results parsed big-number-safe and turns JSON-RPC errors into OgmiosError', async () => {
    const { client } = await setup([], {
      queries: {
        'queryLedgerState/utxo': () => ({ text: vector('ledger-state/queryLedgerState.utxo.001.json') }),
        'queryLedgerState/epoch': () => ({
          text: vector('ledger-state/queryLedgerState.utxo.eraMismatchError.010.json'),
        }),
      },
    });
    const utxo = await client.query<{ value: { ada: { lovelace: bigint } } }[]>('queryLedgerState/utxo', {
      addresses: ['addr1…'],
    });
    const recorded = safeJSON.parse(vector('ledger-state/queryLedgerState.utxo.001.json')) as { result: unknown };
    assert.deepStrictEqual(utxo, recorded.result);
    for (const u of utxo) assert.equal(typeof u.value.ada.lovelace, 'bigint');

    await assert.rejects(client.query('queryLedgerState/epoch'), (e: unknown) => {
      assert.ok(e instanceof OgmiosError);
      assert.equal(e.code, 2001);
      assert.equal(e.message, 'Era mismatch between query and ledger.');
      assert.deepEqual(e.data, { ledgerEra: 'shelley', queryEra: 'byron' });
      return true;
    });
    await assert.rejects(
      client.query('queryLedgerState/stakePools'),
      (e: unknown) => e instanceof OgmiosError && e.code === -32601,
    );
    await assert.rejects(client.query('nextBlock'), TypeError);
  });

  it('derives slot time from every era summary and the system start, once', async () => {
    // Mainnet: Byron ran 208 epochs of 21,600 20-second slots; every later era has 1-second slots, 432,000 a
    // epoch. The Conway era began at epoch 507.
    const byronSeconds = 208 * 21_600 * 20;
    const shelleySlot = 208 * 21_600;
    const conway = { slot: shelleySlot + (507 - 208) * 432_000, epoch: 507 };
    const eras = [
      {
        start: { time: { seconds: 0 }, slot: 0, epoch: 0 },
        end: { time: { seconds: byronSeconds }, slot: shelleySlot, epoch: 208 },
        parameters: { epochLength: 21_600, slotLength: { milliseconds: 20_000 }, safeZone: 4320 },
      },
      {
        start: { time: { seconds: byronSeconds + (conway.slot - shelleySlot) }, slot: conway.slot, epoch: 507 },
        end: null,
        parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
      },
    ];
    const { client, fake } = await setup([], {
      queries: {
        'queryLedgerState/eraSummaries': () => ({ result: eras }),
        'queryNetwork/startTime': () => ({ result: '2017-09-23T21:44:51Z' }),
      },
    });
    const t = await client.networkTime();
    const { eras: perEra, ...latest } = t;
    assert.equal(perEra?.length, 2, 'every era summary is kept');
    // A Byron slot is dated with Byron's 20 s slots: the last Byron slot is 20 s before Shelley's first.
    assert.equal(new Date(slotToMs(t, shelleySlot - 1)).toISOString(), '2020-07-29T21:44:31.000Z');
    assert.equal(slotToEpoch(t, shelleySlot - 1), 207);
    assert.deepEqual(latest, {
      startTimeMs: Date.parse('2017-09-23T21:44:51Z') + (byronSeconds + (conway.slot - shelleySlot)) * 1000,
      startSlot: conway.slot,
      slotLengthMs: 1000,
      epochLength: 432_000,
      startEpoch: 507,
    });
    // Block 11321965 (slot 144711632) was minted on 2025-01-07 at 19:25:23 UTC, in epoch 532.
    assert.equal(new Date(slotToMs(t, 144_711_632)).toISOString(), '2025-01-07T19:25:23.000Z');
    assert.equal(slotToEpoch(t, 144_711_632), 532);
    await client.networkTime();
    assert.equal(fake.requests['queryLedgerState/eraSummaries'], 1);
  });

  it('reads the generated eraSummaries and startTime vectors', async () => {
    const { client } = await setup([], {
      queries: {
        'queryLedgerState/eraSummaries': () => ({
          text: vector('ledger-state/queryLedgerState.eraSummaries.000.json'),
        }),
        'queryNetwork/startTime': () => ({ text: vector('network/queryNetwork.startTime.000.json') }),
      },
    });
    const { eras, ...latest } = await client.networkTime();
    assert.ok(eras && eras.length > 0);
    assert.deepEqual(eras.at(-1), latest, 'the top level is the latest era');
    assert.deepEqual(latest, {
      startTimeMs: Date.parse('1864-05-08T01:04:16.594Z') - 14_000,
      startSlot: 8950060,
      slotLengthMs: 10159,
      epochLength: 6384575,
      startEpoch: 1834798,
    });
  });

  it('a frozen source fails a query within the keepalive; a live one busy with a long query is waited for', async () => {
    // Two servers that take queries and never answer them at once; the frozen one (a stopped process, a half-open
    // connection) does not answer pings either. Before, the query socket had no keepalive: the frozen source held
    // each query for the whole request timeout, and a ledger-reading run waited out three of them per attempt.
    const servers: WebSocketServer[] = [];
    const serve = (autoPong: boolean, answerAfterMs: number | null) =>
      new Promise<string>((resolve) => {
        const wss: WebSocketServer = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong }, () =>
          resolve(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`),
        );
        wss.on('connection', (ws) =>
          ws.on('message', (data: Buffer) => {
            const { id } = JSON.parse(data.toString()) as { id: number };
            if (answerAfterMs !== null)
              setTimeout(
                () => ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'x', result: 533, id })),
                answerAfterMs,
              );
          }),
        );
        servers.push(wss);
      });
    const clients: ChainSource[] = [];
    const open = (url: string) => {
      const c = createOgmiosClient(url, { requestTimeoutMs: 4_000, queryKeepAliveMs: 100 });
      clients.push(c);
      return c;
    };
    try {
      await assert.rejects(
        open(await serve(false, null)).query('queryLedgerState/epoch'),
        (e: unknown) => e instanceof OgmiosConnectionError && /silent for 200 ms/.test(e.message),
      );
      // Answered after six keepalive windows, by a source that answers pings meanwhile.
      assert.equal(await open(await serve(true, 600)).query('queryLedgerState/epoch'), 533);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      for (const wss of servers) {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
      }
    }
  });

  it('reconnects the query socket after a drop, and refuses work once closed', async () => {
    let epoch = 533;
    const { client, fake } = await setup([], { queries: { 'queryLedgerState/epoch': () => ({ result: epoch++ }) } });
    assert.equal(await client.query('queryLedgerState/epoch'), 533);
    fake.dropConnections();
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(await client.query('queryLedgerState/epoch'), 534);
    await client.close();
    await assert.rejects(client.query('queryLedgerState/epoch'), OgmiosConnectionError);
    await assert.rejects(client.nextEvents(1, 0), OgmiosConnectionError);
  });
});

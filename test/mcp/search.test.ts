/**
 * The `search` tool's hits through the tool server (official client) on the devnet-synced store (world.ts).
 *
 * Oracle: each hit names the next tool and the arguments to pass, so calling that tool with those arguments must
 * answer (no isError), for every hit of hex-prefix, ticker, pool id and identifier, block and epoch queries.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { bech32, hex } from '@scure/base';
import { createApp } from '../../api/app.js';
import { search } from '../../api/read/search.js';
import { loadAssets } from '../../api/present/market.js';
import { createSearchActivities } from '../../activities/search/index.js';
import { pool as marketPool, putAll, token } from '../market-read/seed.js';
import {
  BLOCKS,
  CHECKPOINTS,
  DERIVED_RUNS,
  NFT_ASSETS,
  NFT_COLLECTIONS,
  POOLS,
  SEARCH_TERMS,
  TOKENS,
  normaliseTerm,
  type BlockDoc,
  type PoolDoc,
  type SearchTermDoc,
} from '../../mongo/collections/index.js';
import { put } from '../../mongo/store.js';
import type { Block } from '../../cardano/chain/types.js';
import type { TestApi } from '../api/seed.js';
import { apiOverSyncedFrames, recorded } from '../api/synced-frames.js';
import { tempStore } from '../sync/helpers.js';
import { acquireWorld, connect, releaseWorld, type World } from './world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const text = (r: Json) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('');

describe('search: every hit names a tool call that answers (devnet)', function () {
  this.timeout(300_000);
  let world: World;
  let server: Server;
  let client: Client;
  let pools: PoolDoc[] = [];
  /** The REST API of the same app: its names and tickers are the oracle of what a label shows. */
  let rest: (path: string) => Promise<Json>;

  const raw = async (name: string, args: Json) => (await client.callTool({ name, arguments: args })) as Json;
  const search = async (query: string, limit = 50): Promise<Json[]> => {
    const r = await raw('search', { query, limit });
    assert.notEqual(r.isError, true, text(r));
    return (r.structuredContent as Json).hits as Json[];
  };
  /** Calls each hit's tool with its arguments; returns the failures as "query → kind id: tool(args): error". */
  const failures = async (query: string, hits: Json[]) => {
    const out: string[] = [];
    for (const h of hits) {
      if (typeof h.tool !== 'string') {
        out.push(`${query} → ${h.kind} ${h.id}: no tool`);
        continue;
      }
      const r = await raw(h.tool, h.arguments);
      if (r.isError === true)
        out.push(`${query} → ${h.kind} ${h.id}: ${h.tool}(${JSON.stringify(h.arguments)}): ${text(r)}`);
    }
    return out;
  };

  before(async () => {
    world = await acquireWorld();
    server = createServer(createApp(world.deps).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = await connect(`${base}/api/mcp`, 'modern');
    rest = async (path) => (await (await fetch(`${base}/api/v1${path}`)).json()) as Json;
    for await (const p of world.store.collection(POOLS).scan()) pools.push(p);
    pools = pools.sort((a, b) => a.id - b.id);
  });
  after(async () => {
    await client?.close();
    server?.close();
    await releaseWorld();
  });

  it('token hits of hex-prefix and ticker queries all answer get_token; LP tokens and pool NFTs are no token hits', async () => {
    const bad: string[] = [];
    let tokenHits = 0;
    for (const q of [...'0123456789abcdef', 'usd', 'min', 'snek']) {
      const hits = await search(q);
      tokenHits += hits.filter((h) => h.kind === 'token').length;
      bad.push(...(await failures(q, hits)));
    }
    assert.ok(tokenHits > 0, 'the queries find tokens');
    assert.deepEqual(bad, []);
    // Every token the store holds without a pool, and every LP token, is unfindable by its unit.
    const markers = new Set(pools.flatMap((p) => (p.lpToken ? [p.lpToken] : [])));
    const unpooled: string[] = [];
    for await (const t of world.store.collection(TOKENS).scan())
      if (t.poolIds.length === 0 || markers.has(t._id)) unpooled.push(t._id);
    assert.ok(unpooled.length > 0, 'the devnet has tokens without a pool or LP tokens');
    for (const unit of unpooled.slice(0, 40)) {
      const hits = await search(unit);
      assert.ok(!hits.some((h) => h.kind === 'token' && h.id === unit), `${unit} is a token hit`);
    }
  });

  it('a token asked by its CIP-14 fingerprint (asset1…, as explorers and wallets show it) is found by search, GET /tokens?q and list_tokens; get_token answers', async () => {
    // Oracle: the fingerprints Cardanoscan and pool.pm show for mainnet SNEK and HOSKY, whose units the devnet's tokens
    // carry (a fingerprint is blake2b-160 of the unit, whatever the chain); REST answers each unit as that token.
    const known: [string, string][] = [
      [
        '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b',
        'asset108xu02ckwrfc8qs9d97mgyh4kn8gdu9w8f5sxk',
      ],
      [
        'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235484f534b59',
        'asset17q7r59zlc3dgw0venc80pdv566q6yguw03f0d9',
      ],
    ];
    for (const [unit, fingerprint] of known) {
      assert.equal((await rest(`/tokens/${unit}`)).asset?.unit, unit, `the devnet trades ${unit}`);
      for (const q of [fingerprint, fingerprint.toUpperCase(), ` ${fingerprint}\n`]) {
        const hits = await search(q);
        assert.deepEqual(
          hits.slice(0, 1).map((h) => [h.kind, h.id, h.tool]),
          [['token', unit, 'get_token']],
          `${JSON.stringify(q)}: ${JSON.stringify(hits)}`,
        );
        assert.deepEqual(await failures(q, hits.slice(0, 1)), []);
        // The token list's search text (REST q, list_tokens query) finds the same token, and only it.
        const listed = (await rest(`/tokens?minLiquidity=0&q=${encodeURIComponent(q)}`)).items as Json[];
        assert.deepEqual(
          listed.map((t) => t.asset.unit),
          [unit],
          `GET /tokens?q=${JSON.stringify(q)}`,
        );
        const tool = await raw('list_tokens', { query: q, minLiquidityAda: 0 });
        assert.notEqual(tool.isError, true, text(tool));
        assert.deepEqual(
          ((tool.structuredContent as Json).items as Json[]).map((t) => t.asset.unit),
          [unit],
          `list_tokens ${JSON.stringify(q)}`,
        );
      }
    }
    // Short name queries keep matching names only, not a substring of some token's fingerprint.
    for (const q of ['asset', 'asset1'])
      assert.deepEqual((await rest(`/tokens?minLiquidity=0&q=${q}`)).items, [], `GET /tokens?q=${q}`);
  });
  it('a name misspelt at its end ("snekk", "Minswapp") finds the nearest names, saying so; a hex text does not', async () => {
    // Oracle: REST's token list names the tokens (Snek, Minswap); nothing starts with the misspelt texts.
    const tokens = (await rest('/tokens?pageSize=200&minLiquidity=0')).items as Json[];
    const unitOf = (name: string) => tokens.find((t) => t.asset.name === name)?.asset.unit as string;
    for (const [q, name] of [
      ['snekk', 'Snek'],
      ['Minswapp', 'Minswap'],
      ['iagonxx', 'IAGON'],
    ] as const) {
      assert.ok(unitOf(name), `REST lists ${name}`);
      const hits = await search(q);
      const token = hits[0];
      assert.equal(token?.id, unitOf(name), `${q}: ${JSON.stringify(hits)}`);
      assert.equal(token.tool, 'get_token');
      for (const h of hits) assert.match(h.detail as string, new RegExp(`^no name starts with "${q}"; nearest by`));
      assert.deepEqual(await failures(q, hits), []);
    }
    // An identifier-like text is exact or nothing: a transaction hash missing its last characters finds nothing.
    assert.deepEqual(await search('abcdefabcdefabcdef'), []);
    assert.deepEqual(await search('qqqqqqq'), []);
  });
  it('a name followed by what it is ("Snek token", "SNEK price", "<ticker> staking pool", "<collection> NFT") finds it, saying so', async () => {
    // Oracle: REST's token, stake pool and NFT collection lists name the entities; nothing starts with the texts asked.
    const tokens = (await rest('/tokens?pageSize=200&minLiquidity=0')).items as Json[];
    const unitOf = (name: string) => tokens.find((t) => t.asset.name === name)?.asset.unit as string;
    const stakePool = ((await rest('/staking/pools?pageSize=200')).items as Json[]).find((p) => p.ticker) as Json;
    const collection = ((await rest('/nft/collections?pageSize=1')).items as Json[])[0] as Json;
    assert.ok(unitOf('Snek') && unitOf('IAGON') && stakePool.ticker && collection.name);
    for (const [q, name, id] of [
      ['Snek token', 'Snek', unitOf('Snek')],
      ['SNEK price', 'SNEK', unitOf('Snek')],
      ['IAGON coin', 'IAGON', unitOf('IAGON')],
      [`${stakePool.ticker} pool`, stakePool.ticker, stakePool.id],
      [`${stakePool.ticker} staking pool`, stakePool.ticker, stakePool.id],
      [`${collection.name} NFT collection`, collection.name, collection.policyId],
    ] as const) {
      const hits = await search(q);
      assert.equal(hits[0]?.id, id, `${q}: ${JSON.stringify(hits.slice(0, 3))}`);
      for (const h of hits)
        assert.match(h.detail as string, new RegExp(`^no name starts with "${q}"; found by "${name}"`));
      assert.deepEqual(await failures(q, hits.slice(0, 3)), []);
    }
    // A name that itself ends in such a word is found whole, as before: no words are left out.
    const hosky = await search('HOSKY Token');
    assert.ok(hosky.length > 0 && !String(hosky[0]?.detail).startsWith('no name'), JSON.stringify(hosky[0]));
  });

  it('a DEX pool is found by its id ("13", "pool 13") and its identifier, and get_pool answers', async () => {
    assert.ok(pools.length > 0);
    const some = [pools[0]!, pools[Math.floor(pools.length / 2)]!, pools[pools.length - 1]!];
    const thirteen = pools.find((p) => p.id === 13);
    if (thirteen) some.push(thirteen);
    for (const p of some) {
      for (const q of [String(p.id), `pool ${p.id}`, p.identifier]) {
        const hits = await search(q);
        const hit = hits.find((h) => h.kind === 'pool' && h.id === String(p.id));
        assert.ok(hit, `${q} finds pool ${p.id}: ${JSON.stringify(hits.slice(0, 5))}`);
        assert.equal(hit.tool, 'get_pool');
        assert.deepEqual(hit.arguments, { poolId: p.id });
        assert.deepEqual(await failures(q, hits), []);
      }
    }
  });

  it('an LP token asked by its unit (get_address and get_transaction list it as an asset) finds its pool; get_pool answers', async () => {
    // Oracle: each pool's REST answer names its LP token (lpToken); get_token answers that unit "no indexed DEX pool"
    // and sends the caller to search, which found nothing for it.
    const withLp = pools.filter((p) => p.lpToken);
    assert.ok(withLp.length > 0, 'the devnet has pools with an LP token');
    for (const p of [withLp[0]!, withLp[Math.floor(withLp.length / 2)]!, withLp[withLp.length - 1]!]) {
      const lpToken = (await rest(`/pools/${p.id}`)).lpToken as string;
      assert.match(lpToken, /^[0-9a-f]{58,120}$/, `REST pool ${p.id} names its LP token`);
      for (const q of [lpToken, lpToken.toUpperCase()]) {
        const hits = await search(q);
        const hit = hits.find((h) => h.kind === 'pool');
        assert.ok(hit, `${q} finds pool ${p.id}: ${JSON.stringify(hits)}`);
        assert.equal(hit.id, String(p.id));
        assert.equal(hit.tool, 'get_pool');
        assert.deepEqual(hit.arguments, { poolId: p.id });
        assert.deepEqual(await failures(q, hits), []);
        const pool = (await raw(hit.tool as string, hit.arguments as Json)).structuredContent as Json;
        assert.equal(pool.lpToken, lpToken, 'get_pool answers the pool of that LP token');
      }
    }
  });

  it('a label as hits and views show it finds its entity first: "Snek (SNEK)", "ADA/SNEK on minswap-v2", "[ALPHA] Alpha…"', async () => {
    // Written from the REST answers (name, ticker, displayName, dex), as the Markdown views title them: an agent that
    // copies a name from a hit or a view and searches it again finds that entity.
    const labels: [string, string, string][] = [];
    const tokens = (await rest('/tokens?sort=liquidity&minLiquidity=0&pageSize=20')).items as Json[];
    let same = 0;
    for (const t of tokens)
      if (t.asset.name && t.asset.ticker && t.asset.name !== t.asset.ticker)
        labels.push([`${t.asset.name} (${t.asset.ticker})`, 'token', t.asset.unit]);
      else if (t.asset.name && t.asset.name === t.asset.ticker) {
        // A name that is its ticker is the label once, as the view's title: "NIGHT", not "NIGHT (NIGHT)".
        const hit = (await search(t.asset.name, 50)).find((h) => h.kind === 'token' && h.id === t.asset.unit);
        assert.equal(hit?.label, t.asset.name);
        same++;
      }
    assert.ok(same > 0, 'the devnet has a token whose name is its ticker');
    for (const p of (await rest('/pools?sort=tvl&pageSize=10')).items as Json[])
      labels.push([`${p.tokenA.displayName}/${p.tokenB.displayName} on ${p.dex}`, 'pool', String(p.id)]);
    for (const p of (await rest('/staking/pools?pageSize=10')).items as Json[])
      if (p.ticker && p.name) labels.push([`[${p.ticker}] ${p.name}`, 'stake_pool', p.id]);
    for (const kind of ['token', 'pool', 'stake_pool'])
      assert.ok(labels.filter((l) => l[1] === kind).length >= 3, `the devnet has ${kind}s with names`);
    const missed: string[] = [];
    for (const [q, kind, id] of labels) {
      const [first] = await search(q, 5);
      if (first?.kind !== kind || first.id !== id)
        missed.push(`${q} → ${first ? `${first.kind} ${first.id}` : 'nothing'}`);
    }
    assert.deepEqual(missed, []);
  });

  it('"block N" and "epoch N" find what the labels show; block and epoch hits name a tool that answers', async () => {
    const cp = await world.store.collection(CHECKPOINTS).get('sync');
    const tip = await world.store.collection(BLOCKS).get(cp!.id);
    assert.ok(tip);
    let withTxs: number | null = null;
    let empty: number | null = null;
    for (let h = 1; h <= tip.height && (withTxs === null || empty === null); h++) {
      const [b] = await world.store.collection(BLOCKS).find('byHeight', { eq: [h], limit: 1 });
      if (!b) continue;
      if ((b.txIds?.length ?? 0) > 0) withTxs ??= h;
      else empty ??= h;
    }
    assert.ok(withTxs !== null, 'the devnet has a block with transactions');
    const block = await search(`block ${withTxs}`);
    assert.ok(
      block.some((h) => h.kind === 'block' && h.label === `block ${withTxs}`),
      JSON.stringify(block),
    );
    // "#N", as explorers write a height, is that block only (never epoch N).
    assert.deepEqual(
      (await search(`#${withTxs}`)).map((h) => h.label),
      [`block ${withTxs}`],
    );
    // "tx <hash>" is that transaction: the block's first one (the devnet's own block document lists it).
    const [first] = await world.store.collection(BLOCKS).find('byHeight', { eq: [withTxs], limit: 1 });
    const txId = first!.txIds![0]!;
    for (const q of [`tx ${txId}`, `Transaction ${txId.toUpperCase()}`]) {
      const hits = await search(q);
      assert.deepEqual(
        hits.map((h) => [h.kind, h.tool, h.arguments]),
        [['transaction', 'get_transaction', { hash: txId }]],
        q,
      );
    }
    const epoch = await search(`epoch ${tip.epoch}`);
    assert.ok(
      epoch.some((h) => h.kind === 'epoch' && h.label === `epoch ${tip.epoch}`),
      JSON.stringify(epoch),
    );
    const queries = [
      'epoch 1',
      'block 10',
      '#10',
      '1',
      '10',
      String(tip.height),
      `Epoch ${tip.epoch}`,
      String(tip.epoch),
    ];
    if (empty !== null) queries.push(String(empty), `block ${empty}`);
    const bad: string[] = [];
    for (const q of queries) bad.push(...(await failures(q, await search(q))));
    assert.deepEqual(bad, []);
  });
  it('an NFT asked by its own name ("Dev Punks #12") finds its collection, whose tool answers', async () => {
    let checked = 0;
    for await (const c of world.store.collection(NFT_COLLECTIONS).scan()) {
      const [nft] = await world.store.collection(NFT_ASSETS).find('byPolicy', { eq: [c.policyId], limit: 1 });
      if (!nft) continue;
      // The name as its metadata writes it: the collection's name and a number.
      assert.match(nft.name, /\s*#?\s*\d+$/, nft.name);
      const hits = await search(nft.name);
      assert.deepEqual(
        hits.map((h) => [h.kind, h.id]),
        [['nft_collection', c.policyId]],
        `${nft.name}: ${JSON.stringify(hits)}`,
      );
      assert.match(hits[0]!.detail as string, new RegExp(`^the collection of ${nft.name.replace(/[#$]/g, '\\$&')}`));
      assert.deepEqual(await failures(nft.name, hits), []);
      checked++;
    }
    assert.ok(checked >= 3, `${checked} collections`);
  });
  it('an NFT asked by its unit (as get_wallet and get_nft_listings show it) finds its collection, whose tool answers', async () => {
    // get_token answers only for tokens with a DEX pool and sends the caller to search: an NFT unit met no hit at all.
    // Oracle: a unit is its policy id + asset name (the chain's own key), so its collection is the policy's; the
    // listings route names the units (CIP-25 names and CIP-68 (222) user tokens alike).
    let checked = 0;
    for await (const c of world.store.collection(NFT_COLLECTIONS).scan()) {
      const listed = (await rest(`/nft/collections/${c.policyId}/listings?limit=1`)).items as Json[];
      const unit = listed[0]?.asset?.unit as string | undefined;
      if (!unit) continue;
      assert.equal(unit.slice(0, 56), c.policyId);
      const gone = await raw('get_token', { unit });
      assert.equal(gone.isError, true, 'an NFT is no token with a pool');
      for (const q of [unit, unit.toUpperCase()]) {
        const hits = await search(q);
        assert.deepEqual(
          hits.map((h) => [h.kind, h.id, h.tool]),
          [['nft_collection', c.policyId, 'get_nft_collection']],
          `${q}: ${JSON.stringify(hits)}`,
        );
        assert.match(hits[0]!.detail as string, new RegExp(`^the collection of ${listed[0]!.asset.name}`));
        assert.deepEqual(await failures(q, hits), []);
      }
      checked++;
    }
    assert.ok(checked >= 3, `${checked} collections`);
  });
  it('a CIP-68 NFT asked by its (100) reference unit (a mint lists it beside the NFT) finds the NFT’s collection', async () => {
    // get_transaction and the explorer list a CIP-68 mint's two units, the (100) reference NFT first, both named by
    // their asset name ("Relic7"); search answered nothing for the reference one, a dead end. Oracle: the devnet
    // ledger's UTxOs holding a (100) token (CIP-67 prefix 000643b0, reference §3.2) of a policy REST lists as a
    // collection; its user NFT is the same policy and suffix under (222) 000de140, whose name REST's listings or the
    // ledger's datum give.
    const collections = new Set(((await rest('/nft/collections')).items as Json[]).map((c) => c.policyId as string));
    const refs: string[] = [];
    for (const u of world.devnet.ledger.utxos.values())
      for (const [policy, names] of Object.entries(u.value.assets))
        for (const name of Object.keys(names))
          if (name.startsWith('000643b0') && collections.has(policy)) refs.push(policy + name);
    assert.ok(refs.length >= 3, `${refs.length} reference NFTs of a collection on the ledger`);
    for (const ref of refs.slice(0, 5)) {
      const policy = ref.slice(0, 56);
      const user = `${policy}000de140${ref.slice(64)}`;
      const nft = await world.store.collection(NFT_ASSETS).get(user);
      assert.ok(nft, `${user} is an NFT`);
      for (const q of [ref, ref.toUpperCase()]) {
        const hits = await search(q);
        assert.deepEqual(
          hits.map((h) => [h.kind, h.id, h.tool]),
          [['nft_collection', policy, 'get_nft_collection']],
          `${q}: ${JSON.stringify(hits)}`,
        );
        assert.match(hits[0]!.detail as string, new RegExp(`^the collection of ${nft.name.replace(/[#$]/g, '\\$&')}`));
        assert.deepEqual(await failures(q, hits), []);
      }
    }
  });
  it('an ADA Handle asked by its token unit (a wallet lists it as a position) finds the handle; resolve_handle answers its holder', async () => {
    // get_wallet lists a handle's token as a plain position (unit, name "fjord2473", no price) and get_token answers
    // "not found … call search", where that unit met no hit. Oracle: the devnet ledger's UTxOs holding a token of
    // the ADA Handle policy (reference §4): a legacy name is hex(name), a CIP-68 or NFT-subhandle holder token
    // 000de140 ‖ hex(name), its reference 000643b0 ‖ hex(name); the handle resolves to the address of the UTxO
    // holding its holder token.
    const HANDLE_POLICY = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';
    const utf8 = (h: string) => new TextDecoder().decode(hex.decode(h));
    const found: { unit: string; name: string; holder: string | null }[] = [];
    for (const u of world.devnet.ledger.utxos.values())
      for (const nameHex of Object.keys(u.value.assets[HANDLE_POLICY] ?? {})) {
        const prefix = nameHex.slice(0, 8);
        if (prefix === '000de140')
          found.push({ unit: HANDLE_POLICY + nameHex, name: utf8(nameHex.slice(8)), holder: u.address });
        else if (prefix === '000643b0')
          found.push({ unit: HANDLE_POLICY + nameHex, name: utf8(nameHex.slice(8)), holder: null });
        else if (!/^000[0-9a-f]{4}0/.test(prefix))
          found.push({ unit: HANDLE_POLICY + nameHex, name: utf8(nameHex), holder: u.address });
      }
    const held = found.filter((f) => f.holder !== null);
    assert.ok(
      held.some((f) => f.unit.slice(56, 64) === '000de140') && held.some((f) => f.unit.slice(56, 64) !== '000de140'),
    );
    for (const f of [...held.slice(0, 6), ...found.filter((x) => x.holder === null).slice(0, 2)]) {
      const holder = held.find((h) => h.name === f.name);
      for (const q of [f.unit, f.unit.toUpperCase()]) {
        const hits = await search(q);
        assert.deepEqual(
          hits.map((h) => [h.kind, h.id, h.tool, h.arguments]),
          holder ? [['handle', f.name, 'resolve_handle', { handle: `$${f.name}` }]] : [],
          `${q} (${f.name}): ${JSON.stringify(hits)}`,
        );
        assert.deepEqual(await failures(q, hits), []);
      }
      if (!holder) continue;
      const r = await raw('resolve_handle', { handle: `$${f.name}` });
      assert.equal((r.structuredContent as Json).address, holder.holder, `$${f.name} resolves to its token's UTxO`);
    }
  });
  it('a unit written with a held handle’s name that is none of its tokens is no hit (another policy, or a CIP-68 name in the legacy form)', async () => {
    // search said "the ADA Handle whose token this unit is" for f0ff48bb… ‖ hex("fjord2473"), which no transaction
    // minted ($fjord2473 is a CIP-68 handle: its token is 000de140 ‖ hex(name)), nor the name under the DeMi policy.
    // Oracle: the devnet ledger's UTxOs (the units that exist).
    const policies = [
      'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a',
      '6c32db33a422e0bc2cb535bb850b5a6e9a9572222056d6ddc9cbc26e',
    ];
    const onChain = new Set<string>();
    for (const u of world.devnet.ledger.utxos.values())
      for (const p of policies) for (const n of Object.keys(u.value.assets[p] ?? {})) onChain.add(p + n);
    const cip68 = [...onChain]
      .filter((u) => u.slice(56, 64) === '000de140' && !new TextDecoder().decode(hex.decode(u.slice(64))).includes('@'))
      .slice(0, 3);
    assert.ok(cip68.length > 0);
    let checked = 0;
    for (const unit of cip68) {
      const nameHex = unit.slice(64);
      for (const made of [policies[0] + nameHex, policies[1] + '000de140' + nameHex, policies[1] + nameHex]) {
        assert.ok(!onChain.has(made), `${made} is on chain`);
        assert.deepEqual(
          (await search(made)).filter((h) => h.kind === 'handle'),
          [],
          made,
        );
        checked++;
      }
      // Its own token still finds it.
      assert.equal((await search(unit)).filter((h) => h.kind === 'handle').length, 1, unit);
    }
    assert.ok(checked >= 3);
  });
});

describe('search: a past epoch and an empty block (no tool answers for them) are no hits', function () {
  this.timeout(60_000);
  const block = (height: number, epoch: number, txIds: string[]): BlockDoc => ({
    _id: String(height).repeat(64).slice(0, 64),
    height,
    slot: height * 20,
    time: new Date(Date.UTC(2026, 0, 1) + height * 20_000).toISOString(),
    epoch,
    era: 'conway',
    prevHash: 'genesis',
    size: 0,
    txCount: txIds.length,
    fees: '0',
    totalOutput: '0',
    issuerVkey: null,
    poolId: null,
    protocolVersion: null,
    txIds,
  });

  it('"1" finds neither empty block 1 nor past epoch 1; "2", "block 2" and "epoch 2" name tools', async () => {
    const t = await tempStore();
    try {
      const tip = block(3, 2, ['c'.repeat(64)]);
      await t.store.write([
        put(BLOCKS, block(1, 1, [])),
        put(BLOCKS, block(2, 1, ['b'.repeat(64)])),
        put(BLOCKS, tip),
        put(CHECKPOINTS, {
          _id: 'sync',
          slot: tip.slot,
          id: tip._id,
          height: 3,
          points: [],
          tip: null,
          updatedAt: tip.time,
        }),
      ]);
      const hits = async (query: string) => (await search({ store: t.store }, { query, limit: 50 })).hits;
      for (const q of ['1', 'block 1', 'epoch 1']) assert.deepEqual(await hits(q), [], q);
      const two = await hits('2');
      assert.deepEqual(
        two.map((h) => [h.kind, h.label, h.tool, h.arguments]),
        [
          ['block', 'block 2', 'get_transaction', { hash: 'b'.repeat(64) }],
          ['epoch', 'epoch 2', 'list_stake_pools', { sort: 'blocks' }],
        ],
      );
      assert.deepEqual(await hits('block 2'), [two[0]]);
      assert.deepEqual(await hits('Epoch 2'), [two[1]]);
    } finally {
      await t.cleanup();
    }
  });
});

describe('search: prefix scans over names with characters outside the BMP', () => {
  it('"hosky" finds a token named "HOSKY🐶" (an emoji right after the prefix), as it finds "HOSKY Token"', async () => {
    const t = await tempStore();
    try {
      const term = (id: string, name: string) =>
        put(SEARCH_TERMS, {
          _id: `token|${id}|0`,
          term: normaliseTerm(name),
          kind: 'token',
          id,
          label: name,
          detail: null,
          weight: 1,
        });
      await t.store.write([
        term('a'.repeat(58), 'HOSKY🐶'),
        term('b'.repeat(58), 'HOSKY Token'),
        term('c'.repeat(58), 'HOSKZ'),
      ]);
      const { hits } = await search({ store: t.store }, { query: 'hosky', limit: 50 });
      assert.deepEqual(hits.map((h) => h.label).sort(), ['HOSKY Token', 'HOSKY🐶']);
      assert.deepEqual((await search({ store: t.store }, { query: '🐶', limit: 50 })).hits, []);
    } finally {
      await t.cleanup();
    }
  });
});

describe('search: ranking when many terms share a prefix', () => {
  /** A search term document as the search recompute writes it (activities/search/index.ts entityDocs). */
  const term = (kind: SearchTermDoc['kind'], id: string, name: string, weight: number, n = 0) =>
    put(SEARCH_TERMS, {
      _id: `${kind}|${id}|${n}`,
      term: normaliseTerm(name),
      kind,
      id,
      label: kind === 'handle' ? `$${name}` : name,
      detail: null,
      weight,
    });

  it('a token is found by its ticker prefix although more than 500 handles start with the same letters', async () => {
    // Mainnet holds over a million handles; "agi0" … "agi599" sort before "agix", so one prefix scan of 500 terms
    // over all kinds ended in handles and the AGIX token (the only token, most weight) was no hit at all.
    const t = await tempStore();
    try {
      const handles = Array.from({ length: 600 }, (_, i) => `agi${i}`);
      const agix = 'f'.repeat(56) + '41474958';
      await t.store.write([
        ...handles.map((h) => term('handle', h, h, 0)),
        term('token', agix, 'AGIX', 589_114),
        term('token', agix, 'SingularityNet AGIX Token', 589_114, 1),
      ]);
      const { hits } = await search({ store: t.store }, { query: 'agi', limit: 10 });
      assert.equal(hits.length, 10);
      assert.deepEqual(
        [hits[0]?.kind, hits[0]?.id, hits[0]?.tool],
        ['token', agix, 'get_token'],
        hits.map((h) => h.label).join(', '),
      );
      assert.ok(hits.slice(1).every((h) => h.kind === 'handle'));
    } finally {
      await t.cleanup();
    }
  });

  it('"$name…" ranks handles first: "$fjord" finds the handle $fjord2473 before the stake pool ticker FJORD', async () => {
    const t = await tempStore();
    try {
      const pool = 'pool16hgexh7wpdux0v5tze8shcry0lvxpspanac0qur3ed222cwy6gf';
      await t.store.write([
        term('stake_pool', pool, 'FJORD', 6_948_091),
        term('stake_pool', pool, 'Fjord Stake Pool', 6_948_091, 1),
        term('handle', 'fjord2473', 'fjord2473', 0),
      ]);
      const kinds = async (query: string) =>
        (await search({ store: t.store }, { query, limit: 10 })).hits.map((h) => `${h.kind} ${h.id}`);
      assert.deepEqual(await kinds('$fjord'), ['handle fjord2473', `stake_pool ${pool}`]);
      assert.deepEqual(await kinds('$FJORD'), ['handle fjord2473', `stake_pool ${pool}`]);
      // Without "$" the exact ticker comes first, as before.
      assert.deepEqual(await kinds('fjord'), [`stake_pool ${pool}`, 'handle fjord2473']);
    } finally {
      await t.cleanup();
    }
  });
});

/**
 * The API synced over one recorded block, with a tool-server client, for the describe block calling it (its mocha
 * hooks open and close them); `block` is the recording, the tests' oracle.
 */
function overRecordedBlock(file: string): { api: TestApi; client: Client; block: Block } {
  const w = {} as { api: TestApi; client: Client; block: Block };
  before(async () => {
    const rec = recorded(file);
    w.block = rec.block;
    w.api = await apiOverSyncedFrames([rec.frame]);
    w.client = await connect(`${w.api.url}/api/mcp`, 'modern');
  });
  after(async () => {
    await w.client?.close();
    await w.api?.close();
  });
  return w;
}

describe('search: a Byron address (base58) of a recorded mainnet block', function () {
  this.timeout(120_000);
  const w = overRecordedBlock('nextBlock.rollForward.mainnet-mary-5567164.kupo-golden-1.json');

  it('finds each Byron address the block pays (Ae2…, Ddz…) and names get_address, which answers its balance', async () => {
    // Oracle: the recorded outputs. Every output of this block is unspent within it, so an address holds the sum
    // of its outputs.
    const held = new Map<string, bigint>();
    for (const t of w.block.transactions ?? [])
      for (const o of t.outputs)
        if (!o.address.startsWith('addr'))
          held.set(o.address, (held.get(o.address) ?? 0n) + (o.value.ada as { lovelace: bigint }).lovelace);
    assert.ok([...held.keys()].some((a) => a.startsWith('Ae2')) && [...held.keys()].some((a) => a.startsWith('Ddz')));
    for (const [address, lovelace] of held) {
      const r = (await w.client.callTool({ name: 'search', arguments: { query: address } })) as Json;
      const hits = (r.structuredContent as Json).hits as Json[];
      assert.deepEqual(
        hits.map((h) => [h.kind, h.tool, h.arguments]),
        [['address', 'get_address', { address }]],
        address,
      );
      const a = (await w.client.callTool({ name: 'get_address', arguments: { address } })) as Json;
      assert.notEqual(a.isError, true, text(a));
      assert.equal((a.structuredContent as Json).balanceLovelace, String(lovelace), address);
    }
    // A base58 text that is no Byron address (its checksum broken) is no hit.
    const [some] = held.keys();
    const broken = `${some!.slice(0, -1)}${some!.endsWith('1') ? '2' : '1'}`;
    const r = (await w.client.callTool({ name: 'search', arguments: { query: broken } })) as Json;
    assert.deepEqual((r.structuredContent as Json).hits, []);
  });
});

describe('search: a stake key with an account but no address carrying it (a real mainnet script key)', function () {
  this.timeout(120_000);
  const w = overRecordedBlock('block.mainnet-conway-11322286-slot144718140.koralabs.json');

  it('finds a key the block withdraws from although no address of the block carries it; get_address answers it', async () => {
    // Oracle: the recorded block. The stake credential of a base address is bytes 29..57 of it (CIP-19); a withdrawal
    // names its reward address, whose credential is bytes 1..29. A DEX batcher's script key withdraws (0 ADA, to
    // run its staking validator) while no output or input address carries it.
    const credOf = (address: string, from: number) =>
      hex.encode(bech32.fromWords(bech32.decode(address as `${string}1${string}`, 1023).words).slice(from, from + 28));
    const carried = new Set(
      (w.block.transactions ?? [])
        .flatMap((t) => t.outputs.map((o) => o.address))
        .filter((a) => /^addr1[qrzx]/.test(a))
        .map((a) => credOf(a, 29)),
    );
    const withdrawn = new Map<string, bigint>();
    for (const t of w.block.transactions ?? [])
      for (const [key, w] of Object.entries(t.withdrawals ?? {}))
        if (!carried.has(credOf(key, 1)))
          withdrawn.set(key, (withdrawn.get(key) ?? 0n) + (w as { ada: { lovelace: bigint } }).ada.lovelace);
    assert.ok(withdrawn.size > 0, 'the block withdraws from a key no address of it carries');
    for (const [key, lovelace] of withdrawn) {
      const a = (await w.client.callTool({ name: 'get_address', arguments: { address: key } })) as Json;
      assert.notEqual(a.isError, true, text(a));
      const s = a.structuredContent as Json;
      assert.equal(s.addressCount, 0, key);
      assert.equal(s.stakeAccount.withdrawnLovelace, String(lovelace), key);
      const r = (await w.client.callTool({ name: 'search', arguments: { query: key } })) as Json;
      assert.deepEqual(
        ((r.structuredContent as Json).hits as Json[]).map((h) => [h.kind, h.tool, h.arguments]),
        [['address', 'get_address', { address: key }]],
        `search ${key}: get_address answers for it, so search finds it`,
      );
    }
  });

  it('finds an address and a stake key written in capitals (BIP-173) under their lowercase form', async () => {
    // Oracle: a base address the recorded block pays, and its stake key (CIP-19: reward header + bytes 29..57).
    const address = (w.block.transactions ?? [])
      .flatMap((t) => t.outputs.map((o) => o.address))
      .find((a) => /^addr1q/.test(a))!;
    const bytes = bech32.fromWords(bech32.decode(address as `${string}1${string}`, 1023).words);
    const stake = bech32.encode('stake', bech32.toWords(Uint8Array.of(0xe1, ...bytes.slice(29, 57))), 1023);
    for (const id of [address, stake]) {
      const r = (await w.client.callTool({ name: 'search', arguments: { query: id.toUpperCase() } })) as Json;
      assert.deepEqual(
        ((r.structuredContent as Json).hits as Json[]).map((h) => [h.kind, h.id, h.tool, h.arguments]),
        [['address', id, 'get_address', { address: id }]],
        id.toUpperCase(),
      );
    }
  });
});

describe('search: an answer without hits says when the names index is missing or trails the chain', () => {
  // As at a first start (r26-agent): tokens were listed while `search` answered `hits: []` for about two minutes,
  // the names index having been built over the first blocks of the backfill, its next run waiting for the staking
  // recompute. Heights are set by hand: the sync checkpoint, and the chain point the search run recorded.
  const at = (height: number) => ({ slot: height * 20, id: 'ab'.repeat(32), height });
  const checkpoint = (height: number) =>
    put(CHECKPOINTS, { _id: 'sync', ...at(height), points: [], tip: at(height), updatedAt: '2026-11-30T20:24:00Z' });
  const searchRun = (height: number | null) =>
    put(DERIVED_RUNS, {
      _id: 'recomputeSearch',
      generation: 0,
      from: height === null ? null : at(height),
      startedAt: '2026-11-30T20:21:33.000Z',
      finishedAt: '2026-11-30T20:21:40.000Z',
    });

  it('not built yet, built over the first blocks only, caught up (what search finds); a query with hits carries no note', async () => {
    const t = await tempStore();
    try {
      const ask = async (query: string) => search({ store: t.store }, { query, limit: 10 });
      await t.store.write([checkpoint(4_210)]);
      const none = await ask('snek');
      assert.deepEqual(none.hits, []);
      assert.match(none.note ?? '', /not been built from indexed blocks yet.*list_tokens/);
      await t.store.write([searchRun(null)]);
      assert.match((await ask('snek')).note ?? '', /not been built from indexed blocks yet/);
      await t.store.write([searchRun(57)]);
      const trailing = await ask('snek');
      assert.match(trailing.note ?? '', /up to block 57 \(at 2026-11-30T20:21:40.000Z\).*up to block 4210 since/);
      // A run a minute behind the tip (a few blocks) is the index working as scheduled: no note about the index,
      // but what search finds and the list tools to browse with (an agent told only `hits: []` concluded the token
      // did not exist).
      await t.store.write([searchRun(4_200)]);
      const current = await ask('snek');
      assert.deepEqual(current.hits, []);
      assert.doesNotMatch(current.note ?? '', /names index/);
      assert.match(current.note ?? '', /^Nothing matches "snek"\. search finds tokens \(ticker, name/);
      assert.match(current.note ?? '', /To browse instead: list_tokens, list_stake_pools, list_nft_collections/);
      await t.store.write([
        searchRun(57),
        put(SEARCH_TERMS, {
          _id: `token|${'a'.repeat(58)}|0`,
          term: 'snek',
          kind: 'token',
          id: 'a'.repeat(58),
          label: 'Snek (SNEK)',
          detail: null,
          weight: 1,
        }),
      ]);
      const found = await ask('snek');
      assert.equal(found.hits.length, 1);
      assert.equal(found.note, undefined);
    } finally {
      await t.cleanup();
    }
  });
});

describe('search: tokens named only by their asset name (no registry entry, no CIP-68 datum indexed)', () => {
  /** A CIP-68 (333) token whose reference datum predates the index, and a token named in UTF-8 beyond ASCII. */
  const FT = `${'5e'.repeat(28)}0014df10${Buffer.from('GLOW').toString('hex')}`;
  const EURO = `${'5f'.repeat(28)}${Buffer.from('Ĉarda€').toString('hex')}`;
  it('finds them by the name REST and the views show ("GLOW", "Ĉarda€"), labelled as those show them', async () => {
    const t = await tempStore();
    try {
      await t.store.write([
        ...putAll.pools([
          marketPool({ id: 1, tokenB: FT, reserveARaw: '1000000000', reserveBRaw: '1000000' }),
          marketPool({ id: 2, tokenB: EURO, reserveARaw: '1000000000', reserveBRaw: '1000000' }),
        ]),
        ...putAll.tokens([
          token(FT, { poolIds: [1], primaryPoolId: 1 }),
          token(EURO, { poolIds: [2], primaryPoolId: 2 }),
        ]),
      ]);
      await createSearchActivities({ store: t.store }).recomputeSearchIndex();
      const assets = await loadAssets(t.store, [FT, EURO], 'http://x', 'url');
      assert.deepEqual(
        [assets.ref(FT).displayName, assets.ref(EURO).displayName],
        ['GLOW', 'Ĉarda€'],
        'the REST names (oracle: the asset names as written above)',
      );
      for (const [query, unit, label] of [
        ['glow', FT, 'GLOW'],
        ['ĉarda', EURO, 'Ĉarda€'],
      ] as const) {
        const { hits } = await search({ store: t.store }, { query, limit: 50 });
        const hit = hits.find((h) => h.kind === 'token');
        assert.deepEqual([hit?.id, hit?.label], [unit, label], query);
      }
      const { hits } = await search({ store: t.store }, { query: 'ADA/GLOW', limit: 50 });
      assert.deepEqual(
        hits.filter((h) => h.kind === 'pool').map((h) => h.label),
        ['ADA/GLOW on minswap-v2'],
      );
    } finally {
      await t.cleanup();
    }
  });
});

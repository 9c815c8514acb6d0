/**
 * The Markdown views on a devnet-synced service: every view answers text/markdown with an as-of line naming the
 * devnet's tip block (time and height: the oracle is the devnet, not the store), its links resolve, its ETag
 * revalidates, bad input gets a short Markdown 400/404, the token table's limit applies, a wallet's ADA balance is
 * the devnet ledger's, and REST paths answer `Accept: text/markdown` with the same view.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseAddress, stakeAddressOf } from '../../cardano/address.js';
import { handleOfAsset } from '../../cardano/handles.js';
import { dexTokens } from '../../devnet/activity/dex-tokens.js';
import { HANDLE_POLICY } from '../../devnet/activity/handles.js';
import { renderNft } from '../../views/md/nft.js';
import { renderPool } from '../../views/md/pool.js';
import { renderStakePool } from '../../views/md/stake-pool.js';
import { renderToken } from '../../views/md/token.js';
import { renderWallet } from '../../views/md/wallet.js';
import { startStack, type Stack } from './stack.js';

interface Answer {
  status: number;
  type: string;
  text: string;
  headers: Headers;
}

describe('Markdown views on a devnet-synced store', function () {
  this.timeout(240_000);
  let s: Stack;
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(path.startsWith('http') ? path : s.url + path, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text: await res.text(),
      headers: res.headers,
    };
  };
  /** Every link of a Markdown text that points into this site. */
  const siteLinks = (text: string) =>
    [...text.matchAll(/\]\((http[^)\s]+)\)/g)].map((m) => m[1] as string).filter((u) => u.startsWith(s.url));
  const tableRows = (text: string, header: string) => {
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`| ${header}`));
    const rows: string[][] = [];
    for (let i = at + 2; at >= 0 && lines[i]?.startsWith('|'); i++)
      rows.push(
        lines[i]!.slice(2, -2)
          .split(' | ')
          .map((c) => c.trim()),
      );
    return rows;
  };
  let unit = '';
  let poolId = 0;
  let policy = '';
  let stakePool = '';

  before(async () => {
    // A cache window as in production (API_CACHE_MS): each request of one URL gets the view rendered at that
    // block, so the revalidation and compression checks compare one rendering (its sync lag ticks every second).
    s = await startStack({ seed: 'md-views', hours: 3, cacheMs: 60_000 });
    const tokens = JSON.parse((await get('/api/v1/tokens?sort=rank&pageSize=1&logos=url')).text) as {
      items: { asset: { unit: string }; primaryPoolId: number }[];
    };
    unit = tokens.items[0]!.asset.unit;
    poolId = tokens.items[0]!.primaryPoolId;
    policy = (JSON.parse((await get('/api/v1/nft/collections?pageSize=1')).text) as { items: { policyId: string }[] })
      .items[0]!.policyId;
    stakePool = (JSON.parse((await get('/api/v1/staking/pools?pageSize=1')).text) as { items: { id: string }[] })
      .items[0]!.id;
  });
  after(async () => s?.close());

  const views = () => [
    '/api/md/market',
    '/api/md/dashboard',
    '/api/md/tokens',
    `/api/md/token/${unit}`,
    `/api/md/pool/${poolId}`,
    `/api/md/wallet/${s.devnet.world.wallets[3]!.address}`,
    `/api/md/address/${s.devnet.world.wallets[3]!.rewardAddress}`,
    `/api/md/nft/${policy}`,
    `/api/md/stake-pool/${stakePool}`,
  ];

  it('every view is Markdown with the devnet tip as its as-of time, an ETag and a token count', async () => {
    const tip = s.devnet.tip();
    const tipTime = new Date(s.devnet.systemStartMs + tip.slot * 1000).toISOString().slice(0, 16).replace('T', ' ');
    for (const path of views()) {
      const a = await get(path);
      assert.equal(a.status, 200, `${path}: ${a.text}`);
      assert.equal(a.type, 'text/markdown; charset=utf-8', path);
      assert.match(a.text, /^# \S/, path);
      assert.ok(a.text.includes(`As of ${tipTime} UTC`), `${path} as-of ${tipTime}: ${a.text.slice(0, 200)}`);
      assert.ok(a.text.includes(`indexed block ${tip.height} of ${tip.height}`), path);
      assert.match(a.text, /sync lag \d+ s/, path);
      assert.ok(a.text.includes('## Links'), path);
      assert.equal(Number(a.headers.get('x-markdown-tokens')), Math.ceil(a.text.length / 4), path);
      // A browser-based agent reads the token count only if CORS exposes it.
      const cors = await get(path, { origin: 'https://agent.example' });
      assert.match(cors.headers.get('access-control-expose-headers') ?? '', /(^|,)\s*X-Markdown-Tokens\s*(,|$)/i, path);
      const etag = a.headers.get('etag')!;
      assert.ok(etag, path);
      // (fetch sends Cache-Control: no-cache with a conditional header unless told otherwise)
      assert.equal((await get(path, { 'if-none-match': etag, 'cache-control': 'max-age=0' })).status, 304, path);
    }
  });

  it('a view is gzip or br when the client accepts it, the same text once decoded, with its own ETag', async () => {
    /** node:http GET with explicit headers (fetch would negotiate and decode on its own). */
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((res, rej) =>
        http
          .get(s.url + path, { headers }, (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => res({ headers: r.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', rej),
      );
    const plain = await raw('/api/md/market', { 'accept-encoding': 'identity' });
    const gz = await raw('/api/md/market', { 'accept-encoding': 'gzip' });
    const br = await raw('/api/md/market', { 'accept-encoding': 'br' });
    assert.ok(plain.body.length > 1024, `the market view is ${plain.body.length} bytes`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.ok(br.body.length * 2 < plain.body.length, `br ${br.body.length} of ${plain.body.length} bytes`);
    for (const r of [plain, gz, br]) assert.match(String(r.headers.vary), /Accept-Encoding/i);
    assert.equal(new Set([plain, gz, br].map((r) => r.headers.etag)).size, 3, 'one validator per representation');
    assert.equal(br.headers['content-type'], 'text/markdown; charset=utf-8');
  });

  it('units are named in the table headers', async () => {
    const token = (await get(`/api/md/token/${unit}`)).text;
    for (const h of ['Price (ADA)', 'Price (USD)', '(%)', 'Liquidity (ADA)', 'First pool (UTC)'])
      assert.ok(token.includes(h), h);
    const pool = (await get(`/api/md/pool/${poolId}`)).text;
    for (const h of ['TVL (ADA)', 'Swap fee (%)', 'Time (UTC)', 'Value (ADA)']) assert.ok(pool.includes(h), h);
  });

  it('every link in every view resolves, a REST one with logo URLs (not 30-80 KB inline images per asset)', async () => {
    const seen = new Set<string>();
    for (const path of views()) for (const u of siteLinks((await get(path)).text)) seen.add(u);
    assert.ok(seen.size > 30, `links found: ${seen.size}`);
    let inlineLogos = 0;
    for (const u of seen) {
      const a = await get(u);
      assert.equal(a.status, 200, `${u} → ${a.status} ${a.text.slice(0, 200)}`);
      // REST's default logo is the image itself as a data URI (spec: AssetRef.logo); a link of a view asks for URLs:
      // a page of trades names two assets a trade, and read ten times its size with inline logos.
      if (/"logo":"data:/.test(a.text)) assert.fail(`${u} answers inline logos (${a.text.length} bytes)`);
      if (a.type.startsWith('application/json') && /"logo":/.test(a.text)) inlineLogos++;
    }
    assert.ok(inlineLogos >= 5, `REST links answering assets with logos: ${inlineLogos}`);
  });

  // The spec's Markdown views table, path by path.
  const specViews = [
    '/api/md/market',
    '/api/md/dashboard',
    '/api/md/tokens',
    '/api/md/token/{unit}',
    '/api/md/pool/{id}',
    '/api/md/wallet/{address}',
    '/api/md/address/{address}',
    '/api/md/nft/{policyId}',
    '/api/md/stake-pool/{poolId}',
  ];

  it('the index /api/md/ links only pages that answer 200 and shows every view of the spec', async () => {
    const index = await get('/api/md/');
    assert.equal(index.status, 200);
    assert.equal(index.type, 'text/markdown; charset=utf-8');
    // Static per deployment, as the discovery files: kept 5 minutes, revalidated by its ETag.
    assert.equal(index.headers.get('cache-control'), 'public, max-age=300');
    const etag = index.headers.get('etag') ?? '';
    assert.equal((await get('/api/md/', { 'if-none-match': etag, 'cache-control': 'max-age=0' })).status, 304);
    const linked = siteLinks(index.text);
    assert.ok(linked.length >= 3, `links in the index: ${linked.join(' ')}`);
    for (const u of linked) {
      const a = await get(u);
      assert.equal(a.status, 200, `${u} → ${a.status} ${a.text.slice(0, 200)}`);
    }
    for (const path of specViews) assert.ok(index.text.includes(path), `the index shows ${path}`);
  });

  it('the Markdown 404 names every view of the spec', async () => {
    const notFound = await get('/api/md/no-such-view');
    assert.equal(notFound.status, 404);
    for (const path of specViews) assert.ok(notFound.text.includes(path), `the 404 names ${path}: ${notFound.text}`);
  });

  it('the pool view lists its recent trades; the wallet view shows the devnet ledger balance', async () => {
    const trades = JSON.parse((await get(`/api/v1/pools/${poolId}/trades?limit=20`)).text) as {
      items: { txHash: string }[];
    };
    const pool = (await get(`/api/md/pool/${poolId}`)).text;
    assert.ok(trades.items.length > 0);
    for (const t of trades.items) assert.ok(pool.includes(`/explorer/tx/${t.txHash}`), t.txHash);

    const w = s.devnet.world.wallets[3]!;
    const view = (await get(`/api/md/wallet/${w.address}`)).text;
    const [row] = tableRows(view, 'ADA balance (ADA)');
    const lovelace = s.devnet.ledger.coinAt(w.address);
    assert.equal(Number(row![0]!.replace(/,/g, '')), Number(lovelace) / 1e6);
  });

  it('a view showing part of a list says how much there is and links the rest (REST next page, totals)', async () => {
    // Oracle: the REST lists themselves. The pool view's 20 trades continue where REST's 21st trade is (a pool
    // with more than 20 trades).
    type Page = { items: { txHash: string; time: string; makerAddress: string }[] };
    const pools = JSON.parse((await get('/api/v1/pools?pageSize=200')).text) as { items: { id: number }[] };
    let busy: number | undefined;
    let twentyOne: Page = { items: [] };
    for (const p of pools.items) {
      twentyOne = JSON.parse((await get(`/api/v1/pools/${p.id}/trades?limit=21&logos=url`)).text) as Page;
      if (twentyOne.items.length === 21) {
        busy = p.id;
        break;
      }
    }
    assert.ok(busy !== undefined, 'a pool has more than 20 trades');
    const pool = (await get(`/api/md/pool/${busy}`)).text;
    const next = /^Older trades: \[REST: next page \(JSON\)\]\((http[^)]+)\)$/m.exec(pool)?.[1];
    assert.ok(next, pool.slice(-800));
    const page = JSON.parse((await get(next)).text) as Page;
    assert.deepEqual(page.items[0], twentyOne.items[20]);
    // The wallet view of that trade's maker: the same, from its own list.
    const maker = twentyOne.items[0]!.makerAddress;
    const walletTrades = JSON.parse((await get(`/api/v1/wallet/${maker}/trades?limit=20`)).text) as {
      nextCursor: string | null;
    };
    const wallet = (await get(`/api/md/wallet/${maker}`)).text;
    if (walletTrades.nextCursor === null) assert.doesNotMatch(wallet, /^Older trades/m);
    else assert.ok(wallet.includes(`/trades?cursor=${encodeURIComponent(walletTrades.nextCursor)}&logos=url)`), maker);
    // The NFT view's latest sales of all the collection's sales; the dashboard's top rows of the REST totals.
    const nft = JSON.parse((await get(`/api/v1/nft/collections/${policy}`)).text) as {
      salesAll: number;
      recentSales: unknown[];
    };
    const sales = (await get(`/api/md/nft/${policy}`)).text;
    if (nft.salesAll > nft.recentSales.length)
      assert.ok(
        sales.includes(
          `## Recent sales (the latest ${nft.recentSales.length} of ${nft.salesAll.toLocaleString('en-US')};`,
        ),
      );
    // The token table's next rows: REST's page 2 of the same list, the rows after the table's.
    const six = JSON.parse((await get('/api/v1/tokens?sort=rank&pageSize=6')).text) as {
      items: { asset: { unit: string } }[];
      total: number;
    };
    assert.ok(six.total > 6, 'more than 6 tokens');
    const three = (await get('/api/md/tokens?sort=rank&limit=3')).text;
    const rows = new RegExp(`^Rows 4–6 of ${six.total}: \\[REST: page 2 \\(JSON\\)\\]\\((http[^)]+)\\)$`, 'm').exec(
      three,
    )?.[1];
    assert.ok(rows, three);
    const page2 = JSON.parse((await get(rows)).text) as { items: { asset: { unit: string } }[] };
    assert.deepEqual(
      page2.items.map((i) => i.asset.unit),
      six.items.slice(3).map((i) => i.asset.unit),
    );
    const all = (await get('/api/md/tokens?sort=rank&limit=100')).text;
    if (six.total <= 100) assert.doesNotMatch(all, /^Rows /m, 'every token shown: no next rows');
    const tokens = JSON.parse((await get('/api/v1/tokens?sort=rank&pageSize=10')).text) as { total: number };
    const collections = JSON.parse((await get('/api/v1/nft/collections?sort=volume24h&pageSize=5')).text) as {
      items: unknown[];
      total: number;
    };
    const dashboard = (await get('/api/md/dashboard')).text;
    assert.ok(
      dashboard.includes(`Top ${Math.min(10, tokens.total)} of ${tokens.total.toLocaleString('en-US')} tokens,`),
    );
    assert.ok(dashboard.includes(`Top ${collections.items.length} of ${collections.total} collections.`));
    // The chain section's latest blocks: the devnet's own last five, newest first, with their transaction counts.
    const points = s.devnet.canonicalBlocks();
    const blockRows = tableRows(dashboard, 'Height');
    assert.deepEqual(
      blockRows.map((r) => r[0]?.replace(/^\[([0-9,]+)\].*$/, '$1').replace(/,/g, '')),
      points
        .slice(-5)
        .reverse()
        .map((p) => String(p.height)),
    );
    const txCounts = new Map(
      s.devnet
        .events()
        .filter((e) => e.kind === 'forward' && e.canonical)
        .map((e) => {
          const b = JSON.parse(s.devnet.blockJson(e as Parameters<typeof s.devnet.blockJson>[0])) as {
            height: number;
            transactions?: unknown[];
          };
          return [String(b.height), String(b.transactions?.length ?? 0)] as const;
        }),
    );
    for (const r of blockRows) {
      const height = r[0]!.replace(/^\[([0-9,]+)\].*$/, '$1').replace(/,/g, '');
      assert.equal(r[3], txCounts.get(height), `block ${height}: transactions`);
    }
  });

  it('the wallet view shows each token balance exactly: every digit of the devnet ledger quantity', async () => {
    // Oracle: the devnet's own token definitions (registry and CIP-68 tokens publish their decimals; meme tokens publish
    // none, so the chain says 0) and the ledger's quantities at one address, formatted here with BigInt arithmetic.
    const decimals = new Map(dexTokens(s.devnet.world).map((t) => [t.unit, t.source === 'meme' ? 0 : t.decimals]));
    const held = new Map<string, Map<string, bigint>>();
    for (const u of s.devnet.ledger.utxos.values())
      for (const [policy, names] of Object.entries(u.value.assets))
        for (const [name, q] of Object.entries(names)) {
          if (!decimals.has(policy + name)) continue;
          const at = held.get(u.address) ?? new Map<string, bigint>();
          at.set(policy + name, (at.get(policy + name) ?? 0n) + q);
          held.set(u.address, at);
        }
    const exact = (q: bigint, d: number) => {
      const scale = 10n ** BigInt(d);
      const fraction = (q % scale).toString().padStart(d, '0').replace(/0+$/, '');
      return `${(q / scale).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
    };
    // A figure rounded as prices are (whole tokens from 1,000 up, 6 decimals, 4 significant digits under 1) is not
    // the balance: the address holding the most such quantities is the one to look at.
    const rounded = (q: bigint, d: number) => {
      const v = Number(q) / 10 ** d;
      return v < 1
        ? Number(v.toPrecision(4)).toString()
        : v.toLocaleString('en-US', { maximumFractionDigits: v >= 1000 ? 0 : 6 });
    };
    const inexact = (m: Map<string, bigint>) =>
      [...m].filter(([u, q]) => rounded(q, decimals.get(u)!) !== exact(q, decimals.get(u)!)).length;
    const [address, quantities] = [...held].sort((a, b) => inexact(b[1]) - inexact(a[1]))[0]!;
    assert.ok(inexact(quantities) > 0, 'the devnet has a balance a rounded figure misstates');
    const rows = tableRows((await get(`/api/md/wallet/${address}`)).text, 'Token');
    let checked = 0;
    for (const [unit, q] of quantities) {
      const row = rows.find((r) => r[0]!.includes(`/api/md/token/${unit})`));
      assert.ok(row, `${unit} is listed`);
      assert.equal(row[1], exact(q, decimals.get(unit)!), unit);
      checked++;
    }
    assert.ok(checked > 0);
  });

  it('chain text with Markdown in it (|, `, *, _, <, [, ], line breaks) is text: tables keep their columns, no link, HTML or emphasis', async () => {
    // The devnet mints only plain names, so its real REST answers are rendered with their names replaced by what
    // anyone may write in a token, collection or pool's metadata.
    const evil = 'Ev|l `x` *y* _z_ <img src=x onerror=alert(1)> [Claim](https://evil.example)\n# Fake';
    // Hand-escaped: one line, each inline-syntax character after a backslash, the pipe left to the table cell.
    const shown =
      'Ev|l \\`x\\` \\*y\\* \\_z\\_ \\<img src=x onerror=alert(1)\\> \\[Claim\\](https://evil.example) # Fake';
    const json = async <T>(path: string) => JSON.parse((await get(path)).text) as T;
    type Named = { displayName: string; name: string | null; ticker: string | null };
    const rename = (a: Named) => Object.assign(a, { displayName: evil, name: evil, ticker: evil });
    const ctx = { site: s.url, fresh: { asOf: '2026-11-25T12:00:00.000Z', lagSeconds: 0, height: 1, tipHeight: 1 } };

    const token = await json<Parameters<typeof renderToken>[1]>(`/api/v1/tokens/${unit}?logos=url`);
    rename(token.asset);
    token.description = evil;
    token.url = evil;
    for (const p of token.pools) rename(p.tokenB);
    const pool = await json<Parameters<typeof renderPool>[1]>(`/api/v1/pools/${poolId}?logos=url`);
    const trades = await json<Parameters<typeof renderPool>[2]>(`/api/v1/pools/${poolId}/trades?limit=5&logos=url`);
    rename(pool.tokenB);
    for (const t of trades.items) [t.tokenIn, t.tokenOut].filter((a) => a.unit !== 'lovelace').forEach(rename);
    // A wallet holding tokens: the largest holder of the top token; a collection with sales.
    const holders = await json<{ items: { address: string }[] }>(`/api/v1/tokens/${unit}/holders`);
    const address = holders.items[0]!.address;
    const wallet = await json<Parameters<typeof renderWallet>[1]>(`/api/v1/wallet/${address}?logos=url`);
    for (const p of wallet.positions) {
      rename(p.asset);
      p.priceAda = null; // an unpriced token: named in plain text, not linked
    }
    const collections = await json<{ items: { policyId: string; salesAll: number }[] }>('/api/v1/nft/collections');
    const sold = collections.items.find((c) => c.salesAll > 0)!.policyId;
    const nft = await json<Parameters<typeof renderNft>[1]>(`/api/v1/nft/collections/${sold}`);
    nft.name = evil;
    for (const sale of nft.recentSales) Object.assign(sale, { asset: { name: evil }, marketplace: evil });
    const stake = await json<Parameters<typeof renderStakePool>[1]>(`/api/v1/staking/pools/${stakePool}`);
    Object.assign(stake, { name: evil, ticker: evil });
    Object.assign(stake.metadata, { description: evil, homepage: evil });
    assert.ok(trades.items.length, 'trades to render');
    assert.ok(wallet.positions.length, 'positions to render');
    assert.ok(nft.recentSales.length, 'sales to render');

    const views = {
      token: renderToken(ctx, token),
      pool: renderPool(ctx, pool, trades),
      wallet: renderWallet(ctx, wallet, trades, address),
      nft: renderNft(ctx, nft),
      stakePool: renderStakePool(ctx, stake),
    };
    const cells = (line: string) => line.replace(/\\\\/g, '').split(/(?<!\\)\|/).length - 2;
    for (const [name, view] of Object.entries(views)) {
      assert.ok(view.includes(shown) || view.includes(shown.replace('|', '\\|')), `${name} shows the name as text`);
      assert.doesNotMatch(view, /(^|[^\\])<img/m, `${name}: no raw HTML`);
      assert.doesNotMatch(view, /(^|[^\\])\[Claim/m, `${name}: no link of the name's making`);
      assert.doesNotMatch(view, /^# Fake/m, `${name}: no heading of the name's making`);
      // Every row of a table has its header's number of cells (a pipe of the name is escaped).
      let header = 0;
      for (const line of view.split('\n')) {
        if (!line.startsWith('|')) header = 0;
        else if (!header) header = cells(line);
        else assert.equal(cells(line), header, `${name}: ${line}`);
      }
    }
  });

  it('the NFT view says its all-time totals are of the indexed history, and since when', async () => {
    // The store was synced from the devnet's first block: the history starts at its time.
    const first = JSON.parse((await get('/api/v1/explorer/blocks/1')).text) as { time: string };
    const rows = tableRows((await get(`/api/md/nft/${policy}`)).text, 'Field');
    const row = (label: string) => rows.find((r) => r[0] === label)?.[1];
    assert.equal(row('Indexed history since (UTC)'), `${first.time.slice(0, 16).replace('T', ' ')} UTC`);
    assert.ok(row('Volume 24 h / 7 d / 30 d / all indexed (ADA)'));
    assert.ok(row('Sales 24 h / 7 d / 30 d / all indexed'));
  });

  it('a token/token trade names the token its ADA price is of; a stake key shows its rewards as REST does', async () => {
    type Row = { id: number; tokenA: { unit: string } };
    const pools = JSON.parse((await get('/api/v1/pools?pageSize=200')).text) as { items: Row[] };
    let checked = 0;
    for (const p of pools.items.filter((x) => x.tokenA.unit !== 'lovelace')) {
      const trades = JSON.parse((await get(`/api/v1/pools/${p.id}/trades?limit=20`)).text) as {
        items: {
          txHash: string;
          priceAda: number | null;
          tokenOut: { displayName: string };
          amountOut: number | null;
        }[];
      };
      const rows = tableRows((await get(`/api/md/pool/${p.id}`)).text, 'Time (UTC)');
      for (const [i, t] of trades.items.entries()) {
        if (t.priceAda === null) continue;
        // The bought token (REST: priceAda is of the token bought), after the price.
        assert.match(
          rows[i]![4]!,
          new RegExp(` per ${t.tokenOut.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
        checked++;
      }
    }
    assert.ok(checked > 0, 'the devnet has token/token trades');
    // The key's rewards column is REST's figure (its ledger value is checked in test/staking/staking-devnet.test.ts).
    const w = s.devnet.world.wallets[3]!;
    const rest = JSON.parse((await get(`/api/v1/wallet/${w.rewardAddress}`)).text) as { rewards: number | null };
    assert.notEqual(rest.rewards, null, 'the staking recompute read the key’s reward account');
    const [row] = tableRows((await get(`/api/md/wallet/${w.rewardAddress}`)).text, 'ADA balance (ADA)');
    assert.equal(row![1], rest.rewards!.toLocaleString('en-US', { maximumFractionDigits: 6 }));
    // A payment address carrying the key points to the key's view for them (never counted once per address).
    const [addrRow] = tableRows((await get(`/api/md/wallet/${w.address}`)).text, 'ADA balance (ADA)');
    assert.equal(addrRow![1], 'see stake key');
  });

  it("a payment address's view links the explorer answer of that address, and its stake key's view", async () => {
    // Oracle: the devnet ledger's coin at the address. The stake key's answer sums all addresses carrying the key
    // (DEX orders at script addresses carry it too), so it is linked as the key's, never as this address's.
    const w = s.devnet.world.wallets[3]!;
    const view = (await get(`/api/md/wallet/${w.address}`)).text;
    const linked = (label: string) => new RegExp(`\\[${label}\\]\\((http[^)\\s]+)\\)`).exec(view)?.[1];
    const explorer = linked('REST: explorer address');
    assert.equal(explorer, `${s.url}/api/v1/explorer/address/${w.address}`);
    const answer = JSON.parse((await get(explorer!)).text) as { balanceLovelace: string };
    assert.equal(answer.balanceLovelace, String(s.devnet.ledger.coinAt(w.address)));
    assert.equal(linked('REST: explorer stake key'), `${s.url}/api/v1/explorer/address/${w.rewardAddress}`);
    assert.equal(
      linked('Stake key view \\(rewards, delegation, all its addresses\\)'),
      `${s.url}/api/md/wallet/${w.rewardAddress}`,
    );
    for (const url of [explorer!, linked('REST: explorer stake key')!]) assert.equal((await get(url)).status, 200, url);
  });

  it('the wallet view takes a $handle and resolves it to the address the devnet ledger has its token at', async () => {
    let found: { handle: string; address: string } | null = null;
    for (const u of s.devnet.ledger.utxos.values()) {
      for (const name of Object.keys(u.value.assets[HANDLE_POLICY] ?? {})) {
        const a = handleOfAsset(HANDLE_POLICY + name);
        // A holder with a stake key, the common case on mainnet, whose wallet is the key rather than the address.
        if (a?.role === 'holder' && !a.handle.includes('@') && stakeAddressOf(u.address))
          found ??= { handle: a.handle, address: u.address };
      }
      if (found) break;
    }
    assert.ok(found, 'the devnet has minted a handle');
    const view = await get(`/api/md/wallet/$${found.handle}`);
    assert.equal(view.status, 200, view.text);
    // The wallet a handle names: its holder's stake key (all its addresses), or the address when it has none.
    const wallet = stakeAddressOf(found.address) ?? found.address;
    assert.ok(view.text.includes(`$${found.handle} (${wallet})`), view.text.slice(0, 400));
    // The handles the wallet holds, written as the REST wallet answer writes them (one `$` each).
    const rest = JSON.parse((await get(`/api/v1/wallet/${wallet}`)).text) as { handles: string[] };
    assert.ok(rest.handles.includes(`$${found.handle}`), rest.handles.join(', '));
    assert.ok(view.text.includes(` · handles ${rest.handles.join(', ')}`), view.text.slice(0, 600));
    assert.ok(!view.text.includes('$$'), view.text.slice(0, 600));
  });

  it('the wallet view names a handle as the chain writes it: $Name and sub@root (no "$") both head it as $name', async () => {
    // Oracle: the devnet ledger's handle tokens (names are lowercase on chain) and the addresses holding them.
    const held: { handle: string; address: string }[] = [];
    for (const u of s.devnet.ledger.utxos.values())
      for (const name of Object.keys(u.value.assets[HANDLE_POLICY] ?? {})) {
        const a = handleOfAsset(HANDLE_POLICY + name);
        if (a?.role === 'holder') held.push({ handle: a.handle, address: u.address });
      }
    const root = held.find((h) => !h.handle.includes('@') && /[a-z]/.test(h.handle));
    const sub = held.find((h) => h.handle.includes('@'));
    assert.ok(root && sub, `the devnet has minted a root handle and an NFT subhandle: ${held.map((h) => h.handle)}`);
    for (const [asked, h] of [
      [`$${root.handle.toUpperCase()}`, root],
      [sub.handle, sub],
    ] as const) {
      const view = await get(`/api/md/wallet/${encodeURIComponent(asked)}`);
      assert.equal(view.status, 200, view.text);
      // The wallet a handle names: its holder's stake key (all its addresses), or the address without one.
      const wallet = stakeAddressOf(h.address) ?? h.address;
      assert.ok(view.text.startsWith(`# Wallet $${h.handle}\n`), view.text.slice(0, 200));
      assert.ok(view.text.includes(`$${h.handle} (${wallet}`), view.text.slice(0, 400));
      if (asked.startsWith('$')) assert.ok(!view.text.includes(asked), view.text.slice(0, 400));
      // A handle at a script (the devnet lists one at a marketplace script) is said to be held by one.
      const script = parseAddress(h.address).paymentScript;
      assert.equal(view.text.includes('a script holds the handle'), script, view.text.slice(0, 400));
    }
  });

  it('the token table takes sort and a limit of 1–100', async () => {
    assert.equal(tableRows((await get('/api/md/tokens?limit=3')).text, '#').length, 3);
    const all = await get('/api/md/tokens?limit=100');
    const total = (JSON.parse((await get('/api/v1/tokens?pageSize=200')).text) as { total: number }).total;
    assert.equal(tableRows(all.text, '#').length, Math.min(100, total));
    const byVolume = tableRows((await get('/api/md/tokens?sort=volume24h&limit=10')).text, '#').map((r) =>
      Number(r[7]!.replace(/,/g, '')),
    );
    assert.deepEqual(
      byVolume,
      [...byVolume].sort((a, b) => b - a),
    );
    // The change beside each price is of that price (spec: change* beside ADA prices, change*Usd beside USD prices).
    const md = await get('/api/md/tokens?sort=rank&limit=20');
    const header = md.text.split('\n').find((l) => l.startsWith('| #'))!;
    assert.match(header, /Price \(ADA\) \| 24 h, ADA \(%\) \| Price \(USD\) \| 24 h, USD \(%\)/);
    const json = JSON.parse((await get('/api/v1/tokens?sort=rank&pageSize=20&logos=url')).text) as {
      items: { stats: { change24h: number | null; change24hUsd: number | null } }[];
    };
    const cell = (f: number | null) => (f === null ? '—' : `${f > 0 ? '+' : ''}${(f * 100).toFixed(2)}`);
    tableRows(md.text, '#').forEach((r, i) => {
      const st = json.items[i]!.stats;
      assert.deepEqual([r[3], r[5]], [cell(st.change24h), cell(st.change24hUsd)], `row ${i + 1}`);
    });
    for (const bad of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'sort=cheapest',
      'limit=3&limit=50',
      'sort=new&sort=rank',
    ]) {
      const a = await get(`/api/md/tokens?${bad}`, { accept: 'text/markdown' });
      assert.equal(a.status, 400, bad);
      assert.equal(a.type, 'text/markdown; charset=utf-8');
      assert.match(a.text, /^# Bad request \(HTTP 400\)\n\ninvalid parameter (limit|sort)/);
    }
    // A parameter given twice is a 400 naming it, as on REST (not the first value's table).
    const twice = await get('/api/md/tokens?limit=3&limit=50');
    assert.equal(twice.status, 400);
    assert.deepEqual(JSON.parse(twice.text), { error: 'invalid parameter limit: given more than once (send it once)' });
  });

  it('each token table says the order it is in and the floors its list applied, as REST ranks it', async () => {
    const summary = async (sort: string) => (await get(`/api/md/tokens?sort=${sort}&limit=10`)).text.split('\n')[4]!;
    // Oracle: the REST list of the same sort (its order, its windows and the floors it echoes).
    const trending = JSON.parse((await get('/api/v1/tokens?sort=trending&pageSize=10')).text) as {
      items: { stats: { windows: Record<string, { txns: number }> } }[];
    };
    const trades1h = trending.items.map((i) => i.stats.windows['1h']!.txns);
    assert.deepEqual(
      trades1h,
      [...trades1h].sort((a, b) => b - a),
      'REST trending is by trades in the last hour',
    );
    assert.match(await summary('trending'), /tokens, by trades in the last hour\./);
    assert.match(await summary('rank'), /tokens, by market cap and liquidity combined/);
    const mcap = JSON.parse((await get('/api/v1/tokens?sort=mcap&pageSize=1')).text) as {
      filters: { minLiquidity: number; minHolders: number };
    };
    assert.deepEqual(mcap.filters, { minLiquidity: 10_000, minHolders: 100 });
    assert.match(await summary('mcap'), /Only tokens with liquidity of 10,000 ADA or more and 100 holders or more\./);
    assert.match(
      await summary('gainers'),
      /highest 24 h change of the USD price.*Only tokens with liquidity of 10,000 ADA or more\./,
    );
    assert.doesNotMatch(await summary('volume24h'), /Only tokens/, 'a list without floors names none');
  });

  it("bad input is a 400 or 404 with the spec's { error }, in short Markdown to a client asking for it, never a 500", async () => {
    const cases: [string, number][] = [
      ['/api/md/token/nothex', 400],
      [`/api/md/token/${'ab'.repeat(28)}00`, 404],
      ['/api/md/pool/abc', 400],
      ['/api/md/pool/987654', 404],
      ['/api/md/wallet/addr1notanaddress', 400],
      ['/api/md/wallet/%24no-such-handle-here', 404],
      [`/api/md/nft/${'cd'.repeat(28)}`, 404],
      ['/api/md/stake-pool/pool1bogus', 400],
      ['/api/md/no-such-view', 404],
    ];
    for (const [path, status] of cases) {
      // fetch's own Accept (*/*), a browser's, a JSON client's: the spec's error body, as on every surface.
      for (const accept of ['*/*', 'text/html,application/xhtml+xml,*/*;q=0.8', 'application/json']) {
        const j = await get(path, { accept });
        assert.equal(j.status, status, `${path} (${accept}): ${j.text}`);
        assert.match(j.type, /^application\/json/, `${path} (${accept})`);
        assert.match((JSON.parse(j.text) as { error: string }).error, /\S/, path);
        assert.match(j.headers.get('vary') ?? '', /Accept/i);
      }
      // A client asking for Markdown, or for any text (which a JSON body is not): the view's answer is Markdown, so
      // is its error.
      for (const accept of ['text/markdown, */*;q=0.5', 'text/*']) {
        const a = await get(path, { accept });
        assert.equal(a.status, status, `${path} (${accept}): ${a.text}`);
        assert.equal(a.type, 'text/markdown; charset=utf-8', `${path} (${accept})`);
        assert.match(a.text, new RegExp(`^# (Bad request|Not found) \\(HTTP ${status}\\)\\n\\n\\S`), path);
        assert.ok(a.text.length < 600, path);
      }
    }
  });

  it('REST answers Accept: text/markdown with the matching view (Vary: Accept, x-markdown-tokens)', async () => {
    const pairs: [string, string][] = [
      [`/api/v1/tokens/${unit}`, `/api/md/token/${unit}`],
      [`/api/v1/pools/${poolId}`, `/api/md/pool/${poolId}`],
      ['/api/v1/market/overview', '/api/md/market'],
      [`/api/v1/staking/pools/${stakePool}`, `/api/md/stake-pool/${stakePool}`],
      [`/api/v1/nft/collections/${policy}`, `/api/md/nft/${policy}`],
    ];
    for (const [restPath, mdPath] of pairs) {
      const a = await get(restPath, { accept: 'text/markdown' });
      assert.equal(a.status, 200, restPath);
      assert.equal(a.type, 'text/markdown; charset=utf-8', restPath);
      // The two answers come moments apart: the sync lag (now − the indexed tip block's time) may have ticked.
      const sameMoment = (t: string) => t.replace(/sync lag \d+ s/g, 'sync lag N s');
      assert.equal(sameMoment(a.text), sameMoment((await get(mdPath)).text), restPath);
      assert.match(a.text, /sync lag \d+ s/);
      assert.match(a.headers.get('vary') ?? '', /Accept/i);
      assert.ok(Number(a.headers.get('x-markdown-tokens')) > 0);
      const json = await get(restPath);
      assert.match(json.type, /^application\/json/);
      assert.match(json.headers.get('vary') ?? '', /Accept/i);
    }
    // The routers match a path in any case: so does the negotiation (the id as written).
    for (const [restPath, mdPath] of [
      ['/api/v1/Market/Overview', '/api/md/market'],
      [`/api/v1/POOLS/${poolId}/Trades`, `/api/md/pool/${poolId}`],
      [`/api/v1/Tokens/${unit}`, `/api/md/token/${unit}`],
      ['/api/v1/TOKENS?pageSize=5', '/api/md/tokens?sort=volume24h&limit=5'],
    ]) {
      const a = await get(restPath!, { accept: 'text/markdown' });
      assert.equal(a.type, 'text/markdown; charset=utf-8', restPath);
      const sameMoment = (t: string) => t.replace(/sync lag \d+ s/g, 'sync lag N s');
      assert.equal(sameMoment(a.text), sameMoment((await get(mdPath!)).text), restPath);
    }
    const none = await get('/api/v1/news', { accept: 'text/markdown, application/json;q=0.5' });
    assert.match(none.type, /^application\/json/, 'no view for /news: JSON');
    const bad = await get('/api/v1/tokens/zz', { accept: 'text/markdown' });
    assert.equal(bad.status, 400);
    assert.equal(bad.type, 'text/markdown; charset=utf-8');
    // `logos` is the one parameter every REST route takes (spec, REST conventions), its one value `url`: a bad
    // value is a 400 under either Accept, not a view that ignored it; `logos=url` keeps the view.
    for (const [restPath] of [...pairs, [`/api/v1/pools/${poolId}/trades`], ['/api/v1/tokens']]) {
      for (const logos of ['bogus', 'URL', '']) {
        const path = `${restPath}?logos=${logos}`;
        const json = await get(path);
        assert.equal(json.status, 400, path);
        const md = await get(path, { accept: 'text/markdown' });
        assert.equal(md.status, 400, `${path} as Markdown`);
        assert.equal(JSON.parse(md.text).error, JSON.parse(json.text).error, path);
      }
      assert.equal(
        (await get(`${restPath}?logos=url`, { accept: 'text/markdown' })).type,
        'text/markdown; charset=utf-8',
      );
    }
  });

  it('REST /tokens in Markdown lists the tokens its JSON lists; a list or page the table cannot show stays JSON', async () => {
    const tableUnits = (text: string) => [...text.matchAll(/\/api\/md\/token\/([0-9a-f]+)\)/g)].map((m) => m[1]);
    const jsonUnits = async (q: string) =>
      (JSON.parse((await get(`/api/v1/tokens${q}`)).text) as { items: { asset: { unit: string } }[] }).items.map(
        (i) => i.asset.unit,
      );
    // The REST default (volume over 24 h, 50 a page) and sorts the table has, each with its page size.
    for (const q of ['', '?sort=volume&pageSize=7', '?sort=mcap&pageSize=3', '?sort=new&period=24h&quote=USD']) {
      const a = await get(`/api/v1/tokens${q}`, { accept: 'text/markdown' });
      assert.equal(a.type, 'text/markdown; charset=utf-8', q);
      assert.deepEqual(tableUnits(a.text), await jsonUnits(q), q);
    }
    // Another sort, page, period, order, floor or search, or more rows than the table holds: the REST answer.
    for (const q of ['?sort=holders', '?page=2&pageSize=5', '?pageSize=150', '?q=usd', '?sort=mcap&order=asc']) {
      const a = await get(`/api/v1/tokens${q}`, { accept: 'text/markdown' });
      assert.equal(a.status, 200, q);
      assert.match(a.type, /^application\/json/, q);
      assert.deepEqual(
        (JSON.parse(a.text) as { items: { asset: { unit: string } }[] }).items.map((i) => i.asset.unit),
        await jsonUnits(q),
        q,
      );
    }
    for (const q of ['?sort=bad', '?pageSize=0', '?pageSize=201', '?sort=rank&sort=mcap']) {
      const a = await get(`/api/v1/tokens${q}`, { accept: 'text/markdown' });
      assert.equal(a.status, 400, q);
      assert.match(JSON.parse(a.text).error, /invalid parameter/, q);
    }
    // Trades asked by page have no view (the pool view shows its 20 latest trades); a bad limit is REST's 400.
    assert.equal((await get(`/api/v1/pools/${poolId}/trades?limit=0`, { accept: 'text/markdown' })).status, 400);
    const first = JSON.parse((await get(`/api/v1/pools/${poolId}/trades?limit=2`)).text) as { nextCursor: string };
    const later = await get(`/api/v1/pools/${poolId}/trades?limit=2&cursor=${first.nextCursor}`, {
      accept: 'text/markdown',
    });
    assert.match(later.type, /^application\/json/);
    assert.equal((JSON.parse(later.text) as { items: unknown[] }).items.length, 2);
  });

  it('views of recomputed figures say when they were computed, not only the indexed tip', async () => {
    // A new block first: the views cached at the previous checkpoint are not reused.
    s.devnet.step();
    await s.syncToTip();
    const minute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const started = Date.now();
    await s.recompute();
    const ran = [minute(started), minute(Date.now())];
    const proposals = (JSON.parse((await get('/api/v1/governance/proposals?status=active')).text) as { total: number })
      .total;
    const computedLines = (text: string) =>
      [...text.matchAll(/^_(\w[\w ]*) computed (.+)_$/gm)].map((m) => [m[1], m[2]]);
    const expected: [string, string[]][] = [
      ['/api/md/market', ['Figures']],
      ['/api/md/tokens', ['Figures']],
      ['/api/md/dashboard', ['Figures', 'Figures', 'Stats', 'Vote shares']],
    ];
    for (const [path, what] of expected) {
      const lines = computedLines((await get(path)).text);
      assert.deepEqual(
        lines.map(([w]) => w),
        what,
        path,
      );
      // A store without proposals (the 3 h devnet has none yet) still had its governance run: the vote shares line
      // names that run (as the proposal list's computedAt does), not "—".
      for (const [w, at] of lines)
        assert.ok(ran.includes(at!), `${path} ${w} computed ${at} (${proposals} proposals), the recompute ran ${ran}`);
    }
    // A token's stats describe the indexed tip (their windows end at its block), whenever the recompute ran.
    const [row] = tableRows((await get(`/api/md/token/${unit}`)).text, 'Field').filter(
      ([f]) => f === 'Stats as of (UTC)',
    );
    const { asOf } = JSON.parse((await get(`/api/v1/tokens/${unit}`)).text) as { asOf: string };
    assert.equal(row?.[1], minute(Date.parse(asOf)), 'token view: the stats are as of the indexed tip');
  });
});

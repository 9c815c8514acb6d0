/**
 * The served OpenAPI document describes the answers the service gives (spec: Versioning; a client generates its
 * types from it): on a devnet-synced service, one answer of every operation validates against the operation's
 * response schema in /openapi.json, every field of the answer (and of each list item) is declared there, and the
 * answer's ETag and its 304 to If-None-Match are documented. The oracle is the published document as a client reads
 * it, not the route specs in memory.
 */
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { handleOfAsset, HANDLE_POLICY } from '../../cardano/handles.js';
import { startStack, type Stack } from '../md/stack.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers and the document

describe('OpenAPI document against the answers of a devnet-synced service', function () {
  this.timeout(240_000);
  let s: Stack;
  let doc: Json;
  const get = async (path: string) => {
    const res = await fetch(`${s.url}/api/v1${path}`);
    return { status: res.status, body: (await res.json()) as Json, etag: res.headers.get('etag') };
  };
  const ok = async (path: string) => {
    const r = await get(path);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  before(async () => {
    // 14 hours: the devnet's first governance proposal comes about 12 hours in.
    s = await startStack({ seed: 'openapi-answers', hours: 14 });
    doc = await ok('/openapi.json');
  });
  after(async () => s?.close());

  /** A schema with its `$ref`s to components followed. */
  const deref = (schema: Json): Json => {
    let x = schema;
    while (x?.$ref) x = doc.components.schemas[String(x.$ref).split('/').pop()!];
    return x;
  };
  /** The properties an object answer may carry: its own, or those of any of its branches. */
  const declared = (schema: Json): Set<string> | null => {
    const x = deref(schema);
    const branches = [...(x.anyOf ?? []), ...(x.oneOf ?? [])].map(deref);
    const all = [x, ...branches].filter((b) => b.properties);
    return all.length ? new Set(all.flatMap((b) => Object.keys(b.properties as Json))) : null;
  };
  const itemsOf = (schema: Json): Json | null => {
    const items = deref(schema).properties?.items;
    return items ? deref(items).items : null;
  };

  it('one answer of every operation validates against its schema, declares every field and its ETag', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const local = (x: unknown) => JSON.parse(JSON.stringify(x).replaceAll('"#/components/', '"doc#/components/'));
    ajv.addSchema({ $id: 'doc', components: local(doc.components) });

    const tokens = await ok('/tokens?sort=rank&pageSize=1&logos=url');
    const token = tokens.items[0];
    const unit = token.asset.unit as string;
    const trades = await ok(`/tokens/${unit}/trades?limit=1&logos=url`);
    const trade = trades.items[0];
    const wallet = trade.makerAddress as string;
    const stakeAddress = (await ok(`/explorer/address/${wallet}`)).stakeAddress as string;
    const policy = (await ok('/nft/collections?pageSize=1')).items[0].policyId as string;
    const stakePool = (await ok('/staking/pools?pageSize=1')).items[0].id as string;
    const proposal = (await ok('/governance/proposals?pageSize=1')).items[0].id as string;
    const drep = (await ok('/governance/dreps?pageSize=1')).items[0].id as string;
    let handle = '';
    for (const u of s.devnet.ledger.utxos.values())
      for (const name of Object.keys(u.value.assets[HANDLE_POLICY] ?? {})) {
        const h = handleOfAsset(HANDLE_POLICY + name);
        if (h?.role === 'holder' && !h.handle.includes('@')) handle ||= h.handle;
      }
    assert.ok(handle, 'the devnet has minted a handle');

    const paths: Record<string, string[]> = {
      '/': ['/'],
      '/openapi.json': ['/openapi.json'],
      '/tokens': ['/tokens?logos=url'],
      '/tokens/{unit}': [`/tokens/${unit}?logos=url`],
      '/tokens/{unit}/candles': [`/tokens/${unit}/candles?pool=all`],
      '/tokens/{unit}/trades': [`/tokens/${unit}/trades?logos=url`],
      '/tokens/{unit}/series/{metric}': [`/tokens/${unit}/series/liquidity`, `/tokens/${unit}/series/holders`],
      '/tokens/{unit}/holders': [`/tokens/${unit}/holders`],
      '/assets/{unit}/logo': [],
      '/pools': ['/pools?logos=url'],
      '/pools/{id}': [`/pools/${trade.poolId}?logos=url`],
      '/pools/{id}/candles': [`/pools/${trade.poolId}/candles`],
      '/pools/{id}/trades': [`/pools/${trade.poolId}/trades?logos=url`],
      '/market/overview': ['/market/overview?logos=url'],
      '/swap/quote': [`/swap/quote?in=lovelace&out=${unit}&amount=100&logos=url`],
      '/explorer/blocks': ['/explorer/blocks?limit=3'],
      '/explorer/blocks/{id}': ['/explorer/blocks/1'],
      '/explorer/tx/{hash}': [`/explorer/tx/${trade.txHash}`],
      // Asked by handle, an answer also carries `handle` (where it resolved): declared as every other field.
      '/explorer/address/{address}': [
        `/explorer/address/${wallet}`,
        `/explorer/address/${stakeAddress}`,
        `/explorer/address/$${handle}`,
      ],
      '/wallet/{address}': [`/wallet/${wallet}?logos=url`, `/wallet/${stakeAddress}?logos=url`, `/wallet/$${handle}`],
      '/wallet/{address}/trades': [`/wallet/${wallet}/trades?logos=url`, `/wallet/$${handle}/trades`],
      '/wallet/{address}/pnl': [`/wallet/${stakeAddress}/pnl?logos=url`, `/wallet/$${handle}/pnl`],
      '/handles/{handle}': [`/handles/$${handle}`],
      '/staking/pools': ['/staking/pools'],
      '/staking/pools/{id}': [`/staking/pools/${stakePool}`],
      '/governance/proposals': ['/governance/proposals'],
      '/governance/proposals/{id}': [`/governance/proposals/${encodeURIComponent(proposal)}`],
      '/governance/dreps': ['/governance/dreps'],
      '/governance/dreps/{id}': [`/governance/dreps/${drep}`],
      '/nft/collections': ['/nft/collections'],
      '/nft/collections/{policy}': [`/nft/collections/${policy}`],
      '/nft/collections/{policy}/sales': [`/nft/collections/${policy}/sales`],
      '/nft/collections/{policy}/listings': [`/nft/collections/${policy}/listings`],
      '/storage-network/overview': ['/storage-network/overview'],
      '/news': ['/news'],
    };
    assert.deepEqual(Object.keys(paths).sort(), Object.keys(doc.paths).sort(), 'every documented operation');

    const problems: string[] = [];
    for (const [path, urls] of Object.entries(paths)) {
      const responses = doc.paths[path].get.responses as Json;
      const schema = responses['200'].content['application/json']?.schema as Json;
      for (const url of urls) {
        const r = await get(url);
        assert.equal(r.status, 200, `${url}: ${JSON.stringify(r.body)}`);
        const body = r.body;
        // Every JSON answer has a validator a client may revalidate with: the document says so.
        assert.ok(r.etag, url);
        // (fetch sends Cache-Control: no-cache with a conditional header unless told otherwise)
        const again = await fetch(`${s.url}/api/v1${url}`, {
          headers: { 'if-none-match': r.etag, 'cache-control': 'max-age=0' },
        });
        if (again.status !== 304) problems.push(`${url}: If-None-Match answered ${again.status}`);
        if (!responses['200'].headers?.ETag || !responses['304']) problems.push(`${url}: ETag and 304 undocumented`);
        const validate = ajv.compile(local(schema));
        if (!validate(body)) problems.push(`${url}: ${ajv.errorsText(validate.errors)}`);
        if (path === '/openapi.json') continue; // its paths and components are OpenAPI's own objects
        const check = (value: Json, at: Json, where: string) => {
          const names = declared(at);
          if (!names) return;
          for (const k of Object.keys(value)) if (!names.has(k)) problems.push(`${url}: ${where}${k} is not declared`);
        };
        check(body, schema, '');
        const items = itemsOf(schema);
        if (items && Array.isArray(body.items)) for (const item of body.items as Json[]) check(item, items, 'items[].');
      }
    }
    assert.deepEqual([...new Set(problems)], []);
  });
});

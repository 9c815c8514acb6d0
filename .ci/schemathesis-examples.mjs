/* global process, fetch, Buffer, console -- a Node script outside the TypeScript project */
// Usage: node .ci/schemathesis-examples.mjs <base url> <out file>
//
// Reads the running service's own OpenAPI document and adds an `example` to every path parameter (and to cursor
// parameters) taken from the running devnet's data: a traded token, a pool, a block, a transaction, an address and
// a stake address holding the token, an NFT policy, a stake pool, a DRep, a proposal, a handle, and the nextCursor
// of each cursor list. Schemathesis' examples phase sends them, so 200 answers are validated against the response
// schemas too, not only the refusals of generated garbage. Fails when an identifier cannot be found.
import { writeFileSync } from 'node:fs';

const [base, out] = process.argv.slice(2);
if (!base || !out) throw new Error('usage: schemathesis-examples.mjs <base url> <out file>');
const api = `${base.replace(/\/+$/, '')}/api/v1`;
const HANDLE_POLICY = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';

async function get(path) {
  const res = await fetch(api + path);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
const first = (list, what) => {
  if (!list?.length) throw new Error(`no ${what} on the devnet yet`);
  return list[0];
};

const doc = await get('/openapi.json');
const unit = first((await get('/tokens?pageSize=1&minLiquidity=0')).items, 'token').asset.unit;
const pool = first((await get('/pools?pageSize=1')).items, 'pool').id;
const ready = await (await fetch(`${base}/readyz`)).json();
const block = await get(`/explorer/blocks/${ready.height - 1}`);
const tx = await get(`/explorer/tx/${first(block.txIds, 'transaction')}`);
const holders = (await get(`/tokens/${unit}/holders`)).items;
const stake = holders.map((h) => h.address).find((a) => a.startsWith('stake1'));
const address = first(tx.outputs, 'output').address;
const policy = first((await get('/nft/collections?pageSize=1')).items, 'NFT collection').policyId;
const stakePool = first((await get('/staking/pools?pageSize=1')).items, 'stake pool').id;
const drep = first((await get('/governance/dreps?pageSize=1')).items, 'DRep').id;
const proposal = first((await get('/governance/proposals?pageSize=1')).items, 'proposal').id;

// Handles are minted early in the devnet's chain: the first legacy (CIP-25) handle's asset name is its UTF-8 name.
let handle = null;
for (let h = 1; h <= 400 && !handle; h++) {
  for (const id of (await get(`/explorer/blocks/${h}`)).txIds) {
    const minted = (await get(`/explorer/tx/${id}`)).mint ?? [];
    const legacy = minted.find((a) => a.policyId === HANDLE_POLICY && a.quantity > 0 && !a.nameHex.startsWith('000'));
    if (legacy) {
      handle = `$${Buffer.from(legacy.nameHex, 'hex').toString('utf8')}`;
      break;
    }
  }
}
if (!handle) throw new Error('no handle minted in the first 400 blocks');

const pathExamples = {
  unit,
  metric: 'price',
  policy,
  handle,
  hash: tx.hash ?? tx.id,
};
const byPath = {
  '/pools/{id}': String(pool),
  '/pools/{id}/candles': String(pool),
  '/pools/{id}/trades': String(pool),
  '/explorer/blocks/{id}': String(block.height),
  '/staking/pools/{id}': stakePool,
  '/governance/dreps/{id}': drep,
  '/governance/proposals/{id}': proposal,
};
const cursorOf = async (path) => {
  const page = await get(`${path}${path.includes('?') ? '&' : '?'}limit=1`);
  return page.nextCursor ?? null;
};

const wallet = stake ?? address;
// A quote the devnet's pools can fill: 10 ADA into the most traded token.
const swapExamples = { in: 'lovelace', out: unit, amount: 10 };
for (const [path, item] of Object.entries(doc.paths)) {
  const op = item.get;
  for (const p of op.parameters) {
    let example;
    if (p.in === 'path') {
      if (p.name === 'address') example = path.startsWith('/explorer/') ? address : wallet;
      else example = byPath[path] ?? pathExamples[p.name];
      if (example === undefined) throw new Error(`no example for ${path} {${p.name}}`);
    } else if (path === '/swap/quote' && p.name in swapExamples) {
      example = swapExamples[p.name];
    } else if (p.name === 'cursor') {
      const concrete = path.replace(/\{(\w+)\}/g, (_m, name) =>
        encodeURIComponent(name === 'address' ? wallet : (byPath[path] ?? pathExamples[name])),
      );
      example = await cursorOf(concrete);
    }
    if (example !== undefined && example !== null) p.example = example;
  }
}
writeFileSync(out, JSON.stringify(doc));
console.log(
  JSON.stringify({ unit, pool, block: block.height, address, stake, policy, stakePool, drep, proposal, handle }),
);

/**
 * Explorer (spec: Explorer): blocks, transactions and addresses, read from the chain documents the sync writes
 * (mongo/collections/chain.ts). Reads only. Every read is a point get or a bounded range on a declared index.
 *
 * Freshness: every answer reflects the indexed chain at the sync checkpoint, so the ETag names the checkpoint
 * block. The checkpoint is read first: the documents read after it are at least as new, so a client holding an
 * ETag never keeps a body older than the chain that ETag names. A rollback changes the checkpoint, and so the ETag.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { base58 } from '@scure/base';
import { Tag } from 'cbor-x';
import { ResponseCache } from '../response-cache.js';
import Router from '@koa/router';
import type Koa from 'koa';
import { AddressError, parseAddress, type Network, type ParsedAddress } from '../../cardano/address.js';
import { decodeCbor } from '../access/cbor.js';
import {
  ADDRESSES,
  ADDRESS_TXS,
  BLOCKS,
  STAKE_ACCOUNTS,
  TRANSACTIONS,
  type AddressTxDoc,
} from '../../mongo/collections/chain.js';
import { CHECKPOINTS, type CheckpointDoc } from '../../mongo/collections/sync-state.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import {
  presentBlock,
  presentPaymentAddress,
  presentStakeAddress,
  presentTx,
  txUnits,
  unitsOf,
  type Activity,
  type DecimalsMap,
} from '../present/chain.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { addressParam, withHandle } from './handles.js';
import {
  AddressParams,
  AddressResponse,
  BlockIdParams,
  BlockResponse,
  TxHashParams,
  TxResponse,
} from '../schemas/explorer.js';

/** The sync keeps one checkpoint document (mongo/collections/sync-state.ts). */
const CHECKPOINT_ID = 'sync';
/** Addresses of one stake key listed in the answer. */
export const STAKE_ADDRESS_LIST_LIMIT = 100;
/** Addresses of one stake key summed into its totals; beyond it the answer says `complete: false`. */
export const STAKE_AGGREGATE_LIMIT = 1000;
/** Address-transaction entries read to count distinct transactions of a stake key exactly. */
export const STAKE_DISTINCT_TX_LIMIT = 10_000;

const TAGS = ['Explorer'];

export const explorerRoutes = {
  block: defineRoute<{ id: string }>({
    operationId: 'getBlock',
    path: '/explorer/blocks/{id}',
    summary: 'A block by hash or height',
    description:
      'Header, size, transaction count, fees and output total (whole ADA), the issuing pool, the transaction ids, confirmations and the next block.',
    tags: TAGS,
    params: BlockIdParams,
    response: BlockResponse,
    etag: true,
  }),
  tx: defineRoute<{ hash: string }>({
    operationId: 'getTransaction',
    path: '/explorer/tx/{hash}',
    summary: 'A transaction by hash',
    description:
      'The decoded transaction: block, time, validity, fee, inputs (resolved when the spent output is indexed), outputs, collaterals, mint, certificates, withdrawals, metadata.',
    tags: TAGS,
    params: TxHashParams,
    response: TxResponse,
    etag: true,
  }),
  address: defineRoute<{ address: string }>({
    operationId: 'getAddress',
    path: '/explorer/address/{address}',
    summary: 'An address summary (addr1…, Byron base58, or stake1… for all addresses of a stake key)',
    description: `A payment address: balance, assets, stake address, transaction and UTxO counts, first and last activity. A stake address: the totals over all its payment addresses (the first ${STAKE_ADDRESS_LIST_LIMIT} listed, up to ${STAKE_AGGREGATE_LIMIT} summed), distinct transactions, and the stake account (registration, delegation, withdrawals).`,
    tags: TAGS,
    params: AddressParams,
    response: AddressResponse,
    etag: true,
  }),
} satisfies Record<string, AnyRouteSpec>;

const etagOf = (...parts: readonly (string | number)[]) =>
  createHash('sha1').update(parts.join('|')).digest('base64url');

function setEtag(ctx: Koa.Context, kind: string, key: string, cp: CheckpointDoc | null): void {
  if (cp) ctx.etag = etagOf(kind, key, cp.height, cp.id);
}

export function explorerRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const router = new Router();
  const blocks = store.collection(BLOCKS);
  const txs = store.collection(TRANSACTIONS);
  const checkpoint = () => store.collection(CHECKPOINTS).get(CHECKPOINT_ID);

  const cache = new ResponseCache();
  /** Serve cached bytes as the JSON answer whose ETag is `key` (304 handling stays in `register`). */
  const cached = (ctx: Koa.Context, key: string, bytes: Buffer): Buffer => {
    ctx.etag = key;
    ctx.type = 'application/json; charset=utf-8';
    return bytes;
  };

  async function decimalsOf(units: readonly string[]): Promise<DecimalsMap> {
    const lookup = deps.tokenDecimals;
    if (!lookup || units.length === 0) return new Map();
    const found = await Promise.all(units.map(async (u) => [u, await lookup(u)] as const));
    return new Map(found);
  }

  register(router, explorerRoutes.block, async (ctx, { params }) => {
    const cp = await checkpoint();
    const id = params.id.toLowerCase();
    const key = cp ? etagOf('block', id, cp.height, cp.id) : null;
    const hit = key ? cache.get(key) : undefined;
    if (hit && key) return cached(ctx, key, hit);
    const block =
      id.length === 64
        ? await blocks.get(id)
        : ((await blocks.find('byHeight', { eq: [Number(id)], limit: 1 }))[0] ?? null);
    if (!block) throw new NotFoundError(`block ${params.id} not found`);
    const [next] = await blocks.find('byHeight', { eq: [block.height + 1], limit: 1 });
    const body = presentBlock(block, cp?.height ?? null, next?._id ?? null);
    return key ? cached(ctx, key, cache.set(key, body)) : body;
  });

  register(router, explorerRoutes.tx, async (ctx, { params }) => {
    const cp = await checkpoint();
    const hash = params.hash.toLowerCase();
    const key = cp ? etagOf('tx', hash, cp.height, cp.id) : null;
    const hit = key ? cache.get(key) : undefined;
    if (hit && key) return cached(ctx, key, hit);
    const tx = await txs.get(hash);
    if (!tx) throw new NotFoundError(`transaction ${params.hash} not found`);
    const decimals = await decimalsOf(txUnits(tx));
    const body = presentTx(tx, cp?.height ?? null, decimals);
    return key ? cached(ctx, key, cache.set(key, body)) : body;
  });

  register(router, explorerRoutes.address, async (ctx, { params }) => {
    const cp = await checkpoint();
    // A handle ($name, sub@root) answers for its stake key (its address without one) and is echoed.
    const { address, handle } = await addressParam(store, params.address);
    const parsed = parseForNetwork(address, deps.config.CARDANO_NETWORK);
    const body =
      parsed.kind === 'reward'
        ? await stakeAnswer(store, address, parsed, decimalsOf)
        : await paymentAnswer(store, address, parsed, decimalsOf);
    setEtag(ctx, 'address', params.address, cp);
    return withHandle(body, handle);
  });

  return router;
}

/** Syntax and network of an address parameter; 400 with the reason otherwise. */
export function parseForNetwork(address: string, network: Network): ParsedAddress {
  // Bech32 may be written in capitals, but addresses are lowercase everywhere (keys, answers, the index);
  // parseAddress would otherwise take `ADDR1…` for base58 text.
  if (/^(addr|stake)(_test)?1/i.test(address) && address !== address.toLowerCase())
    throw new BadRequestError('invalid parameter address: write the Bech32 address in lowercase (addr1…, stake1…)');
  let parsed: ParsedAddress;
  try {
    parsed = parseAddress(address);
  } catch (e) {
    if (e instanceof AddressError) throw new BadRequestError(`invalid parameter address: ${e.message}`);
    throw e;
  }
  // parseAddress takes any base58 text for a Byron address (network null); the structure is checked here.
  const addressNetwork = parsed.kind === 'byron' ? byronNetwork(address) : parsed.network;
  if (addressNetwork === null)
    throw new BadRequestError(
      'invalid parameter address: not a Cardano address (expected addr1…, stake1… or a Byron address with a valid checksum)',
    );
  if (addressNetwork !== network)
    throw new BadRequestError(`address is for ${addressNetwork}, this service indexes ${network}`);
  return parsed;
}

/**
 * The network of a Byron address, or null when the text is not one. A Byron address is the base58 of CBOR
 * [tag 24 (CBOR [root: 28 bytes, attributes: map, type]), CRC-32 of those tagged bytes]; attribute 2, the
 * network magic, is present on test networks only.
 */
export function byronNetwork(address: string): Network | null {
  try {
    const outer = decodeCbor(base58.decode(address));
    if (!Array.isArray(outer) || outer.length !== 2) return null;
    const [tagged, crc] = outer as unknown[];
    if (!(tagged instanceof Tag) || tagged.tag !== 24 || !(tagged.value instanceof Uint8Array)) return null;
    if (crc !== crc32(tagged.value)) return null;
    const inner = decodeCbor(tagged.value);
    if (!Array.isArray(inner) || inner.length !== 3) return null;
    const [root, attributes, type] = inner as unknown[];
    if (!(root instanceof Uint8Array) || root.length !== 28 || !(attributes instanceof Map)) return null;
    if (typeof type !== 'number') return null;
    return attributes.has(2) ? 'testnet' : 'mainnet';
  } catch {
    return null;
  }
}

/**
 * First and last transaction of an address history. ADDRESS_TXS ids are `address|slot|txId`, so one address's
 * history is an `_id` range ('}' is the character after '|'); a stake key's goes through the byStake index.
 */
async function activities(
  store: Store,
  by: 'address' | 'stake',
  key: string,
): Promise<{ first: Activity | null; last: Activity | null }> {
  const history = store.collection(ADDRESS_TXS);
  const [[first], [last]] =
    by === 'address'
      ? await Promise.all([
          history.find('_id', { gt: `${key}|`, lt: `${key}}`, limit: 1 }),
          history.find('_id', { gt: `${key}|`, lt: `${key}}`, limit: 1, reverse: true }),
        ])
      : await Promise.all([
          history.find('byStake', { eq: [key], limit: 1 }),
          history.find('byStake', { eq: [key], limit: 1, reverse: true }),
        ]);
  if (!first || !last) return { first: null, last: null };
  const [firstTx, lastTx] = await store.collection(TRANSACTIONS).getMany([first.txId, last.txId]);
  const point = (e: AddressTxDoc, time: string | undefined): Activity => ({
    slot: e.slot,
    time: time ?? null,
    txHash: e.txId,
  });
  return { first: point(first, firstTx?.time), last: point(last, lastTx?.time) };
}

type DecimalsOf = (units: readonly string[]) => Promise<DecimalsMap>;

async function paymentAnswer(store: Store, address: string, parsed: ParsedAddress, decimalsOf: DecimalsOf) {
  const doc = await store.collection(ADDRESSES).get(address);
  if (!doc) throw new NotFoundError(`address ${address} not found (no transaction in the indexed range)`);
  const [{ first, last }, account, decimals] = await Promise.all([
    activities(store, 'address', address),
    doc.stakeAddress ? store.collection(STAKE_ACCOUNTS).get(doc.stakeAddress) : Promise.resolve(null),
    decimalsOf(Object.keys(doc.balance.assets)),
  ]);
  const addressType = parsed.kind === 'reward' ? 'base' : parsed.kind;
  return presentPaymentAddress(doc, { addressType, first, last, account }, decimals);
}

/**
 * A stake key combines all payment addresses that carry it (ADDRESSES byStake). Transactions are counted once
 * even when they touch several of its addresses; for keys with more than STAKE_DISTINCT_TX_LIMIT
 * address-transaction entries the count falls back to those entries (`txCountExact: false`).
 */
async function stakeAnswer(store: Store, stakeAddress: string, parsed: ParsedAddress, decimalsOf: DecimalsOf) {
  const byStake = { eq: [stakeAddress] };
  const addressDocs = store.collection(ADDRESSES);
  const history = store.collection(ADDRESS_TXS);
  const [addressCount, addresses, account, { first, last }] = await Promise.all([
    addressDocs.count('byStake', byStake),
    addressDocs.find('byStake', { ...byStake, limit: STAKE_AGGREGATE_LIMIT }),
    store.collection(STAKE_ACCOUNTS).get(stakeAddress),
    activities(store, 'stake', stakeAddress),
  ]);
  if (addressCount === 0 && !account)
    throw new NotFoundError(`stake address ${stakeAddress} not found (no activity in the indexed range)`);

  let txCount: number;
  let txCountExact = true;
  if (addressCount <= 1) txCount = addresses[0]?.txCount ?? 0;
  else {
    const entries = await history.find('byStake', { ...byStake, limit: STAKE_DISTINCT_TX_LIMIT + 1 });
    if (entries.length <= STAKE_DISTINCT_TX_LIMIT) txCount = new Set(entries.map((e) => e.txId)).size;
    else {
      txCount = await history.count('byStake', byStake);
      txCountExact = false;
    }
  }
  const decimals = await decimalsOf(unitsOf(addresses.map((a) => a.balance.assets)));
  return presentStakeAddress(
    stakeAddress,
    {
      script: parsed.stakeScript,
      addresses,
      addressCount,
      listLimit: STAKE_ADDRESS_LIST_LIMIT,
      txCount,
      txCountExact,
      first,
      last,
      account,
    },
    decimals,
  );
}

export const explorerModule: RestModule = { routes: Object.values(explorerRoutes), router: explorerRouter };

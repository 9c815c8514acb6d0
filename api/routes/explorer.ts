/**
 * Explorer (spec: Explorer): blocks, transactions and addresses, read from the chain documents the sync writes
 * (mongo/collections/chain.ts). Reads only. Every read is a point get or a bounded range on a declared index.
 *
 * Freshness: every answer reflects the indexed chain at the sync checkpoint, so the ETag names the checkpoint
 * block. The checkpoint is read first: the documents read after it are at least as new, so a client holding an
 * ETag never keeps a body older than the chain that ETag names. A rollback changes the checkpoint, and so the ETag.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { getAddress, getBlock, getBlocks, getTransaction, STAKE_ADDRESS_LIST_LIMIT } from '../read/explorer.js';
import {
  AddressParams,
  AddressResponse,
  BlockIdParams,
  BlockListResponse,
  BlockResponse,
  BlocksQuery,
  TxHashParams,
  TxResponse,
} from '../schemas/explorer.js';

const TAGS = ['Explorer'];

export const explorerRoutes = {
  blocks: defineRoute<Record<string, never>, { limit: number; cursor?: string }>({
    operationId: 'listBlocks',
    path: '/explorer/blocks',
    summary: 'The latest blocks, newest first',
    description:
      'The indexed chain’s blocks by height descending, page by page (cursor): header, size, transaction count, fees and output total (whole ADA), the issuing pool and confirmations. A rollback replaces the blocks above the fork: a cursor of a page read before it pages on below its height.',
    tags: TAGS,
    query: BlocksQuery,
    response: BlockListResponse,
    etag: true,
  }),
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
    description: `A payment address: balance, assets, stake address, transaction and UTxO counts, first and last activity. A stake address: the totals over all its payment addresses (all of them summed, the first ${STAKE_ADDRESS_LIST_LIMIT} listed), distinct transactions, and the stake account (registration, delegation, withdrawals).`,
    tags: TAGS,
    params: AddressParams,
    response: AddressResponse,
    etag: true,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function explorerRouter(deps: ApiDeps): Router {
  const router = new Router();
  register(router, explorerRoutes.blocks, (_ctx, { query }) => getBlocks(deps, query));
  register(router, explorerRoutes.block, (_ctx, { params, query }) => getBlock(deps, { ...params, ...query }));
  register(router, explorerRoutes.tx, (_ctx, { params, query }) => getTransaction(deps, { ...params, ...query }));
  register(router, explorerRoutes.address, (_ctx, { params, query }) => getAddress(deps, { ...params, ...query }));
  return router;
}

export const explorerModule: RestModule = { routes: Object.values(explorerRoutes), router: explorerRouter };

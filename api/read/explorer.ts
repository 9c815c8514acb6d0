/**
 * Explorer reads: a block by hash or height, a transaction, an address or stake key summary — the documents the
 * sync writes (mongo/collections/chain.ts), presented with decimal-adjusted token amounts.
 */
import { crc32 } from 'node:zlib';
import { base58 } from '@scure/base';
import { Tag } from 'cbor-x';
import { AddressError, parseAddress, type Network, type ParsedAddress } from '../../cardano/address.js';
import { decodeCbor } from '../access/cbor.js';
import {
  addressesOfStake,
  blockAtHeight,
  blockHashAtHeight,
  historyEnds,
  ADDRESSES,
  BLOCKS,
  STAKE_SUMMARIES,
  TRANSACTIONS,
  type AddressTxDoc,
  type TxDoc,
  type TxOutputDoc,
} from '../../mongo/collections/chain.js';
import { stakeAccountOf } from './stake-account.js';
import { GOVERNANCE_CHAIN_PROPOSALS, type GovChainProposalDoc } from '../../mongo/collections/governance.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { CHECKPOINT_ID } from '../../mongo/collections/clock.js';
import type { Store } from '../../mongo/store.js';
import { AppError, BadRequestError, NotFoundError } from '../errors.js';
import {
  createdOutput,
  presentBlock,
  presentPaymentAddress,
  presentStakeAddress,
  presentTx,
  txUnits,
  type Activity,
  type DecimalsMap,
} from '../present/chain.js';
import { addressParam, withHandle } from './handles.js';
import { openCursor, sealCursor } from './cursor.js';
import { tokenDecimalsLookup, type DecimalsLookup } from '../present/market.js';
import type { explorerRoutes } from '../routes/explorer.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notIndexedYet, withAsOf, withCoverage } from './freshness.js';

/** Addresses of one stake key listed in its answer (all of them are summed into its totals). */
export const STAKE_ADDRESS_LIST_LIMIT = 100;

/** Decimals of the units an answer shows (registry, else CIP-68, else 0). */
function decimalsOf(deps: ReadDeps): DecimalsOf {
  const lookup: DecimalsLookup = deps.tokenDecimals ?? tokenDecimalsLookup(deps.store);
  return async (units) => {
    if (units.length === 0) return new Map();
    if (lookup.many) return lookup.many(units);
    return new Map(await Promise.all(units.map(async (u) => [u, await lookup(u)] as const)));
  };
}

async function getBlockAnswer(deps: ReadDeps, input: RouteInput<typeof explorerRoutes.block>) {
  const blocks = deps.store.collection(BLOCKS);
  const id = input.id.toLowerCase();
  // A height beyond 2^53 is past any chain's tip (and no longer exact as a number): not found.
  const height = Number(id);
  const [cp, found] = await Promise.all([
    deps.store.collection(CHECKPOINTS).get(CHECKPOINT_ID),
    id.length === 64 ? blocks.get(id) : Number.isSafeInteger(height) ? blockAtHeight(deps.store, height) : null,
  ]);
  // A height beyond 2^53 is still a height (above any chain's tip, never "found later"): only a hash has none.
  if (!found) throw new NotFoundError(await notIndexedYet(deps, `block ${input.id}`, id.length === 64 ? null : height));
  return presentBlock(found, cp?.height ?? null, await blockHashAtHeight(deps.store, found.height + 1));
}

/** The cursor list of the latest blocks: a position is the height of the previous page's last (lowest) block. */
const BLOCK_LIST = 'explorer-blocks';

async function getBlocksAnswer(deps: ReadDeps, input: RouteInput<typeof explorerRoutes.blocks>) {
  const below = input.cursor === undefined ? null : Number(openCursor(BLOCK_LIST, input.cursor));
  if (below !== null && !Number.isSafeInteger(below))
    throw new BadRequestError('invalid parameter cursor: not a cursor of this list (pass the nextCursor unchanged)');
  // The checkpoint first: the blocks read after it are at least as new, so confirmations never come out below 1.
  const cp = await deps.store.collection(CHECKPOINTS).get(CHECKPOINT_ID);
  const tipHeight = cp?.height ?? null;
  // One more than the page: whether an older page exists, without a count.
  const found = await deps.store
    .collection(BLOCKS)
    .find('byHeight', { ...(below === null ? {} : { lt: below }), reverse: true, limit: input.limit + 1 });
  const page = found.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((b) => {
      const { txIds: _txIds, nextBlock: _next, ...summary } = presentBlock(b, tipHeight, null);
      return summary;
    }),
    nextCursor: found.length > input.limit && last ? sealCursor(BLOCK_LIST, String(last.height)) : null,
    tipHeight,
  };
}

async function getTransactionAnswer(deps: ReadDeps, input: RouteInput<typeof explorerRoutes.tx>) {
  const [cp, tx] = await Promise.all([
    deps.store.collection(CHECKPOINTS).get(CHECKPOINT_ID),
    deps.store.collection(TRANSACTIONS).get(input.hash.toLowerCase()),
  ]);
  if (!tx) throw new NotFoundError(await notIndexedYet(deps, `transaction ${input.hash}`));
  // Proposals take effect (and take their deposit) only in a valid transaction, which the governance extension
  // recorded with its block.
  const proposalIds = tx.valid ? Array.from({ length: tx.proposals }, (_, i) => `${tx._id}#${i}`) : [];
  const [proposals, referenced] = await Promise.all([
    proposalIds.length ? deps.store.collection(GOVERNANCE_CHAIN_PROPOSALS).getMany(proposalIds) : Promise.resolve([]),
    referencedOutputs(deps.store, tx.referenceInputs),
  ]);
  const decimals = await decimalsOf(deps)(txUnits(tx, referenced));
  const recorded = proposals.filter((p): p is GovChainProposalDoc => p !== null);
  return presentTx(tx, cp?.height ?? null, decimals, recorded, referenced);
}

/**
 * The outputs a transaction's reference inputs read, from the documents of the transactions that created them (one
 * batched point read): the ledger requires a referenced output to exist, so its creating transaction is on chain,
 * indexed unless it predates the indexed range (then left out: unresolved).
 */
async function referencedOutputs(store: Store, refs: readonly { txId: string; index: number }[]) {
  const out = new Map<string, TxOutputDoc>();
  if (refs.length === 0) return out;
  const ids = [...new Set(refs.map((r) => r.txId))];
  const docs = await store.collection(TRANSACTIONS).getMany(ids);
  const byId = new Map(docs.filter((d): d is TxDoc => d !== null).map((d) => [d._id, d]));
  for (const r of refs) {
    const creator = byId.get(r.txId);
    const o = creator ? createdOutput(creator, r.index) : null;
    if (o) out.set(`${r.txId}#${r.index}`, o);
  }
  return out;
}

async function getAddressAnswer(deps: ReadDeps, input: RouteInput<typeof explorerRoutes.address>) {
  const { store } = deps;
  // A handle ($name, sub@root) answers for its stake key (its address without one) and is echoed.
  const { address, handle } = await addressParam(store, input.address);
  const parsed = parseForNetwork(address, deps.config.CARDANO_NETWORK);
  try {
    const body =
      parsed.kind === 'reward'
        ? await stakeAnswer(store, address, parsed, decimalsOf(deps))
        : await paymentAnswer(store, address, parsed, decimalsOf(deps));
    return withHandle(body, handle);
  } catch (e) {
    // While the index catches up with the chain (a first sync, a resync), an address with no transaction up to the
    // indexed height may have some above it: the 404 says so, as a block's or a transaction's does.
    if (!(e instanceof NotFoundError)) throw e;
    const what = `${parsed.kind === 'reward' ? 'stake address' : 'address'} ${address}`;
    const hedged = await notIndexedYet(deps, what);
    throw hedged === `${what} not found` ? e : new NotFoundError(hedged);
  }
}

/** Syntax and network of an address parameter; 400 with the reason otherwise. */
export function parseForNetwork(address: string, network: Network): ParsedAddress {
  // Bech32 may be written in capitals, but addresses are lowercase everywhere (keys, answers, the index);
  // parseAddress would otherwise take `ADDR1…` for base58 text.
  // Only an address whose lowercase is one is told to write it so: a typo in capitals (its checksum fails in either
  // case) is refused for what its lowercase is, or the hint sends the caller to a second 400.
  const capitals = /^(addr|stake)(_test)?1/i.test(address) && address !== address.toLowerCase();
  let parsed: ParsedAddress;
  try {
    parsed = parseAddress(capitals ? address.toLowerCase() : address);
  } catch (e) {
    if (e instanceof AddressError) throw new BadRequestError(`invalid parameter address: ${e.message}`);
    throw e;
  }
  if (capitals)
    throw new BadRequestError('invalid parameter address: write the Bech32 address in lowercase (addr1…, stake1…)');
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
 * First and last transaction of an address history. ADDRESS_TXS ids are `address|slot|blockIndex|txId`, so one address's
 * history is an `_id` range ('}' is the character after '|'); a stake key's goes through the byStake index.
 */
async function activities(
  store: Store,
  by: 'address' | 'stake',
  key: string,
): Promise<{ first: Activity | null; last: Activity | null }> {
  const { first, last } = await historyEnds(store, by, key);
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
  const [{ first, last }, { account, rewards: reward }, decimals] = await Promise.all([
    activities(store, 'address', address),
    doc.stakeAddress ? stakeAccountOf(store, doc.stakeAddress) : { account: null, rewards: null },
    decimalsOf(Object.keys(doc.balance.assets)),
  ]);
  const addressType = parsed.kind === 'reward' ? 'base' : parsed.kind;
  return presentPaymentAddress(doc, { addressType, first, last, account, reward }, decimals);
}

/**
 * A stake key combines all payment addresses that carry it: the totals, the distinct transaction count and the
 * first/last activity are the sync's aggregate (STAKE_SUMMARIES, one document); the first
 * STAKE_ADDRESS_LIST_LIMIT addresses are listed from ADDRESSES byStake.
 */
async function stakeAnswer(store: Store, stakeAddress: string, parsed: ParsedAddress, decimalsOf: DecimalsOf) {
  const [summary, addresses, { account, rewards: reward }] = await Promise.all([
    store.collection(STAKE_SUMMARIES).get(stakeAddress),
    addressesOfStake(store, stakeAddress, STAKE_ADDRESS_LIST_LIMIT),
    stakeAccountOf(store, stakeAddress),
  ]);
  // Every address the sync creates is created by a transaction, which writes its key's summary: addresses without
  // one were synced by a build that kept no summaries, and zeros would be a wrong answer.
  if (!summary && addresses.length > 0)
    throw new AppError(
      503,
      'stake key totals are missing: this store was synced before stake_summaries existed; resync it (npm run ops -- resync --from origin)',
    );
  if (!summary && !account)
    throw new NotFoundError(`stake address ${stakeAddress} not found (no activity in the indexed range)`);
  const decimals = await decimalsOf(Object.keys(summary?.balance.assets ?? {}));
  return presentStakeAddress(
    stakeAddress,
    { script: parsed.stakeScript, summary, addresses, listLimit: STAKE_ADDRESS_LIST_LIMIT, account, reward },
    decimals,
  );
}

export const getBlock = withAsOf(getBlockAnswer);
export const getBlocks = withAsOf(getBlocksAnswer);
export const getTransaction = withAsOf(getTransactionAnswer);
export const getAddress = withAsOf(withCoverage(getAddressAnswer));

/**
 * Cross-entity search (the `search` tool): one answer over tokens (ticker, name, unit, CIP-14 fingerprint), DEX
 * pools, NFT collections, stake pools (ticker, name, pool id), handles, addresses, transactions, blocks, epochs and
 * governance proposals. Each hit names the tool to call next and the arguments to pass.
 *
 * Names, tickers and ids of tokens, pools, collections, stake pools and handles come from the `search_terms` index
 * (rebuilt every minute by activities/search/): a prefix scan of one index per entity kind. Exact identifiers of
 * transactions, blocks (hash or height), addresses (addr1…, stake1…, Byron base58), epochs and proposals
 * (gov_action1…, txId#index) are point reads of their documents. No collection is scanned on the request path.
 *
 * Order: exact matches (the whole term, or an identifier) first, then prefix matches by weight (liquidity or
 * stake in ADA, all-time volume), then by label; a query written `$name…` puts handle hits first.
 */
import { parseAddress } from '../../cardano/address.js';
import { parseGovActionRef, proposalKey } from '../../cardano/governance-ids.js';
import { handleOfAsset } from '../../cardano/handles.js';
import { cip68FtOfReference, cip68NftOfReference } from '../../cardano/units.js';
import { GOVERNANCE_PROPOSALS } from '../../mongo/collections/governance.js';
import { poolsByLpToken } from '../../mongo/collections/market.js';
import {
  ADDRESSES,
  BLOCKS,
  CHECKPOINTS,
  DERIVED_RUNS,
  HANDLES,
  NFT_ASSETS,
  NFT_COLLECTIONS,
  SEARCH_TERMS,
  STAKE_ACCOUNTS,
  STAKE_SUMMARIES,
  TRANSACTIONS,
  normaliseTerm,
  type SearchTermDoc,
} from '../../mongo/collections/index.js';
import type { Store } from '../../mongo/store.js';
import { byronNetwork } from './explorer.js';

/**
 * Base58 text (Bitcoin alphabet: no 0, O, I, l) of a Byron address's length: Ae2… 58-59, Ddz… 104-128 characters,
 * and longer when its attributes hold a deep HD path, up to the 1023 characters get_address takes.
 */
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{50,1023}$/;

export const SEARCH_KINDS = [
  'token',
  'pool',
  'nft_collection',
  'stake_pool',
  'handle',
  'address',
  'transaction',
  'block',
  'epoch',
  'proposal',
] as const;
export type HitKind = (typeof SEARCH_KINDS)[number];

export interface SearchHit {
  kind: HitKind;
  id: string;
  label: string;
  detail: string | null;
  /** The tool to call next: every hit names one that answers for it (entities no tool answers for are no hits). */
  tool: string;
  arguments: Record<string, unknown>;
}

export interface SearchResult {
  query: string;
  hits: SearchHit[];
  /**
   * With no hit only: when the names index is missing or trails the indexed chain, what it covers and when names
   * seen since are found (identifiers — addresses, transactions, blocks, epochs, units — do not need the index);
   * else what search finds and how, and the list tools to browse with.
   */
  note?: string;
}

/**
 * How many blocks the names index may trail the indexed tip before an answer without hits says so. It is rebuilt
 * every minute (three mainnet blocks), so a trail of ten blocks is a run that has not happened yet, as at a first
 * start: the run after the backfill waits for the market, staking and NFT recomputes it reads (workflows/derived.ts).
 */
const INDEX_TRAIL_NOTED = 10;

/** Why an answer without hits may be missing a name: the names index is not built yet, or trails the chain. */
async function indexTrailNote(store: Store): Promise<string | undefined> {
  const [run, checkpoint] = await Promise.all([
    store.collection(DERIVED_RUNS).get('recomputeSearch'),
    store.collection(CHECKPOINTS).get('sync'),
  ]);
  const tip = checkpoint?.height ?? null;
  // A run over a store with no block yet (`from` null) indexed nothing.
  if (!run?.from)
    return 'The names index has not been built from indexed blocks yet (its first run after a start follows the market, staking and NFT recomputes); names are found once it has, within minutes. Meanwhile list_tokens, list_stake_pools and list_nft_collections list them.';
  if (tip === null || tip - run.from.height <= INDEX_TRAIL_NOTED) return undefined;
  return `The names index was built from the chain up to block ${run.from.height} (at ${run.finishedAt}); the service has indexed up to block ${tip} since. Names first seen after block ${run.from.height} are found after its next run (every minute).`;
}

const NEXT: Record<SearchTermDoc['kind'], (id: string) => [string, Record<string, unknown>]> = {
  token: (id) => ['get_token', { unit: id }],
  pool: (id) => ['get_pool', { poolId: Number(id) }],
  nft_collection: (id) => ['get_nft_collection', { policyId: id }],
  stake_pool: (id) => ['get_stake_pool', { poolId: id }],
  handle: (id) => ['resolve_handle', { handle: `$${id}` }],
};

/** The kinds the search index holds terms of, each scanned on its own. */
const TERM_KINDS = Object.keys(NEXT) as SearchTermDoc['kind'][];

const fromTerm = (d: SearchTermDoc): SearchHit => {
  const [tool, args] = NEXT[d.kind](d.id);
  return { kind: d.kind, id: d.id, label: d.label, detail: d.detail, tool, arguments: args };
};

/**
 * Exact-identifier hits: transactions, blocks, addresses, epochs (point reads). A number is a block height and an
 * epoch; "block N" and "epoch N" (the labels the hits show) are that one only, and so is "#N" (a block height as
 * explorers write it). A hash is a transaction and a block; "tx <hash>" or "transaction <hash>" is the transaction.
 */
async function identifierHits(store: Store, raw: string): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  const trimmed = raw.trim();
  const txLabelled = /^(?:tx|transaction)\s+([0-9a-fA-F]{64})$/i.exec(trimmed);
  const q = txLabelled ? txLabelled[1]! : trimmed;
  const labelled = /^(block|epoch)\s+(\d{1,10})$/i.exec(q) ?? /^(#)\s*(\d{1,10})$/.exec(q);
  if (labelled) {
    const n = Number(labelled[2]);
    if (labelled[1]!.toLowerCase() !== 'epoch') {
      const hit = await blockByHeight(store, n);
      if (hit) hits.push(hit);
    } else {
      const hit = await epochHit(store, n);
      if (hit) hits.push(hit);
    }
    return hits;
  }
  if (/^[0-9a-fA-F]{64}$/.test(q)) {
    const id = q.toLowerCase();
    const [tx, block] = await Promise.all([
      store.collection(TRANSACTIONS).get(id),
      txLabelled ? null : store.collection(BLOCKS).get(id),
    ]);
    if (tx)
      hits.push({
        kind: 'transaction',
        id,
        label: `transaction ${id.slice(0, 12)}…`,
        detail: `block ${tx.blockHeight}, ${tx.time}`,
        tool: 'get_transaction',
        arguments: { hash: id },
      });
    const hit = block && blockHit(block);
    if (hit) hits.push(hit);
  }
  // An NFT or an ADA Handle by its unit (policy id + asset name hex, as get_wallet, get_nft_listings and
  // get_transaction show it): such units are not search terms and get_token answers only for tokens with a DEX pool,
  // so this is their one way in.
  // 64 hex characters may be a unit as well as a hash (a 4-byte asset name), so both are looked up.
  if (/^[0-9a-fA-F]{58,120}$/.test(q) && q.length % 2 === 0) {
    const [hit, token, handle, lp] = await Promise.all([
      nftUnitHit(store, q.toLowerCase()),
      referenceTokenHit(store, q),
      handleUnitHit(store, q),
      lpTokenHit(store, q.toLowerCase()),
    ]);
    if (hit) hits.push(hit);
    if (token) hits.push(token);
    if (handle) hits.push(handle);
    if (lp) hits.push(lp);
  }
  if (/^\d{1,10}$/.test(q)) {
    const n = Number(q);
    const [block, epoch] = await Promise.all([blockByHeight(store, n), epochHit(store, n)]);
    if (block) hits.push(block);
    if (epoch) hits.push(epoch);
  }
  // Bech32 (addr1…, stake1…) or a Byron address (base58 with a valid checksum, Ae2…/Ddz…), which get_address takes too.
  // Bech32 may be written all in capitals (BIP-173: a QR code's form); the address is its lowercase form.
  const address = /^(ADDR|STAKE)(_TEST)?1[0-9A-Z]+$/.test(q) ? q.toLowerCase() : q;
  const bech32 = /^(addr|stake)(_test)?1[0-9a-z]+$/.test(address);
  if (bech32 || (BASE58.test(address) && byronNetwork(address) !== null)) {
    let known: boolean;
    try {
      if (bech32) parseAddress(address);
      // What get_address answers for: a payment address the index holds; a stake key with an address carrying it
      // (its summary) or an account of its own (a registration, delegation or withdrawal certified on chain: a script
      // key such as a DEX batcher's withdraws while no address carries it).
      known = address.startsWith('stake')
        ? (
            await Promise.all([
              store.collection(STAKE_SUMMARIES).get(address),
              store.collection(STAKE_ACCOUNTS).get(address),
            ])
          ).some((d) => d !== null)
        : (await store.collection(ADDRESSES).get(address)) !== null;
    } catch {
      known = false;
    }
    if (known)
      hits.push({
        kind: 'address',
        id: address,
        label: `${address.startsWith('stake') ? 'stake address' : 'address'} ${address.slice(0, 16)}…`,
        detail: address.startsWith('stake') ? 'all addresses of this stake key' : null,
        tool: 'get_address',
        arguments: { address },
      });
  }
  const proposal = await proposalHit(store, q);
  if (proposal) hits.push(proposal);
  if (/^\$[^\s]+$/.test(q)) {
    const h = await store.collection(HANDLES).get(q.slice(1).toLowerCase());
    // Only a held handle: resolve_handle answers "not found" for one whose holder is unknown (address null).
    if (h?.address)
      hits.push({
        kind: 'handle',
        id: h._id,
        label: `$${h._id}`,
        detail: `held at ${h.address.slice(0, 20)}…`,
        tool: 'resolve_handle',
        arguments: { handle: `$${h._id}` },
      });
  }
  return hits;
}

/**
 * An ADA Handle by the unit of one of its tokens (legacy name, CIP-68 (222) or NFT subhandle, its (100) reference, a
 * virtual subhandle's (000)): get_wallet lists a handle's token as a plain position and get_token, which answers no
 * handle, sends the caller here. Only a held handle is a hit, as for `$name` (resolve_handle answers "not found"
 * for one whose holder is unknown, or burnt).
 */
async function handleUnitHit(store: Store, unit: string): Promise<SearchHit | null> {
  const asset = handleOfAsset(unit);
  if (!asset) return null;
  const h = await store.collection(HANDLES).get(asset.handle);
  if (!h?.address) return null;
  // Only the handle's own tokens: the unit of the name under the other policy, or in the legacy form of a CIP-68
  // name (hex of the name alone, as one writes it by hand), is no token of this handle.
  if (asset.unit !== h.unit && asset.unit !== h.referenceUnit) return null;
  return {
    kind: 'handle',
    id: h._id,
    label: `$${h._id}`,
    detail: `the ADA Handle whose ${asset.role === 'reference' ? 'CIP-68 reference token (label 100)' : 'token'} this unit is; held at ${h.address.slice(0, 20)}…`,
    tool: 'resolve_handle',
    arguments: { handle: `$${h._id}` },
  };
}

/**
 * An NFT the index knows, by its unit, as a hit on its collection (get_nft_collection answers for a collection the
 * NFT index holds; an NFT minted before the indexed range has no document and is no hit, nor is a fungible token).
 */
async function nftUnitHit(store: Store, unit: string): Promise<SearchHit | null> {
  // A CIP-68 NFT's (100) reference token holds its metadata and no wallet holds it, but its mint lists it beside the
  // (222) NFT under the same asset name: who asks for it means that NFT.
  const nftOfReference = cip68NftOfReference(unit);
  const found = await store.collection(NFT_ASSETS).get(nftOfReference ?? unit);
  // A unit once minted beyond quantity 1 is a fungible token (a token hit, when it has a pool), not an NFT.
  const nft = found && !found.fungible ? found : null;
  const c = nft ? await store.collection(NFT_COLLECTIONS).get(nft.policyId) : null;
  if (!nft || !c) return null;
  return {
    kind: 'nft_collection',
    id: c.policyId,
    label: c.name,
    detail: `the collection of ${nft.name}${nftOfReference ? ' (this unit is its CIP-68 reference NFT, label 100, holding its metadata)' : ''}; get_nft_listings lists its NFTs for sale`,
    tool: 'get_nft_collection',
    arguments: { policyId: c.policyId },
  };
}

/**
 * The fungible token a CIP-68 reference NFT (label 100) holds the metadata of, as a hit on that token (label 333, the
 * same policy and name; reference NFTs are no tokens of their own, and get_token answers only for the token), when
 * the index holds the token.
 */
async function referenceTokenHit(store: Store, unit: string): Promise<SearchHit | null> {
  const ft = cip68FtOfReference(unit);
  if (!ft) return null;
  return indexedHit(store, 'token', ft, ft, 'the token whose metadata this CIP-68 reference NFT (label 100) holds');
}

/**
 * The index's hit on entity `id` of `kind` under its exact term `term` (the label and detail every hit on it shows),
 * its detail led by `why` the query names it; null when the index holds no such term of it.
 */
async function indexedHit(
  store: Store,
  kind: SearchTermDoc['kind'],
  term: string,
  id: string,
  why: string,
): Promise<SearchHit | null> {
  const t = normaliseTerm(term);
  const docs = await store.collection(SEARCH_TERMS).find('byKindTerm', { eq: [kind], gte: t, lte: t, limit: 10 });
  const d = docs.find((x) => x.id === id);
  return d ? { ...fromTerm(d), detail: d.detail ? `${why}; ${d.detail}` : why } : null;
}

/**
 * The DEX pool an LP token is a share of, by the LP token's unit (get_pool shows it as lpToken; get_address,
 * get_transaction and get_recent_trades list it as a plain asset). An LP token is no token of its own (get_token
 * answers it "no indexed DEX pool" and sends the caller here), so the pool is its one way in. A DEX mints one LP
 * token per pool: a unit names at most one pool (the pools' byLpToken index, a point read).
 */
async function lpTokenHit(store: Store, unit: string): Promise<SearchHit | null> {
  const p = (await poolsByLpToken(store, [unit])).get(unit);
  if (!p) return null;
  const detail = 'the pool this LP token is a share of (a holder of n withdraws n / lpIssuedRaw of each reserve)';
  // The pool's own term ("pool 13"), for the label every pool hit shows ("ADA/SNEK on minswap-v2").
  const indexed = await indexedHit(store, 'pool', `pool ${p.id}`, String(p.id), detail);
  if (indexed) return indexed;
  const [tool, args] = NEXT.pool(String(p.id));
  return { kind: 'pool', id: String(p.id), label: `pool ${p.id} on ${p.dex}`, detail, tool, arguments: args };
}

/**
 * A governance proposal by its id in any printed form (CIP-129 gov_action1…, txId#index, txId:index), among those
 * the governance run keeps; `list_governance_actions` filtered by its id answers for it.
 */
async function proposalHit(store: Store, q: string): Promise<SearchHit | null> {
  const ref = parseGovActionRef(q);
  if (!ref) return null;
  const p = await store.collection(GOVERNANCE_PROPOSALS).get(proposalKey(ref));
  if (!p) return null;
  return {
    kind: 'proposal',
    id: p.govActionId,
    label: `proposal ${p.govActionId.slice(0, 20)}…`,
    detail: `${p.type}, ${p.status}, epochs ${p.sinceEpoch}-${p.untilEpoch}: ${p.summary}`,
    tool: 'list_governance_actions',
    arguments: { query: p.govActionId },
  };
}

/**
 * A block as a hit. No tool answers for a block itself; the closest is `get_transaction` of its first transaction
 * (which names the block, its height and time), so a block with transactions points there and an empty block is no
 * hit (a hit must name a tool call that works).
 */
function blockHit(b: {
  _id: string;
  height: number;
  time: string;
  txCount: number;
  epoch: number;
  txIds?: string[];
}): SearchHit | null {
  const first = b.txIds?.[0];
  if (!first) return null;
  return {
    kind: 'block',
    id: b._id,
    label: `block ${b.height}`,
    detail: `epoch ${b.epoch}, ${b.time}, ${b.txCount} transactions (next: its first transaction)`,
    tool: 'get_transaction',
    arguments: { hash: first },
  };
}

async function blockByHeight(store: Store, height: number): Promise<SearchHit | null> {
  const [b] = await store.collection(BLOCKS).find('byHeight', { eq: [height], limit: 1 });
  return b ? blockHit(b) : null;
}

/**
 * An epoch as a hit. No tool answers for an epoch; `list_stake_pools` sorted by blocks shows the blocks each pool
 * made this epoch, so it covers the current epoch only. A past epoch (no tool shows anything of it) is no hit.
 */
async function epochHit(store: Store, n: number): Promise<SearchHit | null> {
  const cp = await store.collection(CHECKPOINTS).get('sync');
  const tip = cp ? await store.collection(BLOCKS).get(cp.id) : null;
  if (!tip || n !== tip.epoch) return null;
  return {
    kind: 'epoch',
    id: String(n),
    label: `epoch ${n}`,
    detail: `current epoch (indexed tip: block ${tip.height}, ${tip.time}); next: the blocks each stake pool made in it`,
    tool: 'list_stake_pools',
    arguments: { sort: 'blocks' },
  };
}

export async function search(deps: { store: Store }, input: { query: string; limit: number }): Promise<SearchResult> {
  const { store } = deps;
  const limit = Math.min(Math.max(1, input.limit), 50);
  const query = input.query.trim();
  const term = normaliseTerm(query.replace(/^\$/, ''));
  const exact = await identifierHits(store, query);
  const seen = new Set(exact.map((h) => `${h.kind}|${h.id}`));
  const hits = [...exact];
  const termsFrom = (kinds: readonly SearchTermDoc['kind'][], prefix: string) =>
    // Every term that starts with `prefix`, per kind (an entity kind's own budget of 500 terms: the handles sharing a
    // prefix cannot crowd out the tokens). Both stores order strings by code point (UTF-8 bytes), so the bound is the
    // highest code point, U+10FFFF; U+FFFF left out every term whose next character is outside the BMP ("hosky🐶").
    Promise.all(
      kinds.map((kind) =>
        store
          .collection(SEARCH_TERMS)
          .find('byKindTerm', { eq: [kind], gte: prefix, lt: `${prefix}\u{10ffff}`, limit: 500 }),
      ),
    );
  if (term) {
    const perKind = await termsFrom(TERM_KINDS, term);
    // "$name" says the caller means a handle: handles first, then the other kinds as usual.
    const handleFirst = query.startsWith('$');
    const docs = perKind.flat();
    docs.sort(
      (a, b) =>
        (handleFirst ? Number(b.kind === 'handle') - Number(a.kind === 'handle') : 0) ||
        Number(b.term === term) - Number(a.term === term) ||
        b.weight - a.weight ||
        a.label.localeCompare(b.label),
    );
    for (const d of docs) {
      const key = `${d.kind}|${d.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      hits.push(fromTerm(d));
    }
  }
  // An NFT by its own name ("Lunar Foxes #59"): NFT names are not indexed, its collection's is.
  const collection = hits.length === 0 ? normaliseTerm(query.replace(NFT_NUMBER, '')) : '';
  if (collection && collection !== term) {
    const [docs = []] = await termsFrom(['nft_collection'], collection);
    docs.sort((a, b) => Number(b.term === collection) - Number(a.term === collection) || b.weight - a.weight);
    for (const d of new Map(docs.map((x) => [x.id, x])).values())
      hits.push({
        ...fromTerm(d),
        detail: `the collection of ${query}; ${d.detail ?? 'get_nft_listings lists its NFTs'}`,
      });
  }
  // A name followed by what kind of thing it is ("Snek token", "SNEK price", "Crane stake pool", "Dev Punks NFT"), as
  // people and agents type it: nothing starts with the whole text, so the name alone is looked up, and the hits say
  // which words were left out.
  /**
   * Hits on every name starting with `prefix`, heaviest first, once per entity, each detail led by `why` (how a query
   * that matched nothing whole found it); false when there is none.
   */
  const fallbackHits = async (prefix: string, why: string): Promise<boolean> => {
    const docs = (await termsFrom(TERM_KINDS, prefix)).flat();
    docs.sort((a, b) => b.weight - a.weight || a.label.localeCompare(b.label));
    for (const d of new Map(docs.map((x) => [`${x.kind}|${x.id}`, x])).values())
      hits.push({ ...fromTerm(d), detail: d.detail ? `${why}: ${d.detail}` : why });
    return docs.length > 0;
  };
  const named = hits.length === 0 ? KIND_WORDS.exec(query) : null;
  if (named?.[1])
    await fallbackHits(
      normaliseTerm(named[1].replace(/^\$/, '')),
      `no name starts with "${query}"; found by "${named[1]}"`,
    );
  // A name with a slip at its end ("snekk", "minswapp", "iagonn"): nothing starts with it, so its start without the
  // last one or two letters is looked up, and the hits say they are the nearest names, not matches. Words only (a hex
  // text is an identifier, exact or nothing), and at least 3 letters kept.
  if (hits.length === 0 && term.length >= 4 && /\p{L}/u.test(term) && !/^[0-9a-f]+$/.test(term))
    for (const cut of [1, 2]) {
      const prefix = term.slice(0, -cut);
      if (prefix.length < 3) break;
      if (await fallbackHits(prefix, `no name starts with "${query}"; nearest by its first ${prefix.length} letters`))
        break;
    }
  if (hits.length > 0) return { query, hits: hits.slice(0, limit) };
  return { query, hits, note: (await indexTrailNote(store)) ?? nothingMatches(query) };
}

/**
 * The note of an answer without hits from a names index that is up to date: what search finds and how, so an agent
 * rewrites its query (a ticker, an id) or browses with a list tool instead of concluding the thing does not exist.
 */
const nothingMatches = (query: string): string =>
  `Nothing matches "${query}". search finds tokens (ticker, name, unit, policy id or asset1… fingerprint), DEX pools ` +
  '(pair such as ADA/SNEK, id), NFT collections (name, policy id), stake pools (ticker, name, pool1… id), handles ($name), addresses and ' +
  'stake keys, transactions and blocks (hash; a block also by height), epochs and governance proposals ' +
  '(gov_action1… or txId#index); a name or ticker matches from the start of one of its words. To browse instead: ' +
  'list_tokens, list_stake_pools, list_nft_collections, list_governance_actions.';

/**
 * A name and the words that only say what kind of thing it is, after it ("token", "price", "stake pool", "NFT
 * collection"): group 1 is the name. Names that contain such a word themselves ("HOSKY Token") are found whole first.
 */
const KIND_WORDS =
  /^(.*?\S)(?:\s+(?:token|tokens|coin|coins|price|prices|chart|pool|pools|stake\s+pool|stake\s+pools|staking\s+pool|nft|nfts|collection|nft\s+collection|handle))+\s*$/i;

/** The number an NFT's name ends with (`#59`, ` 0042`), after its collection's name. */
const NFT_NUMBER = /\s*#\s*\d+$|\s+\d+$/;

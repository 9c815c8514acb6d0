/**
 * Chain-derived documents written by the sync (activities/sync/) and read by the explorer API.
 * Amounts are strings of integers in the chain's base unit (lovelace, raw token quantity): they exceed 2^53 on
 * mainnet. Every document carries the slot it reflects; rollbacks restore documents from the undo journal.
 */
import { defineCollection, type RangeQuery, type Store } from '../store.js';

/** `{ lovelace, assets: { "<policyId><assetNameHex>": quantity } }`, all integer strings. */
export interface ValueDoc {
  lovelace: string;
  assets: Record<string, string>;
}

export interface BlockDoc {
  /** Block header hash (hex). */
  _id: string;
  height: number;
  slot: number;
  /** ISO time of the slot. */
  time: string;
  epoch: number;
  era: string;
  /** Previous block hash, or "genesis". */
  prevHash: string;
  size: number;
  txCount: number;
  /** Sum of the fees of the block's transactions, lovelace. */
  fees: string;
  /** Sum of all outputs, lovelace. */
  totalOutput: string;
  /** Issuer's cold verification key (hex) and its pool id (bech32 pool1…), null for Byron blocks. */
  issuerVkey: string | null;
  poolId: string | null;
  protocolVersion: string | null;
  txIds: string[];
}
export const BLOCKS = defineCollection<BlockDoc>({
  name: 'blocks',
  indexes: [{ name: 'byHeight', fields: ['height'] }],
});

/** The block at a height of the indexed chain (null above the tip or below the first indexed block). */
export async function blockAtHeight(store: Store, height: number): Promise<BlockDoc | null> {
  const [block] = await store.collection(BLOCKS).find('byHeight', { eq: [height], limit: 1 });
  return block ?? null;
}

/** The hash of the block at `height`, from the byHeight index entry alone (no block document is read). */
export async function blockHashAtHeight(store: Store, height: number): Promise<string | null> {
  const [entry] = await store.collection(BLOCKS).findKeys('byHeight', { eq: [height], limit: 1 });
  return entry?._id ?? null;
}

/**
 * The first indexed block: the start of the indexed history. Answers whose range reaches before its time say so
 * (`coverageFrom`): the service knows nothing of the chain before it (a deployment may start from a recent slot).
 */
export async function firstIndexedBlock(store: Store): Promise<BlockDoc | null> {
  const [block] = await store.collection(BLOCKS).find('byHeight', { limit: 1 });
  return block ?? null;
}

export interface TxInputDoc {
  txId: string;
  index: number;
  /** Resolved from the maintained UTxO set; null when the output predates the indexed range (never guessed). */
  address: string | null;
  value: ValueDoc | null;
}

export interface TxOutputDoc {
  index: number;
  address: string;
  stakeAddress: string | null;
  value: ValueDoc;
  datumHash: string | null;
  /** Inline datum, CBOR hex. */
  datum: string | null;
  scriptRef: { language: string } | null;
}

export interface TxMetadataDoc {
  /** The metadata label (an unsigned integer, as decimal text). */
  label: string;
  /** The label's metadatum as JSON text. */
  json: string;
}

/** `{ label: json }` of a stored transaction's metadata, as the API shows it. */
export function metadataObject(m: readonly TxMetadataDoc[] | null): Record<string, unknown> | null {
  if (m === null) return null;
  return Object.fromEntries(m.map((e) => [e.label, JSON.parse(e.json) as unknown]));
}

export interface TxRedeemerDoc {
  purpose: string;
  index: number;
  /** The redeemer data, CBOR hex. */
  cbor: string;
  memory: number;
  cpu: number;
}

export interface TxDoc {
  /** Transaction id (hex). */
  _id: string;
  blockHash: string;
  blockHeight: number;
  /** Position within the block. */
  blockIndex: number;
  slot: number;
  time: string;
  /** false when phase-2 validation failed: collaterals were spent instead of inputs. */
  valid: boolean;
  fee: string;
  size: number | null;
  inputs: TxInputDoc[];
  referenceInputs: { txId: string; index: number }[];
  collaterals: TxInputDoc[];
  collateralReturn: TxOutputDoc | null;
  outputs: TxOutputDoc[];
  totalOutput: string;
  /** `{ unit: signed quantity }` */
  mint: Record<string, string>;
  /** Ogmios certificate objects as they arrived (bigints as strings). */
  certificates: Record<string, unknown>[];
  /** `{ stake1…: lovelace }` */
  withdrawals: Record<string, string>;
  /**
   * Lovelace the transaction gave to the treasury (Conway, body key 22). Absent when it gave none (a transaction
   * that failed validation gives none: only its collateral is taken), and in stores synced before donations were
   * kept.
   */
  treasuryDonation?: string;
  /**
   * Metadata by label, each label's metadatum as JSON text (bigints as strings; `{ "cbor": hex }` when Ogmios gave
   * no JSON form). Text, not a nested document: metadata keys are chain data (CIP-25 asset names such as
   * `nova.eth`), which must never become field names. `metadataObject` turns it back into `{ label: json }`.
   */
  metadata: TxMetadataDoc[] | null;
  /**
   * The datums of the transaction's witness set (the full datums of outputs that carry only a datum hash, its own or
   * those it spends), as `{ hash, cbor }` values in hash order: hashes are chain data, never field names. Absent in
   * stores synced before they were kept.
   */
  datums?: { hash: string; cbor: string }[];
  /**
   * The redeemers of the transaction's witness set, in the order Ogmios gives them: what each Plutus script run was
   * handed (`purpose` spend, mint, publish, withdraw, vote or propose, and `index`, the position of the input, policy,
   * certificate, withdrawal, voter or proposal it unlocks in the body's own order), the redeemer data as CBOR hex,
   * and the execution units it was allowed (memory, CPU steps). Absent in stores synced before they were kept.
   */
  redeemers?: TxRedeemerDoc[];
  validityInterval: { invalidBefore: number | null; invalidAfter: number | null };
  proposals: number;
  votes: number;
  /** Addresses whose balance this transaction changed (inputs and outputs that took effect). */
  addresses: string[];
}
/** Read by id only (a block lists its txIds): no secondary index, which keeps sync writes cheap. */
export const TRANSACTIONS = defineCollection<TxDoc>({ name: 'transactions' });

/** One unspent output of the maintained UTxO set; `_id` = `txId#index`. Deleted when spent. */
export interface UtxoDoc {
  _id: string;
  txId: string;
  index: number;
  address: string;
  /** Payment credential hash (hex), null for Byron addresses. */
  paymentCred: string | null;
  stakeAddress: string | null;
  value: ValueDoc;
  datumHash: string | null;
  datum: string | null;
  slot: number;
}
export const UTXOS = defineCollection<UtxoDoc>({
  name: 'utxos',
  // Balances per address live in ADDRESSES (combined per stake key through its byStake index); outputs are
  // listed per address for UTxO queries. Every extra index here costs a random B-tree write per created and
  // spent output during sync, the hottest write path.
  indexes: [{ name: 'byAddress', fields: ['address'] }],
});

/** Summary of one address (bech32 or base58), maintained from the UTxO set. */
export interface AddressDoc {
  _id: string;
  stakeAddress: string | null;
  paymentCred: string | null;
  /** true when the payment part is a script. */
  script: boolean;
  /** Sum of unspent outputs. */
  balance: ValueDoc;
  utxoCount: number;
  txCount: number;
  firstSlot: number;
  lastSlot: number;
  slot: number;
}
export const ADDRESSES = defineCollection<AddressDoc>({
  name: 'addresses',
  indexes: [{ name: 'byStake', fields: ['stakeAddress'] }],
});

/**
 * One transaction touching one address, for address histories; `_id` = `address|slot(12)|blockIndex(5)|txId`, so
 * one address's history is an `_id` range in time order (no byAddress index needed).
 */
export interface AddressTxDoc {
  _id: string;
  address: string;
  stakeAddress: string | null;
  txId: string;
  slot: number;
  /** Position of the transaction in its block: orders one block's transactions of an address in chain order. */
  blockIndex: number;
}
/**
 * An ADDRESS_TXS document as the sync stores it: the fields its index needs. The address and the transaction id
 * are read back from `_id` (`addressTxOf`) instead of being stored a second time (they were two thirds of the
 * bytes of the collection with the most documents); documents written before carry them as well and read alike.
 */
export type AddressTxEntry = Pick<AddressTxDoc, '_id' | 'stakeAddress' | 'slot' | 'blockIndex'>;

/** The full history entry of a stored one (addresses and transaction ids never contain `|`). */
export function addressTxOf(e: AddressTxEntry): AddressTxDoc {
  const id = e._id;
  const cut = id.indexOf('|');
  return {
    _id: id,
    address: id.slice(0, cut),
    stakeAddress: e.stakeAddress,
    txId: id.slice(id.lastIndexOf('|') + 1),
    slot: e.slot,
    blockIndex: e.blockIndex,
  };
}

export const ADDRESS_TXS = defineCollection<AddressTxEntry>({
  name: 'address_txs',
  indexes: [{ name: 'byStake', fields: ['stakeAddress', 'slot', 'blockIndex'] }],
});

/** Registration and delegation state of a stake credential; `_id` = stake1… address. */
export interface StakeAccountDoc {
  _id: string;
  credential: string;
  script: boolean;
  registered: boolean;
  /** Deposit paid at registration, lovelace. */
  deposit: string | null;
  poolId: string | null;
  drep: string | null;
  /** Sum of reward withdrawals seen, lovelace. */
  withdrawn: string;
  slot: number;
}
export const STAKE_ACCOUNTS = defineCollection<StakeAccountDoc>({
  name: 'stake_accounts',
  indexes: [{ name: 'byPool', fields: ['poolId'] }],
});

/** Stake pool registrations and retirements as certified on chain; `_id` = pool1… id. */
export interface StakePoolRegDoc {
  _id: string;
  /** Ogmios StakePool object of the latest registration (bigints as strings). */
  params: Record<string, unknown>;
  /** null when the pool was seen issuing blocks but its registration predates the indexed range. */
  registeredSlot: number | null;
  retiringEpoch: number | null;
  blocksMinted: number;
  slot: number;
}
export const STAKE_POOL_REGS = defineCollection<StakePoolRegDoc>({ name: 'stake_pool_regs' });

/** A point of a stake key's history: the transaction, its slot and its block's time (ISO). */
export interface StakeActivityDoc {
  slot: number;
  txId: string;
  time: string;
}

/**
 * What every payment address carrying one stake key adds up to, kept by the sync block by block
 * (activities/sync/stake-summaries.ts) in the same write batch and undo records as the addresses, so the explorer's
 * stake answer reads one document instead of summing the key's addresses and histories per request. `_id` = stake1…
 */
export interface StakeSummaryDoc {
  _id: string;
  /** Sum of the unspent outputs of all the key's addresses. */
  balance: ValueDoc;
  utxoCount: number;
  /** Payment addresses seen with the key (the ADDRESSES documents carrying it). */
  addressCount: number;
  /**
   * Distinct transactions that changed any of its addresses, withdrew its rewards or certified it (one doing several
   * of these counts once). Stores synced before withdrawals and certificates counted hold address transactions only.
   */
  txCount: number;
  /** First and last of those transactions in chain order (slot, then position in the block). */
  first: StakeActivityDoc;
  last: StakeActivityDoc;
  slot: number;
}
export const STAKE_SUMMARIES = defineCollection<StakeSummaryDoc>({ name: 'stake_summaries' });

export const CHAIN_COLLECTIONS = [
  BLOCKS,
  TRANSACTIONS,
  UTXOS,
  ADDRESSES,
  ADDRESS_TXS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  STAKE_SUMMARIES,
];

// ---- named reads ----------------------------------------------------------------------------------------------

/** The address documents carrying a stake key (at most `limit`), and how many there are. */
export async function addressesOfStake(store: Store, stakeAddress: string, limit: number): Promise<AddressDoc[]> {
  return store.collection(ADDRESSES).find('byStake', { eq: [stakeAddress], limit });
}
export const countAddressesOfStake = (store: Store, stakeAddress: string): Promise<number> =>
  store.collection(ADDRESSES).count('byStake', { eq: [stakeAddress] });

/**
 * First and last entry of an address's (or a stake key's) transaction history. ADDRESS_TXS ids are
 * `address|slot|blockIndex|txId`, so one address's history is an `_id` range ('}' is the character after '|'); a stake key's
 * goes through the byStake index (stake address, slot, position in the block).
 */
export async function historyEnds(
  store: Store,
  by: 'address' | 'stake',
  key: string,
): Promise<{ first: AddressTxDoc | null; last: AddressTxDoc | null }> {
  const history = store.collection(ADDRESS_TXS);
  const q: RangeQuery = by === 'address' ? { gt: `${key}|`, lt: `${key}}`, limit: 1 } : { eq: [key], limit: 1 };
  const index = by === 'address' ? '_id' : 'byStake';
  const [[first], [last]] = await Promise.all([history.find(index, q), history.find(index, { ...q, reverse: true })]);
  return { first: first ? addressTxOf(first) : null, last: last ? addressTxOf(last) : null };
}

/** A stake key's address-transaction entries, oldest first (at most `limit`), and their count. */
export const stakeHistory = async (store: Store, stakeAddress: string, limit: number): Promise<AddressTxDoc[]> =>
  (await store.collection(ADDRESS_TXS).find('byStake', { eq: [stakeAddress], limit })).map(addressTxOf);
export const countStakeHistory = (store: Store, stakeAddress: string): Promise<number> =>
  store.collection(ADDRESS_TXS).count('byStake', { eq: [stakeAddress] });

import { lovelaceOf } from '../../activities/sync/values.js';
/**
 * Explorer fixtures: chain documents built from two real mainnet blocks (11322286 and 11322313, Conway era), the
 * way the sync would store them after indexing exactly those two blocks: the UTxO set is their outputs minus
 * what block 11322313 spends, inputs resolve only when the spent output is in block 11322286, address summaries
 * and histories cover both blocks. Written through the Store port.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { safeJSON } from '@cardano-ogmios/client';
import { pino } from 'pino';
import type { Block, OutputReference, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';
import { createApp } from '../../api/app.js';
import type { ApiDeps } from '../../api/deps.js';
import { parseAddress, poolIdFromVkey, stakeAddressOf } from '../../cardano/address.js';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import {
  ADDRESSES,
  ADDRESS_TXS,
  ALL_COLLECTIONS,
  BLOCKS,
  CHECKPOINTS,
  STAKE_ACCOUNTS,
  STAKE_SUMMARIES,
  TRANSACTIONS,
  UTXOS,
  type AddressDoc,
  type StakeSummaryDoc,
  type AddressTxDoc,
  type BlockDoc,
  type TxDoc,
  type TxInputDoc,
  type TxOutputDoc,
  type UtxoDoc,
  type ValueDoc,
} from '../../mongo/collections/index.js';
import { SYNC_HEALTH, SYNC_HEALTH_ID } from '../../mongo/collections/sync-state.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';

const REAL = path.resolve(process.cwd(), '../shared/fixtures/chain/ogmios/real');
const readBlock = (file: string) => safeJSON.parse(readFileSync(path.join(REAL, file), 'utf8')) as Block;

export const EARLIER = readBlock('block.mainnet-conway-11322286-slot144718140.koralabs.json');
export const TIP = readBlock('block.mainnet-conway-11322313-slot144718597.koralabs.json');

/** Mainnet Shelley slots: slot 4492800 began at 2020-07-29T21:44:51Z, one slot per second, 432000 per epoch. */
const slotTime = (slot: number) => new Date((1596059091 + (slot - 4492800)) * 1000).toISOString();
const epochOf = (slot: number) => 208 + Math.floor((slot - 4492800) / 432000);

function valueDoc(v: Value): ValueDoc {
  const assets: Record<string, string> = {};
  for (const [policy, names] of Object.entries(v)) {
    if (policy === 'ada') continue;
    for (const [name, q] of Object.entries(names)) assets[policy + name] = String(q);
  }
  return { lovelace: String(v.ada.lovelace), assets };
}

const refId = (r: OutputReference) => `${r.transaction.id}#${r.index}`;

function outputDoc(o: TxOutput, index: number): TxOutputDoc {
  return {
    index,
    address: o.address,
    stakeAddress: stakeAddressOf(o.address),
    value: valueDoc(o.value),
    datumHash: o.datumHash ?? null,
    datum: o.datum ?? null,
    scriptRef: o.script ? { language: o.script.language } : null,
  };
}

function paymentFacts(address: string): { paymentCred: string | null; script: boolean } {
  try {
    const p = parseAddress(address);
    return { paymentCred: p.paymentCred, script: p.paymentScript };
  } catch {
    return { paymentCred: null, script: false };
  }
}

const plain = (x: unknown): unknown => JSON.parse(safeJSON.stringify(x)) as unknown;

/** Every document of the two blocks, plus the checkpoint at block 11322313. */
export function buildChainDocs(): WriteOp[] {
  const ops: WriteOp[] = [];
  const outputs = new Map<string, TxOutputDoc & { txId: string; slot: number }>();
  const spent = new Set<string>();
  const history = new Map<string, AddressTxDoc>();
  const touched = new Map<string, { first: number; last: number; txs: Set<string> }>();
  const touch = (address: string, txId: string, slot: number, blockIndex: number) => {
    const id = `${address}|${String(slot).padStart(12, '0')}|${String(blockIndex).padStart(5, '0')}|${txId}`;
    history.set(id, { _id: id, address, stakeAddress: stakeAddressOf(address), txId, slot, blockIndex });
    const t = touched.get(address) ?? { first: slot, last: slot, txs: new Set<string>() };
    t.first = Math.min(t.first, slot);
    t.last = Math.max(t.last, slot);
    t.txs.add(txId);
    touched.set(address, t);
  };

  for (const block of [EARLIER, TIP]) {
    const slot = block.slot as number;
    const txs = block.transactions ?? [];
    let fees = 0n;
    let totalOutput = 0n;
    txs.forEach((tx: Transaction, blockIndex) => {
      const resolve = (r: OutputReference): TxInputDoc => {
        const o = outputs.get(refId(r));
        return { txId: r.transaction.id, index: r.index, address: o?.address ?? null, value: o?.value ?? null };
      };
      const valid = tx.spends === 'inputs';
      const inputs = tx.inputs.map(resolve);
      const collaterals = (tx.collaterals ?? []).map(resolve);
      const outs = tx.outputs.map(outputDoc);
      const collateralReturn = tx.collateralReturn ? outputDoc(tx.collateralReturn, tx.outputs.length) : null;
      const created = valid ? outs : collateralReturn ? [collateralReturn] : [];
      const consumed = valid ? inputs : collaterals;
      const txOutput = outs.reduce((s, o) => s + BigInt(o.value.lovelace), 0n);
      const fee = BigInt(lovelaceOf(tx.fee) ?? 0);
      fees += fee;
      totalOutput += txOutput;
      for (const i of consumed) {
        spent.add(`${i.txId}#${i.index}`);
        if (i.address) touch(i.address, tx.id, slot, blockIndex);
      }
      for (const o of created) {
        outputs.set(`${tx.id}#${o.index}`, { ...o, txId: tx.id, slot });
        touch(o.address, tx.id, slot, blockIndex);
      }
      const mint: Record<string, string> = {};
      for (const [policy, names] of Object.entries(tx.mint ?? {}))
        for (const [name, q] of Object.entries(names)) mint[policy + name] = String(q);
      const withdrawals: Record<string, string> = {};
      for (const [stake, v] of Object.entries(tx.withdrawals ?? {})) withdrawals[stake] = lovelaceOf(v) ?? '0';
      const labels = tx.metadata?.labels;
      const doc: TxDoc = {
        _id: tx.id,
        blockHash: block.id,
        blockHeight: block.height,
        blockIndex,
        slot,
        time: slotTime(slot),
        valid,
        fee: String(fee),
        size: tx.cbor ? tx.cbor.length / 2 : null,
        inputs,
        referenceInputs: (tx.references ?? []).map((r) => ({ txId: r.transaction.id, index: r.index })),
        collaterals,
        collateralReturn,
        outputs: outs,
        totalOutput: String(txOutput),
        mint,
        certificates: (tx.certificates ?? []).map((c) => plain(c) as Record<string, unknown>),
        withdrawals,
        metadata: labels
          ? Object.entries(labels).map(([label, m]) => ({ label, json: JSON.stringify(plain(m.json ?? m.cbor)) }))
          : null,
        validityInterval: {
          invalidBefore: tx.validityInterval?.invalidBefore ?? null,
          invalidAfter: tx.validityInterval?.invalidAfter ?? null,
        },
        proposals: tx.proposals?.length ?? 0,
        votes: tx.votes?.length ?? 0,
        addresses: [
          ...new Set([...consumed.flatMap((i) => (i.address ? [i.address] : [])), ...created.map((o) => o.address)]),
        ],
      };
      ops.push(put(TRANSACTIONS, doc));
    });
    const version = block.protocol?.version;
    const blockDoc: BlockDoc = {
      _id: block.id,
      height: block.height,
      slot,
      time: slotTime(slot),
      epoch: epochOf(slot),
      era: block.era,
      prevHash: block.ancestor,
      size: block.size?.bytes ?? 0,
      txCount: txs.length,
      fees: String(fees),
      totalOutput: String(totalOutput),
      issuerVkey: block.issuer?.verificationKey ?? null,
      poolId: block.issuer ? poolIdFromVkey(block.issuer.verificationKey) : null,
      protocolVersion: version ? `${version.major}.${version.minor}` : null,
      txIds: txs.map((t) => t.id),
    };
    ops.push(put(BLOCKS, blockDoc));
  }

  const balances = new Map<string, { value: { lovelace: bigint; assets: Map<string, bigint> }; utxos: number }>();
  for (const [id, o] of outputs) {
    if (spent.has(id)) continue;
    const { paymentCred } = paymentFacts(o.address);
    const utxo: UtxoDoc = {
      _id: id,
      txId: o.txId,
      index: o.index,
      address: o.address,
      paymentCred,
      stakeAddress: o.stakeAddress,
      value: o.value,
      datumHash: o.datumHash,
      datum: o.datum,
      slot: o.slot,
    };
    ops.push(put(UTXOS, utxo));
    const b = balances.get(o.address) ?? { value: { lovelace: 0n, assets: new Map<string, bigint>() }, utxos: 0 };
    b.value.lovelace += BigInt(o.value.lovelace);
    for (const [u, q] of Object.entries(o.value.assets))
      b.value.assets.set(u, (b.value.assets.get(u) ?? 0n) + BigInt(q));
    b.utxos++;
    balances.set(o.address, b);
  }
  for (const [address, t] of touched) {
    const b = balances.get(address);
    const { paymentCred, script } = paymentFacts(address);
    const doc: AddressDoc = {
      _id: address,
      stakeAddress: stakeAddressOf(address),
      paymentCred,
      script,
      balance: {
        lovelace: String(b?.value.lovelace ?? 0n),
        assets: Object.fromEntries([...(b?.value.assets ?? new Map<string, bigint>())].map(([u, q]) => [u, String(q)])),
      },
      utxoCount: b?.utxos ?? 0,
      txCount: t.txs.size,
      firstSlot: t.first,
      lastSlot: t.last,
      slot: t.last,
    };
    ops.push(put(ADDRESSES, doc));
  }
  for (const doc of history.values()) ops.push(put(ADDRESS_TXS, doc));
  // Each stake key's aggregate, summed here from the address summaries and histories the way a reader would.
  const keys = new Map<string, StakeSummaryDoc>();
  const sortedHistory = [...history.values()].sort((a, b) => a.slot - b.slot || a.blockIndex - b.blockIndex);
  const txsOfKey = new Map<string, Set<string>>();
  for (const e of sortedHistory) {
    if (!e.stakeAddress) continue;
    const at = { slot: e.slot, txId: e.txId, time: slotTime(e.slot) };
    const k = keys.get(e.stakeAddress) ?? {
      _id: e.stakeAddress,
      balance: { lovelace: '0', assets: {} },
      utxoCount: 0,
      addressCount: 0,
      txCount: 0,
      first: at,
      last: at,
      slot: e.slot,
    };
    keys.set(e.stakeAddress, { ...k, last: at, slot: e.slot });
    const txs = txsOfKey.get(e.stakeAddress) ?? new Set<string>();
    txs.add(e.txId);
    txsOfKey.set(e.stakeAddress, txs);
  }
  for (const [address] of touched) {
    const stake = stakeAddressOf(address);
    const k = stake ? keys.get(stake) : undefined;
    if (!k) continue;
    const b = balances.get(address);
    const assets = { ...k.balance.assets };
    for (const [u, q] of b?.value.assets ?? []) {
      const sum = BigInt(assets[u] ?? '0') + q;
      if (sum === 0n) delete assets[u];
      else assets[u] = String(sum);
    }
    k.balance = { lovelace: String(BigInt(k.balance.lovelace) + (b?.value.lovelace ?? 0n)), assets };
    k.utxoCount += b?.utxos ?? 0;
    k.addressCount += 1;
    k.txCount = txsOfKey.get(k._id)?.size ?? 0;
  }
  for (const doc of keys.values()) ops.push(put(STAKE_SUMMARIES, doc));

  const tip = { slot: TIP.slot as number, id: TIP.id, height: TIP.height };
  ops.push(put(CHECKPOINTS, { _id: 'sync', ...tip, points: [tip], tip, updatedAt: slotTime(tip.slot) }));
  return ops;
}

/** The Dexhunter trade of block 11322313 pays two addresses of this stake key (an order and the change). */
export const STAKE = 'stake1uxt4uu2d5l4f7amgv75rauk3stxmx69pwfwmum9vtyjww2g7uhk22';
export const STAKE_ORDER_ADDRESS =
  'addr1z8p79rpkcdz8x9d6tft0x0dx5mwuzac2sa4gm8cvkw5hcnyhtec5mfl2namkseag8medrqkdkd52zujahek2ckfyuu5seumg0d';
export const STAKE_CHANGE_ADDRESS =
  'addr1q8j09rn7jh0guqh73lxsvza8v86dgnq4skwr05kvqka6lr5htec5mfl2namkseag8medrqkdkd52zujahek2ckfyuu5suqvm94';
export const DEXHUNTER_TX = 'c39745f37536a20a824738e16ba2b9ff55fbaee9ebe35f488bcf7e453dcf4d09';
/**
 * The key's registration predates these blocks, so its stake account is seeded as the sync keeps it; the pool is
 * this block's issuer.
 */
export const STAKE_ACCOUNT_POOL = poolIdFromVkey((TIP.issuer as { verificationKey: string }).verificationKey);

/** The header of block 11322312 (the real ancestor hash of 11322313), so a next-block link exists to follow. */
export function ancestorBlock(): BlockDoc {
  return {
    _id: TIP.ancestor,
    height: TIP.height - 1,
    slot: (TIP.slot as number) - 20,
    time: slotTime((TIP.slot as number) - 20),
    epoch: epochOf((TIP.slot as number) - 20),
    era: 'conway',
    prevHash: '0000000000000000000000000000000000000000000000000000000000000000',
    size: 4,
    txCount: 0,
    fees: '0',
    totalOutput: '0',
    issuerVkey: null,
    poolId: null,
    protocolVersion: '9.1',
    txIds: [],
  };
}

export interface TestApi {
  url: string;
  store: Store;
  get(p: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: unknown }>;
  close(): Promise<void>;
}

/** An embedded store in a temp dir, seeded by `seed`, and the app listening on an ephemeral port. */
export async function startTestApi(
  seed: (store: Store) => Promise<void>,
  overrides: Partial<ApiDeps> & { wrapStore?: (s: Store) => Store } = {},
): Promise<TestApi> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cds-api-'));
  const store = await openEmbeddedStore({ path: dir });
  await store.ensureIndexes(ALL_COLLECTIONS);
  await seed(store);
  const { wrapStore, ...deps } = overrides;
  const api = await serveTestApp(wrapStore ? wrapStore(store) : store, deps);
  return {
    ...api,
    store,
    async close() {
      await api.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The app over a store the test owns (a synced devnet store, say), listening on an ephemeral port; `close` stops
 * the server only.
 */
export async function serveTestApp(store: Store, deps: Partial<ApiDeps> = {}): Promise<TestApi> {
  const app = createApp({
    store,
    config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
    log: pino({ level: 'silent' }),
    ...deps,
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    store,
    async get(p, headers = {}) {
      const res = await fetch(url + p, { headers });
      const text = await res.text();
      // JSON answers are parsed; Markdown views (/api/md) and pages come back as text.
      const json = /json/.test(res.headers.get('content-type') ?? '');
      return {
        status: res.status,
        headers: res.headers,
        body: text ? (json ? (JSON.parse(text) as unknown) : text) : null,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function seedChain(store: Store): Promise<void> {
  await store.write([
    ...buildChainDocs(),
    put(BLOCKS, ancestorBlock()),
    put(STAKE_ACCOUNTS, {
      _id: STAKE,
      credential: parseAddress(STAKE).stakeCred as string,
      script: false,
      registered: true,
      deposit: '2000000',
      poolId: STAKE_ACCOUNT_POOL,
      drep: null,
      withdrawn: '0',
      slot: 140000000,
    }),
  ]);
}

/**
 * The seeded chain while the index is behind it (a first sync or a resync catching up): the source last reported its
 * tip at height `chainTip`, above the seeded indexed tip, so blocks up to it are on the chain whatever the index holds.
 */
export async function seedChainBehind(store: Store, chainTip: number): Promise<void> {
  await seedChain(store);
  const at = new Date().toISOString();
  await store.write([
    put(SYNC_HEALTH, {
      _id: SYNC_HEALTH_ID,
      contactAt: at,
      tip: { slot: (TIP.slot ?? 0) + 2000, id: 'ab'.repeat(32), height: chainTip },
      failing: null,
      stall: null,
      generation: 0,
      lastDeepRollback: null,
      updatedAt: at,
    }),
  ]);
}

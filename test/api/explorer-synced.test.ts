/**
 * The explorer routes over documents the sync wrote, checked against the chain data itself:
 * - real recorded mainnet blocks (Ogmios v6 JSON, ../shared/fixtures/chain/ogmios/real) replayed by a stand-in
 *   Ogmios to the production client and sync; the oracle is the recorded JSON (heights, ids, fees, outputs, metadata)
 *   and balances the test computes from the recorded outputs itself;
 * - a devnet chain with forks, synced by the sync activities through the production Ogmios client; the oracle is
 *   the devnet's own block list and its ledger (`queryLedgerState/utxo`).
 * Each recorded block is synced on its own: the recordings are not consecutive blocks and the sync refuses a block
 * that does not follow the previous one, so inputs resolve only within a block and older ones stay unresolved.
 */
import assert from 'node:assert/strict';
import { STAKE_POOL_DEPOSIT } from '../../devnet/params.js';
import { readFileSync } from 'node:fs';
import { blake2b } from '@noble/hashes/blake2.js';
import { base58, bech32, hex } from '@scure/base';
import { safeJSON } from '@cardano-ogmios/client';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import type { Block, OutputReference, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';
import { syncAll } from '../sync/helpers.js';
import { startTestApi, type TestApi } from './seed.js';
import { apiOverSyncedFrames, mainnetEpoch, mainnetTime, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);
const REGISTRY = new URL('dex/token-registry/mappings/', FIXTURES);

/** Mainnet's stake key deposit (protocol parameter keyDeposit), taken by a registration certificate without one. */
const KEY_DEPOSIT = 2_000_000n;

// ---------------------------------------------------------------------------------------------------------------
// Oracle helpers: computed from the recorded JSON and the address bytes, not from the service's code.

const lovelace = (x: unknown): bigint => {
  if (x === undefined || x === null) return 0n;
  if (typeof x === 'bigint' || typeof x === 'number') return BigInt(x);
  const o = x as { ada?: { lovelace: unknown }; lovelace?: unknown };
  return lovelace(o.ada ? o.ada.lovelace : o.lovelace);
};
/** Whole ADA as the spec presents it: lovelace / 10^6 (every amount here is below 2^53 lovelace). */
const ada = (l: bigint) => Number(l) / 1e6;

/** `policyId + assetNameHex` → quantity, as exact integers; zero quantities dropped. */
type Assets = Map<string, bigint>;
function assetsOf(v: Value | Record<string, Record<string, unknown>>): Assets {
  const out: Assets = new Map();
  for (const [policy, names] of Object.entries(v)) {
    if (policy === 'ada') continue;
    for (const [name, q] of Object.entries(names as Record<string, unknown>))
      out.set(policy + name, (out.get(policy + name) ?? 0n) + BigInt(q as bigint));
  }
  return out;
}
const addAssets = (a: Assets, b: Assets, sign = 1n) => {
  for (const [u, q] of b) {
    const n = (a.get(u) ?? 0n) + sign * q;
    if (n === 0n) a.delete(u);
    else a.set(u, n);
  }
};
/** The answer's asset list reduced to [unit, exact quantity] in unit order. */
const rawAssets = (list: Json[]) => list.map((a) => [a.unit as string, a.quantityRaw as string]);
const expectedAssets = (a: Assets) =>
  [...a.keys()]
    .filter((u) => a.get(u) !== 0n)
    .sort()
    .map((u) => [u, String(a.get(u))]);

interface AddressFacts {
  kind: 'base' | 'pointer' | 'enterprise' | 'byron';
  script: boolean;
  paymentCred: string | null;
  /** stake1… of a base address (CIP-19 header types 0–3), else null. */
  stakeAddress: string | null;
}
/** CIP-19: header type in the high nibble; odd types have a script payment part; base addresses carry the stake part. */
function addressFacts(address: string): AddressFacts {
  if (!address.startsWith('addr')) {
    base58.decode(address); // a Byron address is base58 text
    return { kind: 'byron', script: false, paymentCred: null, stakeAddress: null };
  }
  const bytes = bech32.fromWords(bech32.decode(address as `${string}1${string}`, 1000).words);
  const type = (bytes[0] as number) >> 4;
  const network = (bytes[0] as number) & 0x0f;
  const kind = type <= 3 ? 'base' : type <= 5 ? 'pointer' : 'enterprise';
  let stakeAddress: string | null = null;
  if (kind === 'base') {
    const header = ((type & 2 ? 0xf : 0xe) << 4) | network;
    stakeAddress = bech32.encode('stake', bech32.toWords(Uint8Array.of(header, ...bytes.slice(29, 57))), 1000);
  }
  return { kind, script: (type & 1) === 1, paymentCred: hex.encode(bytes.slice(1, 29)), stakeAddress };
}
const stakeAddressOfKey = (credential: string) =>
  bech32.encode('stake', bech32.toWords(Uint8Array.of(0xe1, ...hex.decode(credential))), 1000);
/** pool1… id: Bech32 of blake2b-224 of the pool's cold verification key. */
const poolIdOf = (vkey: string) => bech32.encode('pool', bech32.toWords(blake2b(hex.decode(vkey), { dkLen: 28 })));

/** Plain JSON as the schema documents metadata: integers beyond 2^53 as decimal strings. */
function plainJson(x: unknown): unknown {
  if (typeof x === 'bigint')
    return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : String(x);
  if (Array.isArray(x)) return x.map(plainJson);
  if (x !== null && typeof x === 'object')
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plainJson(v)]));
  return x;
}

const refKey = (r: OutputReference) => `${r.transaction.id}#${r.index}`;

interface Created {
  address: string;
  lovelace: bigint;
  assets: Assets;
}

/**
 * Replays a chain's transactions (valid ones spend `inputs` and create `outputs`; a failed script spends its
 * collaterals and creates only the collateral return at index outputs.length) and records what a user should see.
 */
class ChainOracle {
  readonly created = new Map<string, Created>();
  readonly unspent = new Map<string, Created>();
  /** Per address: transactions (in chain order) that paid it or spent one of its known outputs. */
  readonly touches = new Map<string, { txId: string; slot: number; seq: number }[]>();
  /** Transactions applied so far: a transaction's position in chain order. */
  private seq = 0;
  readonly addresses = new Set<string>();
  readonly txIds = new Set<string>();

  apply(block: Block) {
    for (const tx of block.transactions ?? []) {
      this.txIds.add(tx.id);
      const seq = this.seq++;
      const valid = tx.spends !== 'collaterals';
      const touched = new Set<string>();
      for (const r of valid ? tx.inputs : (tx.collaterals ?? [])) {
        const u = this.unspent.get(refKey(r));
        if (!u) continue;
        this.unspent.delete(refKey(r));
        touched.add(u.address);
      }
      const outs: [number, TxOutput][] = valid
        ? tx.outputs.map((o, i) => [i, o])
        : tx.collateralReturn
          ? [[tx.outputs.length, tx.collateralReturn]]
          : [];
      for (const [i, o] of outs) {
        const c = { address: o.address, lovelace: lovelace(o.value), assets: assetsOf(o.value) };
        this.created.set(`${tx.id}#${i}`, c);
        this.unspent.set(`${tx.id}#${i}`, c);
        touched.add(o.address);
        this.addresses.add(o.address);
      }
      for (const a of touched) {
        const list = this.touches.get(a) ?? [];
        list.push({ txId: tx.id, slot: block.slot as number, seq });
        this.touches.set(a, list);
      }
    }
  }

  /** Sum of the unspent outputs of the addresses `pick` accepts. */
  holdings(pick: (address: string) => boolean) {
    let sum = 0n;
    let count = 0;
    const assets: Assets = new Map();
    for (const u of this.unspent.values())
      if (pick(u.address)) {
        sum += u.lovelace;
        count++;
        addAssets(assets, u.assets);
      }
    return { lovelace: sum, utxos: count, assets };
  }

  /** What an input's answer must say: the spent output when the chain created it, unresolved otherwise. */
  input(r: OutputReference) {
    const c = this.created.get(refKey(r));
    return {
      txId: r.transaction.id,
      index: r.index,
      resolved: c !== undefined,
      address: c?.address ?? null,
      lovelace: c ? String(c.lovelace) : null,
      ada: c ? ada(c.lovelace) : null,
      assets: c ? expectedAssets(c.assets) : [],
    };
  }
}

const inputView = (i: Json) => ({
  txId: i.txId,
  index: i.index,
  resolved: i.resolved,
  address: i.address,
  lovelace: i.lovelace,
  ada: i.ada,
  assets: rawAssets(i.assets),
});

/** Token decimals from the Cardano token registry (the official mappings), 0 for tokens it does not list. */
function registryDecimals(unit: string): number {
  try {
    const m = JSON.parse(readFileSync(new URL(`${unit}.json`, REGISTRY), 'utf8')) as { decimals?: { value: number } };
    return m.decimals?.value ?? 0;
  } catch {
    return 0;
  }
}

async function get(api: TestApi, path: string): Promise<Json> {
  const r = await api.get(`/api/v1/explorer/${path}`);
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body as Json;
}

/** Checks one transaction's answer against the transaction as the chain source sent it. */
function checkTx(t: Json, tx: Transaction, where: { block: Block; index: number; time: string }, chain: ChainOracle) {
  const id = `tx ${tx.id}`;
  assert.deepEqual(t.block, { hash: where.block.id, height: where.block.height, index: where.index }, id);
  assert.equal(t.slot, where.block.slot, id);
  assert.equal(t.time, where.time, id);
  assert.equal(t.valid, tx.spends !== 'collaterals', id);
  assert.equal(t.feeLovelace, String(lovelace(tx.fee)), `${id}: fee as recorded`);
  assert.equal(t.fee, ada(lovelace(tx.fee)), `${id}: fee in whole ADA`);
  if (tx.cbor) assert.equal(t.size, tx.cbor.length / 2, `${id}: serialized size`);
  assert.deepEqual(
    t.inputs.map(inputView),
    tx.inputs.map((r) => chain.input(r)),
    `${id}: inputs resolve to the outputs the chain created, older ones stay unresolved`,
  );
  assert.deepEqual(
    t.collaterals.map(inputView),
    (tx.collaterals ?? []).map((r) => chain.input(r)),
    `${id}: collaterals`,
  );
  assert.deepEqual(
    t.referenceInputs.map(inputView),
    (tx.references ?? []).map((r) => chain.input(r)),
    `${id}: reference inputs show the outputs they read, older ones unresolved`,
  );
  const outputView = (o: Json) => ({
    index: o.index,
    address: o.address,
    stakeAddress: o.stakeAddress,
    lovelace: o.lovelace,
    ada: o.ada,
    assets: rawAssets(o.assets),
    datumHash: o.datumHash,
    datum: o.datum,
  });
  const expectedOutput = (o: TxOutput, index: number) => ({
    index,
    address: o.address,
    stakeAddress: addressFacts(o.address).stakeAddress,
    lovelace: String(lovelace(o.value)),
    ada: ada(lovelace(o.value)),
    assets: expectedAssets(assetsOf(o.value)),
    datumHash: o.datumHash ?? null,
    datum: o.datum ?? null,
  });
  assert.deepEqual(t.outputs.map(outputView), tx.outputs.map(expectedOutput), `${id}: outputs as recorded`);
  assert.deepEqual(
    t.collateralReturn ? outputView(t.collateralReturn) : null,
    tx.collateralReturn ? expectedOutput(tx.collateralReturn, tx.outputs.length) : null,
    `${id}: collateral return`,
  );
  const total = tx.outputs.reduce((s, o) => s + lovelace(o.value), 0n);
  assert.equal(t.totalOutputLovelace, String(total), `${id}: total output`);
  assert.equal(t.totalOutput, ada(total), `${id}: total output in whole ADA`);
  const mint = assetsOf(tx.mint ?? {});
  assert.deepEqual(rawAssets(t.mint), expectedAssets(mint), `${id}: minted and burned quantities`);
  for (const m of t.mint as Json[]) {
    assert.equal(m.decimals, registryDecimals(m.unit), `${id}: decimals of ${m.unit}`);
    assert.equal(m.quantity, Number(m.quantityRaw) / 10 ** m.decimals, `${id}: decimal-adjusted ${m.unit}`);
  }
  assert.deepEqual(
    t.withdrawals,
    Object.entries(tx.withdrawals ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([stakeAddress, w]) => ({ stakeAddress, ada: ada(lovelace(w)), lovelace: String(lovelace(w)) })),
    `${id}: withdrawals`,
  );
  const labels = tx.metadata?.labels;
  assert.deepEqual(
    t.metadata,
    labels ? Object.fromEntries(Object.entries(labels).map(([l, m]) => [l, plainJson(m.json)])) : null,
    `${id}: metadata by label`,
  );
  assert.deepEqual(
    t.validityInterval,
    {
      invalidBefore: tx.validityInterval?.invalidBefore ?? null,
      invalidAfter: tx.validityInterval?.invalidAfter ?? null,
    },
    `${id}: validity interval (slots)`,
  );
  assert.deepEqual(
    (t.certificates as Json[]).map((c) => c.type),
    (tx.certificates ?? []).map((c) => c.type),
    `${id}: certificates`,
  );
}

/** Checks the answer for every address the chain paid, and for every stake key among them. */
async function checkAddresses(api: TestApi, chain: ChainOracle, sample: readonly string[] = [...chain.addresses]) {
  const stakeKeys = new Set<string>();
  for (const address of sample) {
    const a = await get(api, `address/${address}`);
    const facts = addressFacts(address);
    const held = chain.holdings((x) => x === address);
    const touches = chain.touches.get(address) ?? [];
    assert.deepEqual(
      {
        type: a.type,
        addressType: a.addressType,
        script: a.script,
        stakeAddress: a.stakeAddress,
        balanceLovelace: a.balanceLovelace,
        balance: a.balance,
        assets: rawAssets(a.assets),
        utxoCount: a.utxoCount,
        txCount: a.txCount,
      },
      {
        type: 'payment',
        addressType: facts.kind,
        script: facts.script,
        stakeAddress: facts.stakeAddress,
        balanceLovelace: String(held.lovelace),
        balance: ada(held.lovelace),
        assets: expectedAssets(held.assets),
        utxoCount: held.utxos,
        txCount: touches.length,
      },
      `address ${address}: balance = its unspent outputs`,
    );
    if (facts.kind !== 'byron') assert.equal(a.paymentCred, facts.paymentCred, address);
    if (facts.stakeAddress) stakeKeys.add(facts.stakeAddress);
  }
  for (const stake of stakeKeys) {
    const s = await get(api, `address/${stake}`);
    const mine = (x: string) => chain.addresses.has(x) && addressFacts(x).stakeAddress === stake;
    const held = chain.holdings(mine);
    const addresses = [...chain.addresses].filter(mine);
    const txs = new Set(addresses.flatMap((x) => (chain.touches.get(x) ?? []).map((t) => t.txId)));
    assert.deepEqual(
      {
        type: s.type,
        balanceLovelace: s.balanceLovelace,
        balance: s.balance,
        assets: rawAssets(s.assets),
        utxoCount: s.utxoCount,
        addressCount: s.addressCount,
        complete: s.complete,
        txCount: s.txCount,
      },
      {
        type: 'stake',
        balanceLovelace: String(held.lovelace),
        balance: ada(held.lovelace),
        assets: expectedAssets(held.assets),
        utxoCount: held.utxos,
        addressCount: addresses.length,
        complete: true,
        txCount: txs.size,
      },
      `stake key ${stake}: the unspent outputs of all its addresses`,
    );
    // First and last activity: the key's first and last transaction in chain order, over all its addresses.
    const ordered = addresses.flatMap((x) => chain.touches.get(x) ?? []).sort((a, b) => a.seq - b.seq);
    const first = ordered[0] as { txId: string; slot: number };
    const last = ordered[ordered.length - 1] as { txId: string; slot: number };
    const [firstTx, lastTx] = [await get(api, `tx/${first.txId}`), await get(api, `tx/${last.txId}`)];
    assert.deepEqual(
      [s.firstActivity, s.lastActivity],
      [
        { slot: first.slot, time: firstTx.time, txHash: first.txId },
        { slot: last.slot, time: lastTx.time, txHash: last.txId },
      ],
      `stake key ${stake}: its first and last transactions in chain order`,
    );
  }
  return stakeKeys.size;
}

/**
 * firstActivity / lastActivity of every address the chain paid: its first and last transaction in chain order
 * (block height, then position in the block), as a user reading an address's history expects.
 */
async function checkActivity(
  api: TestApi,
  chain: ChainOracle,
  time: (slot: number) => string,
  sample: readonly string[] = [...chain.addresses],
) {
  const wrong: string[] = [];
  for (const address of sample) {
    const a = await get(api, `address/${address}`);
    const touches = chain.touches.get(address) ?? [];
    const first = touches[0] as { txId: string; slot: number };
    const last = touches[touches.length - 1] as { txId: string; slot: number };
    const shown = (p: Json) => ({ slot: p.slot, time: p.time });
    const at = (p: { slot: number }) => ({ slot: p.slot, time: time(p.slot) });
    assert.deepEqual(
      [shown(a.firstActivity), shown(a.lastActivity)],
      [at(first), at(last)],
      `address ${address}: slots of its first and last transactions`,
    );
    if (a.firstActivity.txHash !== first.txId || a.lastActivity.txHash !== last.txId)
      wrong.push(
        `${address}: first ${String(a.firstActivity.txHash)} (chain order: ${first.txId}), ` +
          `last ${String(a.lastActivity.txHash)} (chain order: ${last.txId}); ${touches.length} txs`,
      );
  }
  assert.equal(
    wrong.length,
    0,
    `${wrong.length} of ${sample.length} addresses name a first/last transaction that is not their first/last in ` +
      'chain order (among the transactions of one block, the position in the block decides). First cases:\n' +
      wrong.slice(0, 3).join('\n'),
  );
}

// ---------------------------------------------------------------------------------------------------------------

interface RecordedCase {
  file: string;
  height: number;
}
const RECORDED: RecordedCase[] = [
  { file: 'nextBlock.rollForward.mainnet-mary-5567164.kupo-golden-1.json', height: 5567164 },
  { file: 'block.mainnet-conway-11321965-slot144711632.koralabs.json', height: 11321965 },
  { file: 'block.mainnet-conway-11322286-slot144718140.koralabs.json', height: 11322286 },
  { file: 'block.mainnet-conway-11322313-slot144718597.koralabs.json', height: 11322313 },
];

describe('explorer routes over documents the sync wrote', function () {
  this.timeout(120_000);

  describe('real recorded mainnet blocks', () => {
    for (const c of RECORDED)
      describe(`block ${c.height}`, () => {
        const { block, frame } = recorded(c.file);
        const txs = block.transactions ?? [];
        const chain = new ChainOracle();
        chain.apply(block);
        let api: TestApi;
        before(async () => {
          api = await apiOverSyncedFrames([frame], { tokenDecimals: async (unit) => registryDecimals(unit) });
        });
        after(() => api?.close());

        it('by height and by hash: the recorded header, size, issuer, transactions and fees', async () => {
          assert.equal(block.height, c.height);
          const byHeight = await get(api, `blocks/${c.height}`);
          const byHash = await get(api, `blocks/${block.id}`);
          const { asOf: _a, ...h } = byHeight;
          const { asOf: _b, ...b } = byHash;
          assert.deepEqual(h, b, 'the same block either way');
          const fees = txs.reduce((s, tx) => s + lovelace(tx.fee), 0n);
          const total = txs.reduce((s, tx) => s + tx.outputs.reduce((t, o) => t + lovelace(o.value), 0n), 0n);
          const slot = block.slot as number;
          const version = block.protocol?.version as { major: number; minor: number };
          assert.deepEqual(h, {
            hash: block.id,
            height: c.height,
            slot,
            time: mainnetTime(slot),
            epoch: mainnetEpoch(slot),
            era: block.era,
            previousBlock: block.ancestor,
            nextBlock: null,
            size: block.size?.bytes,
            txCount: txs.length,
            fees: ada(fees),
            feesLovelace: String(fees),
            totalOutput: ada(total),
            totalOutputLovelace: String(total),
            issuerPoolId: poolIdOf(block.issuer?.verificationKey as string),
            issuerVkey: block.issuer?.verificationKey,
            protocolVersion: `${version.major}.${version.minor}`,
            confirmations: 1,
            txIds: txs.map((tx) => tx.id),
          });
        });

        it('every transaction: inputs, outputs, fee, mint, withdrawals, metadata and validity as recorded', async () => {
          const time = mainnetTime(block.slot as number);
          for (const [index, tx] of txs.entries()) {
            const t = await get(api, `tx/${tx.id}`);
            assert.equal(t.hash, tx.id);
            assert.equal(t.confirmations, 1);
            checkTx(t, tx, { block, index, time }, chain);
          }
          const resolved = txs.flatMap((tx) => tx.inputs.filter((r) => chain.created.has(refKey(r))));
          const unresolved = txs.flatMap((tx) => tx.inputs.filter((r) => !chain.created.has(refKey(r))));
          assert.ok(unresolved.length > 0, 'the block spends outputs older than itself');
          if (c.height === 11322286) assert.ok(resolved.length >= 8, 'and outputs of its own earlier transactions');
        });

        it('every address it pays: balance, assets, UTxOs and transactions from its unspent outputs', async () => {
          const stakeKeys = await checkAddresses(api, chain);
          assert.ok(stakeKeys > 0);
        });

        it('every address it pays: first and last activity are its first and last transactions', async () => {
          await checkActivity(api, chain, mainnetTime);
        });

        it("stake keys certified or withdrawn from in the block show the certificate's pool and the withdrawal", async () => {
          const registered = new Map<string, string>();
          for (const tx of txs)
            for (const cert of tx.certificates ?? [])
              if (cert.type === 'stakeDelegation' && cert.from === 'verificationKey')
                registered.set(stakeAddressOfKey(cert.credential as string), (cert.stakePool as { id: string }).id);
          for (const [stake, pool] of registered) {
            const s = await get(api, `address/${stake}`);
            assert.equal(s.stakeAccount?.poolId, pool, `${stake} delegates to the certificate's pool`);
            const registration = txs.some((tx) =>
              (tx.certificates ?? []).some(
                (cert) =>
                  cert.type === 'stakeCredentialRegistration' && stakeAddressOfKey(cert.credential as string) === stake,
              ),
            );
            if (registration) {
              assert.equal(s.stakeAccount.registered, true);
              assert.equal(s.stakeAccount.depositLovelace, String(KEY_DEPOSIT));
              assert.equal(s.stakeAccount.deposit, ada(KEY_DEPOSIT));
            }
          }
          const withdrawn = new Map<string, bigint>();
          for (const tx of txs)
            for (const [stake, w] of Object.entries(tx.withdrawals ?? {}))
              withdrawn.set(stake, (withdrawn.get(stake) ?? 0n) + lovelace(w));
          for (const [stake, l] of withdrawn) {
            const s = await get(api, `address/${stake}`);
            assert.equal(s.stakeAccount?.withdrawnLovelace, String(l), `${stake}: rewards withdrawn in the block`);
            assert.equal(s.stakeAccount.withdrawn, ada(l));
          }
          if (c.height === 11322286) assert.ok(registered.size >= 2 && withdrawn.size >= 5);
        });
      });
  });

  describe('a devnet chain with forks', () => {
    const NOW = Date.UTC(2026, 10, 20, 12);
    let devnet: Devnet;
    let api: TestApi;
    const canonical: Block[] = [];
    const orphans: Block[] = [];
    const chain = new ChainOracle();
    const time = (slot: number) => new Date(devnet.systemStartMs + slot * 1000).toISOString();
    /**
     * The addresses checked (a few hundred are paid in an hour of devnet): the 15 busiest (DEX scripts, faucet,
     * batchers) and every n-th of the rest in address order, about 60 in all.
     */
    const sample = (): string[] => {
      const all = [...chain.addresses].sort();
      const busy = [...all].sort((a, b) => (chain.touches.get(b)?.length ?? 0) - (chain.touches.get(a)?.length ?? 0));
      const step = Math.max(1, Math.floor(all.length / 45));
      return [...new Set([...busy.slice(0, 15), ...all.filter((_, i) => i % step === 0)])];
    };

    before(async () => {
      devnet = await startDevnet({
        seed: 'explorer-synced',
        backfillHours: 0.75,
        blockMs: 3_600_000,
        forkRate: 0.15,
        now: () => NOW,
      });
      const client = await connectOgmios(devnet.url);
      try {
        api = await startTestApi(async (store) => {
          await syncAll(store, client, 97);
        });
      } finally {
        await client.close();
      }
      for (const e of devnet.events()) {
        if (e.kind !== 'forward') continue;
        const b = safeJSON.parse(devnet.blockJson(e)) as Block;
        (e.canonical ? canonical : orphans).push(b);
      }
      for (const b of canonical) chain.apply(b);
    });
    after(async () => {
      await api?.close();
      await devnet?.close();
    });

    it("blocks: the devnet's canonical chain by height and hash, rolled-back blocks not found", async () => {
      const points = devnet.canonicalBlocks();
      assert.equal(canonical.length, points.length);
      assert.ok(orphans.length > 0, 'the devnet forked');
      const tip = points[points.length - 1] as { height: number };
      const busiest = [...canonical].sort((a, b) => (b.transactions?.length ?? 0) - (a.transactions?.length ?? 0));
      const sample = new Set([canonical[0], canonical[1], canonical[canonical.length - 1], ...busiest.slice(0, 5)]);
      for (const block of sample) {
        if (!block) continue;
        const slot = block.slot as number;
        const txs = block.transactions ?? [];
        const b = await get(api, `blocks/${block.height}`);
        assert.equal(b.hash, points[block.height - 1]?.id, `height ${block.height}`);
        assert.equal(b.slot, slot);
        assert.equal(b.time, time(slot));
        assert.equal(b.epoch, Math.floor(slot / devnet.epochLength));
        assert.equal(b.previousBlock, block.height === 1 ? null : block.ancestor);
        assert.equal(b.nextBlock, points[block.height]?.id ?? null);
        assert.equal(b.confirmations, tip.height - block.height + 1);
        assert.deepEqual(
          b.txIds,
          txs.map((tx) => tx.id),
        );
        const fees = txs.reduce((s, tx) => s + lovelace(tx.fee), 0n);
        assert.equal(b.feesLovelace, String(fees));
        assert.equal(b.fees, ada(fees));
        assert.equal((await get(api, `blocks/${block.id}`)).height, block.height);
      }
      const canonicalIds = new Set(canonical.map((b) => b.id));
      for (const o of orphans.slice(0, 5)) {
        assert.ok(!canonicalIds.has(o.id));
        const r = await api.get(`/api/v1/explorer/blocks/${o.id}`);
        assert.equal(r.status, 404, `rolled-back block ${o.height} ${o.id}`);
      }
    });

    it("latest blocks: the devnet's canonical chain newest first, page by page, rolled-back blocks absent", async () => {
      const points = devnet.canonicalBlocks();
      const tip = points[points.length - 1] as { height: number };
      const byHash = new Map(canonical.map((b) => [b.id, b]));
      const seen: Json[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await api.get(`/api/v1/explorer/blocks?limit=37${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(r.status, 200);
        const body = r.body as Json;
        assert.equal(body.tipHeight, tip.height);
        assert.ok(body.items.length <= 37);
        seen.push(...body.items);
        cursor = body.nextCursor;
        pages++;
      } while (cursor && pages < 1000);
      // Every canonical block once, from the tip down to height 1; no orphan of the forks.
      assert.deepEqual(
        seen.map((b) => b.hash),
        [...points].reverse().map((p) => p.id),
      );
      for (const b of seen.filter((_, i) => i % 17 === 0)) {
        const block = byHash.get(b.hash)!;
        const fees = (block.transactions ?? []).reduce((s, tx) => s + lovelace(tx.fee), 0n);
        assert.equal(b.height, block.height);
        assert.equal(b.slot, block.slot);
        assert.equal(b.time, time(block.slot as number));
        assert.equal(b.txCount, (block.transactions ?? []).length);
        assert.equal(b.feesLovelace, String(fees));
        assert.equal(b.previousBlock, block.height === 1 ? null : block.ancestor);
        assert.equal(b.confirmations, tip.height - block.height + 1);
        assert.ok(!('txIds' in b), 'the list leaves the transaction ids to the block answer');
      }
      // A cursor of another list, or an altered one, is refused; so is a limit out of range.
      const trades = await api.get(`/api/v1/explorer/blocks?cursor=${Buffer.from('12~x').toString('base64url')}`);
      assert.equal(trades.status, 400);
      assert.match((trades.body as Json).error, /cursor/);
      assert.equal((await api.get('/api/v1/explorer/blocks?limit=201')).status, 400);
    });

    it("transactions: the devnet's own block content, genesis funds unresolved", async () => {
      const withTxs = canonical.filter((b) => (b.transactions?.length ?? 0) > 0);
      const sample = [withTxs[0], withTxs[Math.floor(withTxs.length / 2)], withTxs[withTxs.length - 1]];
      let checked = 0;
      for (const block of sample) {
        if (!block) continue;
        for (const [index, tx] of (block.transactions ?? []).entries()) {
          const t = await get(api, `tx/${tx.id}`);
          checkTx(t, tx, { block, index, time: time(block.slot as number) }, chain);
          checked++;
        }
      }
      assert.ok(checked >= 3, `${checked} transactions`);
      const genesis = devnet.genesisUtxos()[0] as { txId: string; index: number };
      const first = canonical
        .flatMap((b) => b.transactions ?? [])
        .find((tx) => tx.inputs.some((r) => r.transaction.id === genesis.txId));
      assert.ok(first, 'a transaction spends the genesis funds');
      const t = await get(api, `tx/${first.id}`);
      const input = (t.inputs as Json[]).find((i) => i.txId === genesis.txId);
      assert.deepEqual(
        [input?.resolved, input?.address, input?.lovelace],
        [false, null, null],
        'no block created the genesis output: reported unresolved, never guessed',
      );
      const orphanOnly = orphans.flatMap((b) => b.transactions ?? []).find((tx) => !chain.txIds.has(tx.id));
      if (orphanOnly) assert.equal((await api.get(`/api/v1/explorer/tx/${orphanOnly.id}`)).status, 404);
    });

    it('an address answer says where the indexed history it counts starts (coverageFrom)', async () => {
      const first = await get(api, 'blocks/1');
      const address = [...chain.addresses][0] as string;
      assert.equal((await get(api, `address/${address}`)).coverageFrom, first.time);
    });

    it('a stake pool registration balances with its deposit: inputs + withdrawals + refunds = outputs + fee + deposits', async () => {
      // The chain's pool registration certificate carries no deposit; the ledger charges one for a new pool only
      // (an update of a registered pool pays none). The balance of the transaction is the oracle.
      let charged = 0;
      let updates = 0;
      for (const b of canonical)
        for (const tx of b.transactions ?? []) {
          if (tx.spends === 'collaterals' || (tx.proposals?.length ?? 0) > 0) continue;
          if (!(tx.certificates ?? []).some((c) => c.type === 'stakePoolRegistration')) continue;
          const t = await get(api, `tx/${tx.id}`);
          if ((t.inputs as Json[]).some((i) => i.lovelace === null)) continue; // spends genesis funds: unresolved
          const sum = (xs: string[]) => xs.reduce((acc, x) => acc + BigInt(x), 0n);
          const inputs = sum((t.inputs as Json[]).map((i) => i.lovelace));
          const withdrawals = sum((t.withdrawals as Json[]).map((w) => w.lovelace));
          let deposits = 0n;
          let refunds = 0n;
          for (const c of t.certificates as Json[]) {
            const d = c.deposit?.lovelace as string | undefined;
            if (d === undefined) continue;
            if (/Deregistration/.test(c.type)) refunds += BigInt(d);
            else deposits += BigInt(d);
          }
          assert.equal(
            inputs + withdrawals + refunds,
            BigInt(t.totalOutputLovelace) + BigInt(t.feeLovelace) + deposits,
            `tx ${tx.id}: ${JSON.stringify(t.certificates)}`,
          );
          const reg = (t.certificates as Json[]).find((c) => c.type === 'stakePoolRegistration') as Json;
          if (reg.deposit) {
            assert.equal(reg.deposit.lovelace, String(STAKE_POOL_DEPOSIT));
            charged++;
          } else updates++;
        }
      assert.ok(charged >= 3, `${charged} new pools registered with their deposit (${updates} updates)`);
    });

    it("addresses and stake keys: balances equal the devnet ledger's UTxO set", async () => {
      const client = await connectOgmios(devnet.url);
      let utxos: { transaction: { id: string }; index: number; address: string; value: Value }[];
      try {
        utxos = await client.query('queryLedgerState/utxo', {});
      } finally {
        await client.close();
      }
      const genesisTx = devnet.genesisUtxos()[0]?.txId;
      const ledger = utxos.filter((u) => u.transaction.id !== genesisTx); // no block created these
      const byAddress = new Map<string, { lovelace: bigint; assets: Assets; utxos: number }>();
      const byStake = new Map<string, { lovelace: bigint; assets: Assets; utxos: number }>();
      for (const u of ledger) {
        for (const [map, key] of [
          [byAddress, u.address],
          [byStake, addressFacts(u.address).stakeAddress],
        ] as const) {
          if (!key) continue;
          const h = map.get(key) ?? { lovelace: 0n, assets: new Map(), utxos: 0 };
          h.lovelace += lovelace(u.value);
          addAssets(h.assets, assetsOf(u.value));
          h.utxos++;
          map.set(key, h);
        }
      }
      assert.ok(byAddress.size > 50, `${byAddress.size} addresses hold UTxOs`);
      // The replayed block content agrees with the ledger (so the oracle below is the ledger's).
      assert.equal(chain.unspent.size, ledger.length);
      const addresses = sample();
      const none = { lovelace: 0n, assets: new Map<string, bigint>(), utxos: 0 };
      for (const address of addresses) {
        const h = byAddress.get(address) ?? none;
        const a = await get(api, `address/${address}`);
        assert.deepEqual(
          [a.balanceLovelace, a.balance, rawAssets(a.assets), a.utxoCount],
          [String(h.lovelace), ada(h.lovelace), expectedAssets(h.assets), h.utxos],
          `address ${address}`,
        );
      }
      const stakeKeys = new Set(addresses.map((x) => addressFacts(x).stakeAddress).filter((x) => x !== null));
      for (const stake of stakeKeys) {
        const h = byStake.get(stake) ?? none;
        const s = await get(api, `address/${stake}`);
        assert.deepEqual(
          [s.balanceLovelace, s.balance, rawAssets(s.assets), s.utxoCount, s.complete],
          [String(h.lovelace), ada(h.lovelace), expectedAssets(h.assets), h.utxos, true],
          `stake key ${stake}`,
        );
      }
      // Addresses the chain paid and emptied again: zero balance, their history kept.
      const emptied = [...chain.addresses].filter((x) => !byAddress.has(x)).slice(0, 20);
      for (const address of emptied) {
        const a = await get(api, `address/${address}`);
        assert.deepEqual([a.balanceLovelace, a.utxoCount, a.assets], ['0', 0, []], address);
        assert.equal(a.txCount, chain.touches.get(address)?.length);
      }
      await checkAddresses(api, chain, addresses);
    });

    it('addresses: first and last activity are their first and last transactions in chain order', async () => {
      await checkActivity(api, chain, time, sample());
    });
  });
});

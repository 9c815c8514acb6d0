/**
 * Block generator: turns (seed, height) into the devnet's canonical blocks and, separately, into fork blocks.
 *
 * Activity modules. Everything that happens on the devnet comes from an `ActivityModule`:
 *
 *   export const myModule = (world: World): ActivityModule => ({
 *     name: 'my-module',                       // also the name of its random stream: (seed, height, name)
 *     step(ctx) {                              // once per canonical block, in list order
 *       const tx = ctx.build({ fundFrom: w.address, outputs: [...], signers: [w.paymentVkey] });
 *       return tx ? [tx] : [];                 // the block carries the returned transactions, in order
 *     },
 *   });
 *
 * To add one (a DEX, a marketplace, handles, governance), write it under devnet/activity/, append it to
 * `defaultModules` in devnet/activity/index.ts, and keep three rules:
 *   - draw randomness only from `ctx.rng` (its own stream: adding a module never shifts another's draws);
 *   - change state only through `ctx.build(draft)`, which balances the draft, applies it to the view at once
 *     (later transactions in the same block may spend its outputs) and returns null when it cannot be funded;
 *   - keep module-private state (counters, order books) deterministic and touched only in canonical steps
 *     (`ctx.fork` is false), so the canonical chain is the same whatever the fork rate.
 * New certificate kinds or ledger rules go into ledger.ts (`Cert`, `Ledger.apply`) and tx.ts (CBOR and JSON).
 *
 * Forks: after canonical block h, the stream (seed, h, 'fork') decides whether 1–3 orphan blocks follow,
 * built on h by the `forkModules` against a ForkView overlay of the state after h (so they spend real
 * UTxOs and rolling them back really undoes something). The canonical ledger never sees them.
 */
import { hash256 } from '../cardano/address.js';
import { encodeCbor } from './cbor.js';
import { ForkView, Ledger, type Utxo, type UtxoView } from './ledger.js';
import { GENESIS_FUNDS, MEAN_BLOCK_GAP, PROTOCOL_VERSION, SLOTS_PER_KES_PERIOD } from './params.js';
import { Rng } from './rng.js';
import { buildTx, type DevTx, type TxDraft } from './tx.js';
import { coinOnly } from './value.js';
import type { PoolKeys, World } from './world.js';

export interface ActivityContext {
  /** This module's random stream for this block. */
  readonly rng: Rng;
  readonly height: number;
  readonly slot: number;
  readonly epoch: number;
  readonly epochLength: number;
  /** Canonical state after the previous block (read-only in fork blocks). */
  readonly ledger: Ledger;
  /** Where inputs come from: the ledger, or the fork overlay in orphan blocks. */
  readonly view: UtxoView;
  readonly world: World;
  /** True while building an orphan block. */
  readonly fork: boolean;
  /** Builds a balanced transaction from the draft and applies it to the view; null when it cannot be funded. */
  build(draft: TxDraft): DevTx | null;
}

export interface ActivityModule {
  readonly name: string;
  step(ctx: ActivityContext): DevTx[];
}

/** One generated block: its point and its Ogmios JSON (`result.block` of a RollForward). */
export interface BlockRecord {
  height: number;
  slot: number;
  id: string;
  ancestor: string;
  issuer: string;
  txCount: number;
  json: string;
}

export interface GeneratorOptions {
  seed: string;
  world: World;
  epochLength: number;
  forkRate: number;
  /**
   * Deepest fork, in blocks (3 when not given): 3 keeps the 1–3 block forks every seed always had; another value
   * draws the depth evenly from 1 to it (the same draw, so the canonical chain is unchanged).
   */
  forkDepth?: number;
  modules: ActivityModule[];
  forkModules: ActivityModule[];
}

/** Geometric gap with mean 1/f slots: a slot leads with probability f = 1/20, as Praos leader election. */
function slotGap(rng: Rng): number {
  const u = rng.next();
  return Math.min(240, 1 + Math.floor(Math.log(1 - u) / Math.log(1 - 1 / MEAN_BLOCK_GAP)));
}

export class ChainGenerator {
  readonly ledger: Ledger;
  /** Height, slot and id of the last canonical block (0 / 0 / 'genesis' before the first). */
  height = 0;
  slot = 0;
  tipId = 'genesis';

  constructor(private readonly o: GeneratorOptions) {
    const stakeOf = new Map<string, string>();
    for (const w of o.world.wallets) if (w.stakeCred) stakeOf.set(w.address, w.stakeCred);
    this.ledger = new Ledger(stakeOf);
    for (const u of genesisUtxos(o.world)) this.ledger.add(u);
  }

  /** Slot of the next canonical block (decided before its contents, so backfill can stop at `now`). */
  nextSlot(): number {
    return this.slot + slotGap(new Rng(this.o.seed, this.height + 1, 'slot'));
  }

  nextCanonical(): BlockRecord {
    const height = this.height + 1;
    const slot = this.nextSlot();
    const epoch = Math.floor(slot / this.o.epochLength);
    if (epoch > this.ledger.epoch) this.ledger.startEpoch(epoch);
    const issuer = this.pickIssuer(new Rng(this.o.seed, height, 'issuer'));
    const txs: DevTx[] = [];
    for (const m of this.o.modules) {
      const ctx = this.context(new Rng(this.o.seed, height, m.name), height, slot, this.ledger, false);
      txs.push(...m.step(ctx));
    }
    const block = assembleBlock(height, slot, this.tipId, issuer, txs, new Rng(this.o.seed, height, 'header'));
    this.ledger.blocksThisEpoch.set(issuer.id, (this.ledger.blocksThisEpoch.get(issuer.id) ?? 0) + 1);
    this.height = height;
    this.slot = slot;
    this.tipId = block.id;
    return block;
  }

  /** Orphan blocks that follow the current canonical tip (empty for most heights). */
  forkAfterTip(): BlockRecord[] {
    const h = this.height;
    const fr = new Rng(this.o.seed, h, 'fork');
    if (h === 0 || !(fr.next() < this.o.forkRate)) return [];
    const u = fr.next();
    const most = this.o.forkDepth ?? 3;
    const depth = most === 3 ? (u < 0.7 ? 1 : u < 0.92 ? 2 : 3) : 1 + Math.floor(u * most);
    const view = new ForkView(this.ledger);
    const out: BlockRecord[] = [];
    let ancestor = this.tipId;
    let slot = this.slot;
    for (let j = 1; j <= depth; j++) {
      slot += slotGap(fr);
      const issuer = this.pickIssuer(fr);
      const txs: DevTx[] = [];
      for (const m of this.o.forkModules) {
        const ctx = this.context(new Rng(this.o.seed, h, 'fork', j, m.name), h + j, slot, view, true);
        txs.push(...m.step(ctx));
      }
      const block = assembleBlock(h + j, slot, ancestor, issuer, txs, new Rng(this.o.seed, h, 'fork', j, 'header'));
      out.push(block);
      ancestor = block.id;
    }
    return out;
  }

  private context(rng: Rng, height: number, slot: number, view: UtxoView, fork: boolean): ActivityContext {
    return {
      rng,
      height,
      slot,
      epoch: Math.floor(slot / this.o.epochLength),
      epochLength: this.o.epochLength,
      ledger: this.ledger,
      view,
      world: this.o.world,
      fork,
      build: (draft) => {
        const tx = buildTx(view, draft, { slot, rng });
        if (tx) view.apply(tx);
        return tx;
      },
    };
  }

  /**
   * Leader by stake: weighted by the pool stake snapshot of the epoch; uniform over registered pools while no
   * stake is delegated yet (first epoch); the genesis pools' keys before any pool is registered (block 1).
   */
  private pickIssuer(rng: Rng): PoolKeys {
    const byId = this.poolsById();
    const snap = this.ledger.snapshot.filter((s) => this.ledger.pools.has(s.pool));
    if (snap.length) {
      let total = 0;
      for (const s of snap) total += Number(s.stake);
      let x = rng.next() * total;
      for (const s of snap) {
        x -= Number(s.stake);
        if (x < 0) return byId.get(s.pool) as PoolKeys;
      }
      return byId.get((snap[snap.length - 1] as { pool: string }).pool) as PoolKeys;
    }
    const registered = [...this.ledger.pools.keys()];
    if (registered.length) return byId.get(rng.pick(registered)) as PoolKeys;
    return rng.pick(this.o.world.pools.slice(0, this.o.world.genesisPools));
  }

  private poolsByIdCache: Map<string, PoolKeys> | null = null;
  private poolsById(): Map<string, PoolKeys> {
    return (this.poolsByIdCache ??= new Map(this.o.world.pools.map((p) => [p.id, p])));
  }
}

/**
 * The genesis UTxO: one output to the faucet with the whole initial supply, under a transaction id derived
 * from the seed. No block produces it (like Shelley genesis funds), so an indexer sees the first transaction's
 * input as unresolved.
 */
export function genesisUtxos(world: World): Utxo[] {
  return [{ txId: world.genesisTxId, index: 0, address: world.faucet.address, value: coinOnly(GENESIS_FUNDS) }];
}

const unhex = (h: string): Uint8Array => Buffer.from(h, 'hex');

function assembleBlock(
  height: number,
  slot: number,
  ancestor: string,
  issuer: PoolKeys,
  txs: DevTx[],
  rng: Rng,
): BlockRecord {
  let bodySize = 0;
  for (const t of txs) bodySize += t.size;
  bodySize += 4 + Math.ceil(txs.length / 8);
  const bodyHash = hash256(unhex(txs.map((t) => t.id).join('')));
  const kesPeriod = Math.floor(slot / SLOTS_PER_KES_PERIOD);
  const leader = { output: rng.hex(64), proof: rng.hex(80) };
  const headerBody = [
    height,
    slot,
    ancestor === 'genesis' ? new Uint8Array(0) : unhex(ancestor),
    unhex(issuer.coldVkey),
    unhex(issuer.vrfVkey),
    [unhex(leader.output), unhex(leader.proof)],
    bodySize,
    unhex(bodyHash),
    [unhex(issuer.kesVkey), issuer.opCertCount, kesPeriod, unhex(issuer.opCertSigma)],
    [PROTOCOL_VERSION.major, PROTOCOL_VERSION.minor],
  ];
  const id = hash256(encodeCbor(headerBody));
  // Key order as Ogmios emits a praos block; transactions are already JSON.
  const json =
    `{"type":"praos","era":"conway","id":"${id}","size":{"bytes":${bodySize}},"height":${height},"slot":${slot},` +
    `"ancestor":"${ancestor}","issuer":{"verificationKey":"${issuer.coldVkey}","vrfVerificationKey":"${issuer.vrfVkey}",` +
    `"operationalCertificate":{"count":${issuer.opCertCount},"sigma":"${issuer.opCertSigma}",` +
    `"kes":{"period":${kesPeriod},"verificationKey":"${issuer.kesVkey}"}},` +
    `"leaderValue":{"output":"${leader.output}","proof":"${leader.proof}"}},` +
    `"protocol":{"version":{"major":${PROTOCOL_VERSION.major},"minor":${PROTOCOL_VERSION.minor}}},` +
    `"transactions":[${txs.map((t) => t.json).join(',')}]}`;
  return { height, slot, id, ancestor, issuer: issuer.id, txCount: txs.length, json };
}

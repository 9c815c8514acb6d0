/**
 * A small Ogmios chain builder for market tests: blocks of given transactions on top of each other, a UTxO view
 * of the canonical chain (so batches can spend earlier pool and order outputs), and forks (orphan blocks, then a
 * RollBackward to the fork point). The canonical chain is the same whether forks were added or not, so a forked
 * stream and the clean one must index alike.
 */
import { block12069665, readJson } from '../dex/fixtures.js';
import { hash256 } from '../../cardano/address.js';
import type { Block, ChainEvent, Transaction, TxOutput } from '../../cardano/chain/types.js';

const enc = new TextEncoder();
export const h = (s: string): string => hash256(enc.encode(s));

export class ChainBuilder {
  canonical: Block[] = [];
  /** Unspent outputs of the chain built so far (canonical, or the fork while inside `fork`). */
  utxos = new Map<string, TxOutput>();
  private readonly events: ChainEvent[] = [];
  private height = 0;
  private prev = 'genesis';
  private txCount = 0;

  constructor(public slot = 1_000) {}

  /** A fresh transaction id (never reused, also across forks). */
  txId(): string {
    return h(`tx-${this.txCount++}`);
  }

  /** An input that predates the indexed range (the indexer records it unresolved). */
  outsideInput(): { transaction: { id: string }; index: number } {
    return { transaction: { id: h(`outside-${this.txCount++}`) }, index: 0 };
  }

  block(txs: Transaction[], gapSlots = 20, fixed?: { id: string; slot: number }): Block {
    this.height++;
    this.slot = fixed ? fixed.slot : this.slot + gapSlots;
    const block: Block = {
      type: 'praos',
      era: 'conway',
      id: fixed?.id ?? h(`block-${this.height}-${this.slot}-${txs.map((t) => t.id).join()}`),
      ancestor: this.prev,
      height: this.height,
      slot: this.slot,
      size: { bytes: 1000 },
      protocol: { version: { major: 10, minor: 0 } },
      transactions: txs,
    };
    for (const tx of txs) {
      if (tx.spends !== 'inputs') continue;
      for (const r of tx.inputs) this.utxos.delete(`${r.transaction.id}#${r.index}`);
      tx.outputs.forEach((o, i) => this.utxos.set(`${tx.id}#${i}`, o));
    }
    this.events.push({ direction: 'forward', block, tip: 'origin' });
    this.canonical.push(block);
    this.prev = block.id;
    return block;
  }

  /** Blocks built inside `orphans` are rolled back right after; the builder then continues from the fork point. */
  fork(orphans: () => void): void {
    const saved = {
      utxos: new Map(this.utxos),
      height: this.height,
      slot: this.slot,
      prev: this.prev,
      n: this.canonical.length,
    };
    orphans();
    this.canonical.length = saved.n;
    Object.assign(this, { utxos: saved.utxos, height: saved.height, slot: saved.slot, prev: saved.prev });
    const last = this.canonical[saved.n - 1];
    this.events.push({
      direction: 'backward',
      point: last ? { slot: last.slot ?? 0, id: last.id } : 'origin',
      tip: 'origin',
    });
  }

  /** Every event with the final tip, as a follower would receive them. */
  stream(): ChainEvent[] {
    const last = this.canonical[this.canonical.length - 1] as Block;
    const tip = { slot: last.slot ?? 0, id: last.id, height: last.height };
    return this.events.map((e) => ({ ...e, tip }));
  }

  /** The canonical chain alone. */
  clean(): ChainEvent[] {
    const last = this.canonical[this.canonical.length - 1] as Block;
    const tip = { slot: last.slot ?? 0, id: last.id, height: last.height };
    return this.canonical.map((block) => ({ direction: 'forward' as const, block, tip }));
  }
}

/** Mainnet block 12069665 (CSL summary) as an Ogmios block: three real Minswap V2 batches re-creating their pools. */
export function realBlock12069665(b: ChainBuilder): Block {
  const s = readJson<{ blockHash: string; slot: number }>('chain/expected/mainnet-conway-12069665.csl-summary.json');
  return b.block(block12069665(), 0, { id: s.blockHash, slot: s.slot });
}

/**
 * The devnet's mempool: transactions submitted through Ogmios `submitTransaction` (validated by submit.ts) and
 * faucet top-ups requested by tests, waiting for the next canonical block. The mempool module acts first in a
 * block, so the block's other modules already see what it included (the DEX batcher adopts submitted orders).
 *
 * Without submissions the canonical chain is exactly the seed's: the module adds nothing. A submission changes
 * the chain from its block on, as a real transaction would.
 */
import type { ActivityModule } from './generator.js';
import type { Ledger, Utxo } from './ledger.js';
import { refKey } from './ledger.js';
import { SubmitError, validateSubmission } from './submit.js';
import type { DevTx, TxDraft } from './tx.js';
import type { World } from './world.js';

export type SubmitResult = { result: string } | { error: { code: number; message: string } };

export class Mempool {
  private queue: DevTx[] = [];
  private drafts: TxDraft[] = [];
  private readonly spends = new Set<string>();
  /** Transactions included by the last canonical block (what the DEX module adopts orders from). */
  included: DevTx[] = [];
  includedHeight = -1;

  constructor(
    /** The canonical ledger (a getter: the generator that owns it is built with this mempool's module). */
    private readonly ledger: () => Ledger,
    private readonly nextSlot: () => number,
  ) {}

  /** Ogmios `submitTransaction` params → the JSON of `result`, or an Ogmios error. */
  submit(params: Record<string, unknown>): SubmitResult {
    const t = params.transaction as { cbor?: unknown } | undefined;
    const cbor = typeof t?.cbor === 'string' ? t.cbor : null;
    if (cbor === null) return { error: { code: -32602, message: 'Missing transaction.cbor (hex).' } };
    try {
      const tx = validateSubmission(cbor, {
        utxo: (txId, index) => this.ledger().utxos.get(refKey(txId, index)) ?? null,
        queuedSpends: this.spends,
        nextSlot: this.nextSlot(),
      });
      this.queue.push(tx);
      for (const u of tx.spent) this.spends.add(refKey(u.txId, u.index));
      return { result: `{"transaction":{"id":"${tx.id}"}}` };
    } catch (e) {
      if (e instanceof SubmitError) return { error: { code: e.code, message: e.message } };
      throw e;
    }
  }

  /** A faucet payment to `address` in the next block (tests and demos fund a wallet whose key they hold). */
  fund(world: World, address: string, lovelace: bigint): void {
    this.drafts.push({
      fundFrom: world.faucet.address,
      outputs: [{ address, value: { coin: lovelace, assets: {} } }],
      signers: [world.faucet.paymentVkey],
    });
  }

  get size(): number {
    return this.queue.length + this.drafts.length;
  }

  module(): ActivityModule {
    return {
      name: 'mempool',
      step: (ctx) => {
        if (ctx.fork) return [];
        const out: DevTx[] = [];
        for (const draft of this.drafts.splice(0)) {
          const tx = ctx.build(draft);
          if (tx) out.push(tx);
        }
        for (const tx of this.queue.splice(0)) {
          for (const u of tx.spent) this.spends.delete(refKey(u.txId, u.index));
          // Still valid against this block's view (nothing else spends a submitter's key-locked outputs).
          if (!tx.spent.every((u: Utxo) => ctx.view.isUnspent(u))) continue;
          ctx.view.apply(tx);
          out.push(tx);
        }
        this.included = out;
        this.includedHeight = ctx.height;
        return out;
      },
    };
  }
}

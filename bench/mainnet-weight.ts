/**
 * How much heavier a mainnet block is than a devnet block, for the replay projection: the devnet averages a few
 * transactions per block, a mainnet block of the DEX era tens, and several times the bytes. The mainnet side is read from the real recorded
 * mainnet blocks of the shared fixtures (Ogmios v6 JSON, `fixtures/chain/ogmios/real`, the Alonzo era and later
 * only, the span the projection replays); a sample of a few blocks, so the weight is an estimate, labelled as such.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BLOCKS, TRANSACTIONS } from '../mongo/collections/chain.js';
import type { Store } from '../mongo/store.js';

const REAL = new URL('../../shared/fixtures/chain/ogmios/real/', import.meta.url);
/** Eras whose blocks can carry Plutus scripts: DEX history starts with Alonzo. */
const PLUTUS_ERAS = new Set(['alonzo', 'babbage', 'conway']);

export interface TxSample {
  blocks: number;
  txs: number;
  /** The blocks' own sizes (Ogmios `size.bytes`: the block body as serialised on chain), summed. */
  bytes: number;
}

/** The fields of a recorded Ogmios block the sample reads. */
type RecordedBlock = { era?: string; transactions?: unknown[]; size?: { bytes?: number } };

/** Transactions and bytes of the recorded mainnet blocks of the Plutus eras (null when the fixtures are not beside the checkout). */
export function mainnetTxSample(): TxSample | null {
  let files: string[];
  try {
    files = readdirSync(fileURLToPath(REAL)).filter((f) => f.endsWith('.json'));
  } catch {
    return null;
  }
  const sample = { blocks: 0, txs: 0, bytes: 0 };
  for (const f of files) {
    // Either a bare `block` object or a whole RollForward envelope (`result.block`).
    const j = JSON.parse(readFileSync(new URL(f, REAL), 'utf8')) as RecordedBlock & {
      result?: { block?: RecordedBlock };
    };
    const block = j.result?.block ?? j;
    if (!PLUTUS_ERAS.has(block.era ?? '')) continue;
    sample.blocks += 1;
    sample.txs += block.transactions?.length ?? 0;
    sample.bytes += block.size?.bytes ?? 0;
  }
  return sample.blocks ? sample : null;
}

/**
 * Transactions, blocks and block bytes the sync indexed into `store`. The devnet's blocks grow as its history does
 * (3.8 KB → 4.9 KB on average over the first 48 h, at a flat ~6 transactions per block), so blocks/s at two
 * history sizes compares different work; chain bytes per second does not.
 */
export async function storeTxSample(store: Store): Promise<TxSample> {
  const [blocks, txs] = await Promise.all([
    store.collection(BLOCKS).find('byHeight'),
    store.collection(TRANSACTIONS).count('_id'),
  ]);
  return { blocks: blocks.length, txs, bytes: blocks.reduce((n, b) => n + b.size, 0) };
}

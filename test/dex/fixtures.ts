/**
 * Loaders for the shared, read-only fixtures, turned into the Ogmios shapes the DEX parsers read:
 * real Ogmios blocks (big-number-safe), the CSL summary of mainnet block 12069665, and the iris test transactions.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { safeJSON } from '@cardano-ogmios/client';
import type { Block, OutputReference, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';

export const FIXTURES = path.resolve(process.cwd(), '../shared/fixtures');

export function readJson<T = unknown>(rel: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURES, rel), 'utf8')) as T;
}

const blocks = new Map<number, Block>();
const BLOCK_FILES: Record<number, string> = {
  11321965: 'block.mainnet-conway-11321965-slot144711632.koralabs.json',
  11322286: 'block.mainnet-conway-11322286-slot144718140.koralabs.json',
  11322313: 'block.mainnet-conway-11322313-slot144718597.koralabs.json',
};

export function realBlock(height: 11321965 | 11322286 | 11322313): Block {
  let b = blocks.get(height);
  if (!b) {
    const raw = readFileSync(path.join(FIXTURES, 'chain/ogmios/real', BLOCK_FILES[height] as string), 'utf8');
    b = safeJSON.parse(raw) as Block;
    blocks.set(height, b);
  }
  return b;
}

export function realTx(height: 11321965 | 11322286 | 11322313, index: number): Transaction {
  const tx = realBlock(height).transactions?.[index];
  if (!tx) throw new Error(`no tx ${index} in block ${height}`);
  return tx;
}

/** Every output of the three real blocks, by `txId#index`: the resolver for txs spending earlier outputs. */
export function realOutputIndex(): Map<string, TxOutput> {
  const m = new Map<string, TxOutput>();
  for (const h of [11321965, 11322286, 11322313] as const)
    for (const tx of realBlock(h).transactions ?? []) tx.outputs.forEach((o, i) => m.set(`${tx.id}#${i}`, o));
  return m;
}

export const resolverOf =
  (m: Map<string, TxOutput>) =>
  (ref: OutputReference): TxOutput | null =>
    m.get(`${ref.transaction.id}#${ref.index}`) ?? null;

// ---- CSL summary of mainnet block 12069665 -----------------------------------------------------------------

interface CslOutput {
  address: string;
  lovelace: string;
  assets: Array<{ policyId: string; assetName: string; quantity: string }>;
  datumHash: string | null;
  inlineDatum: string | null;
}
interface CslTx {
  index: number;
  id: string;
  valid: boolean;
  inputs: string[];
  outputs: CslOutput[];
  mint: Array<{ policyId: string; assetName: string; quantity: string }>;
  withdrawals: Array<{ rewardAccount: string; lovelace: string }>;
}

function cslOutput(o: CslOutput): TxOutput {
  const value: Value = { ada: { lovelace: BigInt(o.lovelace) } };
  for (const a of o.assets) {
    const p = (value[a.policyId] ??= {});
    p[a.assetName] = BigInt(a.quantity);
  }
  const out: TxOutput = { address: o.address, value };
  if (o.inlineDatum) out.datum = o.inlineDatum;
  if (o.datumHash) out.datumHash = o.datumHash;
  return out;
}

export function block12069665(): Transaction[] {
  const s = readJson<{ txs: CslTx[] }>('chain/expected/mainnet-conway-12069665.csl-summary.json');
  return s.txs.map((t) => {
    const mint: Record<string, Record<string, bigint>> = {};
    for (const m of t.mint) (mint[m.policyId] ??= {})[m.assetName] = BigInt(m.quantity);
    return {
      id: t.id,
      spends: t.valid ? 'inputs' : 'collaterals',
      inputs: t.inputs.map((r) => {
        const [id, ix] = r.split('#') as [string, string];
        return { transaction: { id }, index: Number(ix) };
      }),
      outputs: t.outputs.map(cslOutput),
      mint,
      withdrawals: Object.fromEntries(
        t.withdrawals.map((w) => [w.rewardAccount, { ada: { lovelace: BigInt(w.lovelace) } }]),
      ),
    };
  });
}

// ---- iris fixtures ---------------------------------------------------------------------------------------------

export interface IrisOutput {
  index: number;
  toAddress: string;
  datum: string | null;
  lovelaceBalance: string | number;
  assetBalances: Array<{ asset: { unit: string }; quantity: string | number }>;
}
export interface IrisItem {
  kind: 'transaction' | 'expected';
  name: string | null;
  test: string | null;
  value: { hash: string; outputs: IrisOutput[] } & Record<string, unknown>;
}

export function irisItems(file: string): IrisItem[] {
  return readJson<IrisItem[]>(`dex/iris/${file}`);
}

/** iris puts a 64-hex datum hash or CBOR in `datum`; only CBOR becomes an inline datum. */
export function irisOutput(o: IrisOutput): TxOutput {
  const value: Value = { ada: { lovelace: BigInt(o.lovelaceBalance) } };
  for (const a of o.assetBalances) {
    const unit = a.asset.unit;
    const p = (value[unit.slice(0, 56)] ??= {});
    p[unit.slice(56)] = BigInt(a.quantity);
  }
  const out: TxOutput = { address: o.toAddress, value };
  if (o.datum && !/^[0-9a-f]{64}$/.test(o.datum)) out.datum = o.datum;
  else if (o.datum) out.datumHash = o.datum;
  return out;
}

/**
 * Test helper: a ledger transaction in CBOR (`[body, witnesses, isValid, auxiliaryData]`) → the Ogmios v6 shape the
 * parsers read (inputs, outputs, fee, mint, witness datums by hash, metadata labels as CBOR). Only the fields the
 * NFT fixtures need; the tx id is blake2b-256 of the body bytes as written.
 */
import type { Transaction } from '../../cardano/chain/types.js';
import { hash256 } from '../../cardano/address.js';
import type { Cbor } from '../../cardano/dex/cbor.js';
import { bytesToHex, decodeCbor, encodeCbor, encodeCborHex } from '../../cardano/dex/cbor.js';
import { decodeTxOutputCbor } from '../../cardano/dex/output-cbor.js';

const field = (m: Cbor, k: number): Cbor | undefined =>
  m.t === 'map' ? m.v.find(([key]) => key.t === 'int' && key.v === BigInt(k))?.[1] : undefined;

/** Sets may be wrapped in tag 258 since Conway. */
const items = (c: Cbor | undefined): Cbor[] => {
  if (!c) return [];
  if (c.t === 'tag') return items(c.v);
  if (c.t !== 'array') throw new Error('expected an array');
  return c.v;
};

export function ledgerTxToOgmios(txCborHex: string): Transaction {
  const tx = decodeCbor(txCborHex);
  if (tx.t !== 'array') throw new Error('a transaction is an array');
  const [body, witnesses, isValid, aux] = tx.v as [Cbor, Cbor, Cbor, Cbor];
  const out: Transaction = {
    id: hash256(encodeCbor(body)),
    spends: isValid.t === 'simple' && isValid.v === false ? 'collaterals' : 'inputs',
    inputs: items(field(body, 0)).map((i) => {
      const [id, ix] = items(i) as [Cbor, Cbor];
      if (id.t !== 'bytes' || ix.t !== 'int') throw new Error('bad input');
      return { transaction: { id: bytesToHex(id.v) }, index: Number(ix.v) };
    }),
    outputs: items(field(body, 1)).map((o) => decodeTxOutputCbor(encodeCborHex(o))),
  };
  const fee = field(body, 2);
  if (fee?.t === 'int') out.fee = { ada: { lovelace: fee.v } };
  const mint = field(body, 9);
  if (mint?.t === 'map') {
    out.mint = {};
    for (const [p, assets] of mint.v) {
      if (p.t !== 'bytes' || assets.t !== 'map') continue;
      const m: Record<string, bigint> = {};
      for (const [n, q] of assets.v) if (n.t === 'bytes' && q.t === 'int') m[bytesToHex(n.v)] = q.v;
      out.mint[bytesToHex(p.v)] = m;
    }
  }
  const datums = items(field(witnesses, 4));
  if (datums.length) out.datums = Object.fromEntries(datums.map((d) => [hash256(encodeCbor(d)), encodeCborHex(d)]));
  if (aux?.t === 'map') {
    const labels: Record<string, { cbor: string }> = {};
    for (const [k, v] of aux.v) if (k.t === 'int') labels[k.v.toString()] = { cbor: encodeCborHex(v) };
    out.metadata = { hash: '', labels };
  }
  return out;
}

/**
 * The handles sync extension: keeps one `handles` document per ADA Handle (mongo/collections/handles.ts) from the
 * handle tokens each block mints, moves and burns. Writes go through the SliceState, so a RollBackward restores the
 * documents exactly from the core's undo journal; there is no rollback code here.
 *
 * Cost: a block is read for the two handle policies only (a key lookup per output and per mint field); blocks
 * without handle tokens prefetch nothing and write nothing. Spent inputs are not read: a handle token leaves the
 * UTxO set only by being burnt (the mint field says so) or by moving to a new output of the same transaction.
 *
 * Per token role (activities/handles/index.ts):
 * - holder (legacy name, (222) user token, NFT subhandle): the output's address is the handle's address;
 * - reference ((100)): its inline datum gives the image, the default-handle flag, og number and rarity;
 * - virtual ((000) subhandle token, kept at a Kora Labs script): the datum's `resolved_addresses.ada` is the address.
 * Burning the holder or virtual token removes the handle; burning only the reference token clears its fields.
 */
import { parseAddress, stakeAddressOf } from '../../cardano/address.js';
import { HANDLES, HANDLES_COLLECTIONS, type HandleDoc } from '../../mongo/collections/handles.js';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { LABEL, withLabel } from '../../cardano/nft/cip67.js';
import type { SyncExtension } from '../sync/extension.js';
import type { SliceState } from '../sync/slice-state.js';
import {
  decodeHandleDatum,
  handleMovementsOf,
  handleOfAsset,
  HANDLE_POLICIES,
  type HandleAsset,
} from '../../cardano/handles.js';

/** What the extension reads and writes (besides the block, which the core provides). */
export const HANDLES_EXTENSION_READS_WRITES = { reads: ['handles'], writes: ['handles'] } as const;

/** One handle token event of a block, in chain order. */
export interface HandleEvent {
  asset: HandleAsset;
  kind: 'mint' | 'burn' | 'move';
  /** The output now holding the token (null for burns) and its `txId#index`. */
  output: TxOutput | null;
  utxo: string | null;
  /** The transaction, for its label 721 metadata on mints. */
  tx: Transaction;
}

/**
 * Handle token events of a block. Valid transactions: their burns, then their outputs (handleMovementsOf). A failed
 * transaction creates only its collateral return (output index `outputs.length`): a handle token in a collateral
 * input moves there.
 */
export function blockHandleEvents(block: Block): HandleEvent[] {
  const out: HandleEvent[] = [];
  for (const tx of block.transactions ?? []) {
    if (tx.spends === 'collaterals') {
      const ret = tx.collateralReturn;
      if (!ret) continue;
      for (const policy of HANDLE_POLICIES)
        for (const [name, q] of Object.entries(ret.value[policy] ?? {})) {
          const asset = q > 0n ? handleOfAsset(policy + name) : null;
          if (asset) out.push({ asset, kind: 'move', output: ret, utxo: `${tx.id}#${tx.outputs.length}`, tx });
        }
      continue;
    }
    for (const m of handleMovementsOf(tx)) {
      const output = m.outputIndex === null ? null : (tx.outputs[m.outputIndex] ?? null);
      out.push({ asset: m.asset, kind: m.kind, output, utxo: output ? `${tx.id}#${m.outputIndex}` : null, tx });
    }
  }
  return out;
}

/** Address facts of a handle's address; Byron or undecodable addresses have no script credential to report. */
function addressFacts(address: string | null): Pick<HandleDoc, 'address' | 'stakeAddress' | 'script'> {
  if (address === null) return { address: null, stakeAddress: null, script: false };
  let script: boolean;
  try {
    script = parseAddress(address).paymentScript;
  } catch {
    script = false;
  }
  return { address, stakeAddress: stakeAddressOf(address), script };
}

/** A new document for a handle first seen through `asset` (any role). */
function emptyDoc(asset: HandleAsset, slot: number): HandleDoc {
  const suffix = asset.assetNameHex.slice(asset.kind === 'legacy' ? 0 : 8);
  const unit = asset.role === 'reference' ? asset.policyId + withLabel(LABEL.nft, suffix) : asset.unit;
  return {
    _id: asset.handle,
    kind: asset.kind,
    root: asset.root,
    policyId: asset.policyId,
    unit,
    address: null,
    stakeAddress: null,
    script: false,
    utxo: null,
    referenceUnit:
      asset.kind === 'cip68' || asset.kind === 'subhandle' ? asset.policyId + withLabel(LABEL.reference, suffix) : null,
    referenceUtxo: null,
    image: null,
    defaultHandle: null,
    ogNumber: null,
    rarity: null,
    mintSlot: null,
    updatedSlot: slot,
  };
}

const text = (v: unknown): string | null => {
  if (typeof v === 'string') return v === '' ? null : v;
  // CIP-25 splits strings longer than 64 bytes into a list of chunks.
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join('') || null;
  return null;
};
const integer = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) ? n : null;
};

/** Fields of the CIP-68 datum ((100) or (000) token) the API shows. */
function datumFields(datum: string | undefined) {
  const d = datum ? decodeHandleDatum(datum) : null;
  if (!d) return null;
  const dflt = d.personalization.default;
  return {
    image: text(d.metadata.image),
    defaultHandle: dflt === undefined ? null : dflt === 1,
    ogNumber: integer(d.metadata.og_number),
    rarity: text(d.metadata.rarity),
    resolvedAda: d.resolvedAda,
  };
}

/** The label 721 entry of a minted handle (keyed by its name, or by the asset name hex in CIP-25 v2). */
function mintMetadata(tx: Transaction, asset: HandleAsset): Record<string, unknown> | null {
  const json = tx.metadata?.labels['721']?.json as Record<string, unknown> | undefined;
  const byPolicy = json?.[asset.policyId] as Record<string, unknown> | undefined;
  const entry = byPolicy?.[asset.handle] ?? byPolicy?.[asset.assetNameHex];
  return entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : null;
}

/** The document after one event (null: the handle is gone). Pure. */
export function applyHandleEvent(prev: HandleDoc | null, e: HandleEvent, slot: number): HandleDoc | null {
  const { asset } = e;
  if (e.kind === 'burn') {
    if (!prev) return null;
    if (asset.role !== 'reference') return null;
    const next = { ...prev, referenceUtxo: null, updatedSlot: slot };
    return next.utxo === null ? null : next;
  }
  const base = prev ?? emptyDoc(asset, slot);
  const output = e.output as TxOutput;
  const mintSlot = e.kind === 'mint' ? slot : base.mintSlot;
  if (asset.role === 'holder') {
    const meta = e.kind === 'mint' && base.image === null ? mintMetadata(e.tx, asset) : null;
    return {
      ...base,
      kind: asset.kind,
      policyId: asset.policyId,
      unit: asset.unit,
      ...addressFacts(output.address),
      utxo: e.utxo,
      ...(meta ? { image: text(meta.image), ogNumber: integer(meta.og_number) ?? base.ogNumber } : {}),
      mintSlot,
      updatedSlot: slot,
    };
  }
  const fields = datumFields(output.datum);
  const shown = fields
    ? {
        image: fields.image ?? base.image,
        defaultHandle: fields.defaultHandle,
        ogNumber: fields.ogNumber,
        rarity: fields.rarity,
      }
    : {};
  if (asset.role === 'reference')
    return { ...base, referenceUnit: asset.unit, referenceUtxo: e.utxo, ...shown, updatedSlot: slot };
  // Virtual subhandle: the holder lives in the datum, the token stays at the script.
  return {
    ...base,
    kind: 'virtual',
    policyId: asset.policyId,
    unit: asset.unit,
    ...addressFacts(fields?.resolvedAda ?? null),
    utxo: e.utxo,
    ...shown,
    mintSlot,
    updatedSlot: slot,
  };
}

/** Applies a block's handle events to the prefetched documents, in chain order. */
export async function applyHandleEvents(state: SliceState, events: readonly HandleEvent[], slot: number) {
  if (events.length === 0) return;
  await state.prefetch(
    HANDLES,
    events.map((e) => e.asset.handle),
  );
  for (const e of events) {
    const id = e.asset.handle;
    const prev = state.get(HANDLES, id);
    const next = applyHandleEvent(prev, e, slot);
    if (next) state.put(HANDLES, next);
    else if (prev) state.remove(HANDLES, id);
  }
}

export function createHandlesExtension(): SyncExtension {
  return {
    name: 'handles',
    collections: HANDLES_COLLECTIONS,
    async applyBlock(state, { block }) {
      await applyHandleEvents(state, blockHandleEvents(block), block.slot ?? 0);
    },
  };
}

/**
 * Ogmios v6 JSON shapes (the subset this service reads), after big-number-safe parsing: lovelace, asset
 * quantities and metadatum integers arrive as `bigint` (they can exceed 2^53 on mainnet); slots and heights stay
 * `number`. Field names follow `cardano.json` of Ogmios v6.14 exactly, so real recorded frames and the devnet's
 * frames go through the same code.
 */

/** `{slot, id}`: `id` is the 32-byte block header hash (hex). Ogmios uses `id`, never `hash`. */
export interface PointObj {
  slot: number;
  id: string;
}
export type Point = PointObj | 'origin';

export interface TipObj extends PointObj {
  height: number;
}
export type Tip = TipObj | 'origin';

/** Lovelace plus `{policyId: {assetNameHex: quantity}}`; the empty asset name is `""`. */
export interface Value {
  ada: { lovelace: bigint };
  [policyId: string]: Record<string, bigint>;
}

export interface OutputReference {
  transaction: { id: string };
  index: number;
}

export interface TxOutput {
  address: string;
  value: Value;
  datumHash?: string;
  /** Inline datum, CBOR hex. */
  datum?: string;
  script?: { language: string; json?: unknown; cbor?: string };
}

export interface Certificate {
  type: string;
  [field: string]: unknown;
}

/**
 * A lovelace-only amount. Ogmios v6.x writes `{ada: {lovelace}}`; earlier v6 releases (e.g. the Mary-era golden
 * frame recorded for Kupo) wrote `{lovelace}`. Read it with `lovelaceOf`.
 */
export type AdaAmount = { ada: { lovelace: bigint } } | { lovelace: bigint };

export interface Transaction {
  id: string;
  /** Which side of a phase-2 validation takes effect: `inputs` (valid) or `collaterals` (script failed). */
  spends: 'inputs' | 'collaterals';
  inputs: OutputReference[];
  references?: OutputReference[];
  collaterals?: OutputReference[];
  collateralReturn?: TxOutput;
  totalCollateral?: AdaAmount;
  outputs: TxOutput[];
  certificates?: Certificate[];
  /** `{ "stake1…": { ada: { lovelace } } }` */
  withdrawals?: Record<string, AdaAmount>;
  fee?: AdaAmount;
  validityInterval?: { invalidBefore?: number; invalidAfter?: number };
  /** `{policyId: {assetNameHex: quantity}}`; negative quantities burn. */
  mint?: Record<string, Record<string, bigint>>;
  network?: string;
  metadata?: { hash: string; labels: Record<string, { json?: unknown; cbor?: string }> };
  proposals?: unknown[];
  votes?: unknown[];
  treasury?: { value?: { ada: { lovelace: bigint } }; donation?: { ada: { lovelace: bigint } } };
  requiredExtraSignatories?: string[];
  signatories?: unknown[];
  redeemers?: unknown[];
  datums?: Record<string, string>;
  scripts?: Record<string, unknown>;
  cbor?: string;
}

export interface Block {
  type: 'praos' | 'bft' | 'ebb';
  era: string;
  id: string;
  /** Previous block id, or `"genesis"`. */
  ancestor: string;
  height: number;
  /** Absent only on Byron epoch boundary blocks. */
  slot?: number;
  size?: { bytes: number };
  issuer?: { verificationKey: string; vrfVerificationKey?: string; [k: string]: unknown };
  protocol?: { version?: { major: number; minor: number; patch?: number }; [k: string]: unknown };
  transactions?: Transaction[];
}

export type ChainEvent =
  { direction: 'forward'; block: Block; tip: Tip } | { direction: 'backward'; point: Point; tip: Tip };

/** Slot ↔ time for a network: Shelley-era slots are 1 s on mainnet and on the devnet. */
export interface NetworkTime {
  /** Unix ms of slot `startSlot`. */
  startTimeMs: number;
  startSlot: number;
  slotLengthMs: number;
  epochLength: number;
  /** Epoch number at `startSlot`. */
  startEpoch: number;
}

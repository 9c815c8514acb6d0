/**
 * Conway governance identifiers, pure.
 *
 * CIP-129 (the bech32 forms explorers and wallets show): a header byte ‖ credential for governance credentials,
 * and the transaction id ‖ index for governance actions:
 *   - DRep:      `drep1…`      header 0x22 (key hash) / 0x23 (script hash), then the 28-byte credential;
 *   - CC hot:    `cc_hot1…`    header 0x02 / 0x03;
 *   - gov action `gov_action1…` = 32-byte transaction id ‖ the proposal's index in the transaction (one byte).
 * CIP-105 (the older DRep form, still printed by cardano-cli): `drep1…` (key) / `drep_script1…` (script) over the
 * bare 28-byte credential. Both DRep forms are accepted on input; CIP-129 is what we write.
 */
import { bech32, hex } from '@scure/base';

const LIMIT = 1023;
const HEX64 = /^[0-9a-f]{64}$/i;
const HEX56 = /^[0-9a-f]{56}$/i;

export interface GovActionRef {
  txId: string;
  index: number;
}

/** `txId#index`: the store's id of a proposal (as Ogmios names it: transaction id and index). */
export const proposalKey = (r: GovActionRef): string => `${r.txId}#${r.index}`;

/** CIP-129 `gov_action1…` of (txId, index); the index must fit the one byte CIP-129 gives it. */
export function govActionBech32(txId: string, index: number): string {
  if (!HEX64.test(txId)) throw new Error('transaction id must be 64 hex characters');
  if (!Number.isInteger(index) || index < 0 || index > 255) throw new Error('proposal index must be 0–255');
  const bytes = new Uint8Array(33);
  bytes.set(hex.decode(txId.toLowerCase()), 0);
  bytes[32] = index;
  return bech32.encode('gov_action', bech32.toWords(bytes), LIMIT);
}

/**
 * A proposal reference from any of its printed forms: `txId#index`, `txId:index` or CIP-129 `gov_action1…`.
 * Null when the text is none of them (malformed, bad checksum, wrong length).
 */
export function parseGovActionRef(text: string): GovActionRef | null {
  const s = text.trim();
  const m = /^([0-9a-fA-F]{64})[#:]([0-9]{1,5})$/.exec(s);
  if (m) {
    const index = Number(m[2]);
    return index <= 65535 ? { txId: (m[1] as string).toLowerCase(), index } : null;
  }
  if (!s.toLowerCase().startsWith('gov_action1')) return null;
  try {
    const d = bech32.decode(s as `${string}1${string}`, LIMIT);
    if (d.prefix !== 'gov_action') return null;
    const bytes = bech32.fromWords(d.words);
    if (bytes.length !== 33) return null;
    return { txId: hex.encode(bytes.subarray(0, 32)), index: bytes[32] as number };
  } catch {
    return null;
  }
}

export interface Credential {
  /** 28-byte hash, hex. */
  hash: string;
  script: boolean;
}

function headed(prefix: string, header: number, cred: Credential): string {
  if (!HEX56.test(cred.hash)) throw new Error('credential must be 56 hex characters');
  const bytes = new Uint8Array(29);
  bytes[0] = header | (cred.script ? 0x03 : 0x02);
  bytes.set(hex.decode(cred.hash.toLowerCase()), 1);
  return bech32.encode(prefix, bech32.toWords(bytes), LIMIT);
}

/** The ids of the two predefined voting options a stake key may delegate its vote to (Ogmios `type`), as listed. */
export const PREDEFINED_DREPS = {
  abstain: 'drep_always_abstain',
  noConfidence: 'drep_always_no_confidence',
} as const;

/** The id of a predefined option by its Ogmios `type` (`abstain`, `noConfidence`); null for anything else. */
export const predefinedDRepId = (type: unknown): string | null =>
  type === 'abstain' || type === 'noConfidence' ? PREDEFINED_DREPS[type] : null;

/** CIP-129 DRep id (`drep1…` with the 0x22/0x23 header). */
export const drepBech32 = (cred: Credential): string => headed('drep', 0x20, cred);

/** CIP-105 DRep id: `drep1…` (key) or `drep_script1…` over the bare credential. */
export function drepLegacyBech32(cred: Credential): string {
  if (!HEX56.test(cred.hash)) throw new Error('credential must be 56 hex characters');
  return bech32.encode(cred.script ? 'drep_script' : 'drep', bech32.toWords(hex.decode(cred.hash)), LIMIT);
}

/** CIP-129 constitutional committee hot credential (`cc_hot1…`), how committee voters are shown. */
export const ccHotBech32 = (cred: Credential): string => headed('cc_hot', 0x00, cred);

/**
 * A DRep credential from `drep1…` (CIP-129, 29 bytes with header; or CIP-105, 28 bytes), `drep_script1…`
 * (CIP-105) or a bare 56-hex key hash. Null when malformed.
 */
export function parseDRepId(text: string): Credential | null {
  const s = text.trim();
  if (HEX56.test(s)) return { hash: s.toLowerCase(), script: false };
  try {
    const d = bech32.decode(s as `${string}1${string}`, LIMIT);
    const bytes = bech32.fromWords(d.words);
    if (d.prefix === 'drep_script') return bytes.length === 28 ? { hash: hex.encode(bytes), script: true } : null;
    if (d.prefix !== 'drep') return null;
    if (bytes.length === 28) return { hash: hex.encode(bytes), script: false };
    if (bytes.length !== 29) return null;
    const header = bytes[0] as number;
    if (header !== 0x22 && header !== 0x23) return null;
    return { hash: hex.encode(bytes.subarray(1)), script: header === 0x23 };
  } catch {
    return null;
  }
}

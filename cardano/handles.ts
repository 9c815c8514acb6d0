/**
 * ADA Handles ($name): which assets are handles, how a user's input maps to the assets to look up, and resolution
 * to the address holding the handle. Pure except `resolveHandle`, which reads holders through a small port.
 *
 * On chain (koralabs handles-public-api / kora-labs-common, see reference/dex-nft-handles.md §4):
 * - policies: `f0ff48bb…` (original, still minting) and `6c32db33…` (decentralised minting); same ids on testnets;
 * - legacy (CIP-25, 2022) handles: asset name = UTF-8 of the name, no CIP-67 label, metadata in label 721;
 * - CIP-68 handles: user token (222) `000de140‖name`, reference token (100) `000643b0‖name` held at a Kora Labs
 *   script with datum `C0[metadata, version, personalisation map]`;
 * - subhandles `sub@root`: NFT subhandles are (222) tokens named `sub@root` held in a wallet like any handle;
 *   virtual subhandles are (000) tokens `00000000‖sub@root` that stay at a Kora Labs script: the holder is the
 *   address in the datum's personalisation map, `resolved_addresses.ada` (address bytes);
 * - (001) `00001070‖root` tokens hold a root's subhandle settings and are not handles.
 * The handle's address is the address of the UTxO currently holding its token (a burn removes the handle; a
 * rollback restores the previous holder, as the UTxO set does).
 */
import { parseAddress, stakeAddressOf } from './address.js';
import type { Transaction, TxOutput } from './chain/types.js';
import { bytesToHex, hexToBytes } from './dex/cbor.js';
import type { PlutusData } from './dex/plutus-data.js';
import { asConstr, decodePlutusData } from './dex/plutus-data.js';
import { addressFromBytes } from './dex/output-cbor.js';
import { attempt } from './dex/utxo.js';
import { LABEL, splitLabel, withLabel } from './nft/cip67.js';
import { bytesAsText, isMap, keyText, mapGet, metadatumFromPlutus } from './nft/metadatum.js';

export const HANDLE_POLICY = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';
export const HANDLE_DEMI_POLICY = '6c32db33a422e0bc2cb535bb850b5a6e9a9572222056d6ddc9cbc26e';
export const HANDLE_POLICIES = [HANDLE_POLICY, HANDLE_DEMI_POLICY] as const;

/** Kora Labs' rule: a root is 1-28 of `a-z 0-9 _ - .`; `sub@root` is 3-28 characters in all. */
const HANDLE_RE = /^(?:[0-9a-z_.-]{1,28}|(?=.{3,28}$)[0-9a-z_.-]+@[0-9a-z_.-]+)$/;

export type HandleKind = 'legacy' | 'cip68' | 'subhandle' | 'virtual';

export interface HandleAsset {
  /** The handle without `$`, e.g. `b-263-54` or `sub@root`. */
  handle: string;
  kind: HandleKind;
  policyId: string;
  assetNameHex: string;
  unit: string;
  /**
   * `holder` = the token whose UTxO address is the handle's address (legacy, 222, NFT subhandle);
   * `reference` = the (100) token carrying the CIP-68 datum; `virtual` = the (000) token whose datum names the holder.
   */
  role: 'holder' | 'reference' | 'virtual';
  /** Root handle of a subhandle, else the handle itself. */
  root: string;
}

export const isHandleName = (name: string): boolean => HANDLE_RE.test(name);

/** What an asset unit is as an ADA Handle, or null when it is not one. */
export function handleOfAsset(unit: string): HandleAsset | null {
  const u = unit.toLowerCase();
  const policyId = u.slice(0, 56);
  if (!(HANDLE_POLICIES as readonly string[]).includes(policyId)) return null;
  const assetNameHex = u.slice(56);
  if (!/^([0-9a-f]{2}){1,32}$/.test(assetNameHex)) return null;
  const labelled = splitLabel(assetNameHex);
  const name = bytesAsText(hexToBytes(labelled?.suffixHex ?? assetNameHex));
  if (name === null || !isHandleName(name)) return null;
  const sub = name.includes('@');
  const base = { handle: name, policyId, assetNameHex, unit: u, root: sub ? name.slice(name.indexOf('@') + 1) : name };
  if (!labelled) return sub ? null : { ...base, kind: 'legacy', role: 'holder' };
  switch (labelled.label) {
    case LABEL.nft:
      return { ...base, kind: sub ? 'subhandle' : 'cip68', role: 'holder' };
    case LABEL.reference:
      return { ...base, kind: sub ? 'subhandle' : 'cip68', role: 'reference' };
    case LABEL.virtual:
      return sub ? { ...base, kind: 'virtual', role: 'virtual' } : null;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// User input

export class HandleInputError extends Error {}

export interface HandleQuery {
  /** Normalised lookup key: lowercase, without `$`. */
  handle: string;
  root: string;
  /** The part before `@` for a subhandle, else null. */
  sub: string | null;
}

/**
 * `$Name`, `name` or `sub@root` → the normalised handle. Handles are lowercase on chain, so input is lowercased;
 * anything else that breaks the naming rule is rejected with a message saying which rule.
 */
export function parseHandleInput(input: string): HandleQuery {
  const raw = input.trim();
  const handle = (raw.startsWith('$') ? raw.slice(1) : raw).toLowerCase();
  if (handle === '') throw new HandleInputError('empty handle: expected $name, name or sub@root');
  if (handle.includes('$')) throw new HandleInputError('"$" may only prefix the handle');
  const parts = handle.split('@');
  if (parts.length > 2) throw new HandleInputError('a subhandle has exactly one "@" (sub@root)');
  if (!/^[0-9a-z_.@-]+$/.test(handle))
    throw new HandleInputError('handles use only a-z, 0-9, "_", "-", "." (and "@" in sub@root)');
  if (parts.length === 2) {
    const [sub, root] = parts as [string, string];
    if (sub === '' || root === '') throw new HandleInputError('sub@root needs both a sub and a root');
    if (handle.length < 3 || handle.length > 28) throw new HandleInputError('sub@root must be 3 to 28 characters');
    if (root.length > 28) throw new HandleInputError('a root handle is at most 28 characters');
    return { handle, root, sub };
  }
  if (handle.length > 28) throw new HandleInputError('a handle is 1 to 28 characters');
  return { handle, root: handle, sub: null };
}

const utf8Hex = (s: string): string => bytesToHex(new TextEncoder().encode(s));

/**
 * Units that can carry `handle`, in lookup order: per policy, the legacy name and the (222) token for a root;
 * the (222) NFT subhandle and the (000) virtual subhandle for `sub@root`.
 */
export function handleUnits(q: HandleQuery): Array<{ unit: string; kind: HandleKind }> {
  const hex = utf8Hex(q.handle);
  const out: Array<{ unit: string; kind: HandleKind }> = [];
  for (const policy of HANDLE_POLICIES) {
    if (q.sub === null) {
      out.push({ unit: policy + hex, kind: 'legacy' });
      out.push({ unit: policy + withLabel(LABEL.nft, hex), kind: 'cip68' });
    } else {
      out.push({ unit: policy + withLabel(LABEL.nft, hex), kind: 'subhandle' });
      out.push({ unit: policy + withLabel(LABEL.virtual, hex), kind: 'virtual' });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Datums

export interface HandleDatum {
  /** Field 0 as plain text fields (`name` is `$handle`, `image`, `og_number`, `rarity`, `length`, …). */
  metadata: Record<string, unknown>;
  version: number;
  /** Field 2, the personalisation map (`default`, `last_update_address`, `resolved_addresses`, …). */
  personalization: Record<string, unknown>;
  /** `resolved_addresses.ada` as bech32 (virtual subhandles keep their holder here), else null. */
  resolvedAda: string | null;
}

/** Decode a handle's CIP-68 datum (the (100) or (000) token's inline datum); null when it has another shape. */
export function decodeHandleDatum(datum: string | PlutusData): HandleDatum | null {
  return attempt(() => {
    const c = asConstr(typeof datum === 'string' ? decodePlutusData(datum) : datum, 0, 2);
    const meta = metadatumFromPlutus(c.fields[0] as PlutusData);
    const pz = c.fields[2] ? metadatumFromPlutus(c.fields[2]) : null;
    const plain = (m: typeof meta | null): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      if (isMap(m)) for (const [k, v] of m.entries) out[keyText(k)] = plainField(v);
      return out;
    };
    const ada = mapGet(mapGet(pz ?? undefined, 'resolved_addresses'), 'ada');
    let resolvedAda: string | null = null;
    if (ada instanceof Uint8Array && ada.length > 0) resolvedAda = addressFromBytes(ada);
    else if (typeof ada === 'string' && /^(addr|addr_test)1/.test(ada)) resolvedAda = ada;
    const version = c.fields[1];
    return {
      metadata: plain(meta),
      version: typeof version === 'bigint' ? Number(version) : 0,
      personalization: plain(pz),
      resolvedAda,
    };
  });
}

/** Personalisation values: address-like bytes stay hex (they are not text), text bytes become strings. */
function plainField(v: ReturnType<typeof metadatumFromPlutus>): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return bytesAsText(v) ?? bytesToHex(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(plainField);
  const out: Record<string, unknown> = {};
  for (const [k, x] of v.entries) out[keyText(k)] = plainField(x);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Movements in a transaction

export interface HandleMovement {
  asset: HandleAsset;
  /** `mint`/`burn` from the tx's mint field; `move` = the token sits in a new output of this tx. */
  kind: 'mint' | 'burn' | 'move';
  /** Output now holding the token; null for burns. */
  outputIndex: number | null;
  /** Output address (for `virtual`/`reference` tokens: the Kora Labs script, not the holder). */
  address: string | null;
}

/**
 * Handle tokens created, burnt or moved by a valid tx. A sync applies them in order: the latest output holding a
 * `holder` token is the handle's address; for `virtual` tokens the holder is `decodeHandleDatum(output.datum)`.
 */
export function handleMovementsOf(tx: Transaction): HandleMovement[] {
  if (tx.spends !== 'inputs') return [];
  const out: HandleMovement[] = [];
  for (const policy of HANDLE_POLICIES)
    for (const [name, q] of Object.entries(tx.mint?.[policy] ?? {})) {
      const asset = q < 0n ? handleOfAsset(policy + name) : null;
      if (asset) out.push({ asset, kind: 'burn', outputIndex: null, address: null });
    }
  tx.outputs.forEach((o, i) => {
    for (const policy of HANDLE_POLICIES)
      for (const [name, q] of Object.entries(o.value[policy] ?? {})) {
        const asset = q > 0n ? handleOfAsset(policy + name) : null;
        if (!asset) continue;
        const minted = (tx.mint?.[policy]?.[name] ?? 0n) > 0n;
        out.push({ asset, kind: minted ? 'mint' : 'move', outputIndex: i, address: o.address });
      }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution

/** Where a unit currently sits (the UTxO set): the holding output's address and inline datum. */
export interface HandleHolderSource {
  holderOf(unit: string): Promise<Pick<TxOutput, 'address' | 'datum'> | null>;
}

export interface ResolvedHandle {
  handle: string;
  kind: HandleKind;
  /** The address holding the handle (for a virtual subhandle: the address in its datum). */
  address: string;
  stakeAddress: string | null;
  /** True when the address's payment credential is a script (e.g. a multisig or a marketplace contract). */
  script: boolean;
  assetUnit: string;
}

/**
 * Resolve user input to the handle's holder. Throws HandleInputError on malformed input; null when no token of the
 * handle is in the UTxO set (never minted, or burnt) or a virtual subhandle's datum names no address.
 */
export async function resolveHandle(input: string, source: HandleHolderSource): Promise<ResolvedHandle | null> {
  const q = parseHandleInput(input);
  for (const { unit, kind } of handleUnits(q)) {
    const holder = await source.holderOf(unit);
    if (!holder) continue;
    const address =
      kind === 'virtual' ? (holder.datum ? decodeHandleDatum(holder.datum)?.resolvedAda : null) : holder.address;
    if (!address) return null;
    let script: boolean;
    try {
      script = parseAddress(address).paymentScript;
    } catch {
      // A Byron address or garbage in a virtual subhandle's datum: no payment script to report.
      script = false;
    }
    return { handle: q.handle, kind, address, stakeAddress: stakeAddressOf(address), script, assetUnit: unit };
  }
  return null;
}

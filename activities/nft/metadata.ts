/**
 * NFT metadata from the chain, normalised: CIP-25 (transaction metadata label 721, written by the mint tx) and
 * CIP-68 (the inline datum `C0[metadata map, version, extra]` of the UTxO holding the (100) reference token).
 * Pure: callers pass Ogmios transactions/outputs; nothing is fetched.
 *
 * Which metadata is current: CIP-25 = the latest positive mint of the asset that carries label 721 (a re-mint
 * can update it); CIP-68 = the datum of the output currently holding the (100) token (moving it with a new datum
 * updates it; a rollback restores the previous holder's datum). A CIP-68 NFT whose mint also carries 721
 * (ADA Handles do) is described by its datum; the 721 entry is only a fallback.
 */
import type { Transaction, TxOutput } from '../../cardano/chain/types.js';
import { bytesToHex, CborError } from '../../cardano/dex/cbor.js';
import { DEX_TOKEN_POLICIES, findPoolAdapter } from '../../cardano/dex/index.js';
import { HANDLE_POLICIES } from '../../cardano/handles.js';
import type { PlutusData } from '../../cardano/dex/plutus-data.js';
import { PlutusShapeError, asConstr, asInt, decodePlutusData } from '../../cardano/dex/plutus-data.js';
import { LABEL, splitLabel, withLabel } from '../../cardano/nft/cip67.js';
import type { Metadatum, PlainValue } from '../../cardano/nft/metadatum.js';
import { bytesAsText, isMap, labelOf, mapGet, metadatumFromPlutus, toPlain } from '../../cardano/nft/metadatum.js';

export interface NftFile {
  name: string | null;
  mediaType: string | null;
  /** URI, chunks joined. */
  src: string;
}

export interface NftMetadata {
  policyId: string;
  assetNameHex: string;
  /** `policyId ‖ assetNameHex`. */
  unit: string;
  /** `name` from the metadata; when absent, the asset name as UTF-8 (CIP-67 label removed), else its hex. */
  name: string;
  /** Image URI with chunks joined; `ipfs://…`, `ar://…`, `data:…` kept as written. Null when absent. */
  image: string | null;
  mediaType: string | null;
  description: string | null;
  files: NftFile[];
  /**
   * Every other scalar field, plus the entries of nested `attributes`/`traits`/`properties` maps and of
   * OpenSea-style `[{trait_type, value}]` lists. Lists of scalars are joined with ", ".
   */
  attributes: Record<string, string | number>;
  standard: 'cip25' | 'cip68';
  /** CIP-25 `version` (1 when absent) or the CIP-68 datum version (1..4). */
  version: number;
}

/** A policy id (56 hex) as a collection key: collections are keyed by minting policy, lowercase. */
export function collectionOf(policyId: string): string {
  const p = policyId.toLowerCase();
  if (!/^[0-9a-f]{56}$/.test(p)) throw new RangeError(`a policy id is 56 hex characters: ${policyId}`);
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Field normalisation shared by CIP-25 and CIP-68

const CORE = new Set(['name', 'image', 'mediaType', 'description', 'files']);
const NESTED_TRAITS = new Set(['attributes', 'traits', 'properties']);

/** Text of a scalar or of a list of chunks (CIP-25 splits strings over 64 bytes into arrays). */
function joined(v: PlainValue | undefined): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join('');
  return null;
}

function addAttribute(out: Record<string, string | number>, key: string, v: PlainValue): void {
  // A trait name is whatever the minter wrote: defined as an own field, so `__proto__` is a trait like any other
  // (assignment would set the object's prototype instead and drop it).
  const set = (value: string | number) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  if (typeof v === 'string' || typeof v === 'number') set(v);
  else if (Array.isArray(v)) {
    // OpenSea style: [{trait_type, value}]
    if (v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x) && 'trait_type' in x)) {
      for (const x of v as Array<Record<string, PlainValue>>) addAttribute(out, String(x.trait_type), x.value ?? '');
      return;
    }
    if (v.every((x) => typeof x === 'string' || typeof x === 'number')) set(v.join(', '));
    else set(JSON.stringify(v));
  } else {
    for (const [k, x] of Object.entries(v)) addAttribute(out, NESTED_TRAITS.has(key) ? k : `${key}.${k}`, x);
  }
}

/** The readable form of an asset name: UTF-8 after any CIP-67 label, else hex. */
export function displayName(assetNameHex: string): string {
  const suffix = splitLabel(assetNameHex)?.suffixHex ?? assetNameHex;
  const bytes = Uint8Array.from(suffix.match(/../g) ?? [], (h) => parseInt(h, 16));
  return bytesAsText(bytes) ?? assetNameHex;
}

export function normaliseNft(
  fields: Record<string, PlainValue>,
  policyId: string,
  assetNameHex: string,
  standard: NftMetadata['standard'],
  version: number,
): NftMetadata {
  const files: NftFile[] = [];
  if (Array.isArray(fields.files))
    for (const f of fields.files) {
      if (typeof f !== 'object' || f === null || Array.isArray(f)) continue;
      const src = joined(f.src);
      if (src !== null) files.push({ name: joined(f.name), mediaType: joined(f.mediaType), src });
    }
  const attributes: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(fields)) if (!CORE.has(k)) addAttribute(attributes, k, v);
  return {
    policyId,
    assetNameHex,
    unit: policyId + assetNameHex,
    name: joined(fields.name) ?? displayName(assetNameHex),
    image: joined(fields.image),
    mediaType: joined(fields.mediaType),
    description: joined(fields.description),
    files,
    attributes,
    standard,
    version,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// CIP-25

/** Mint of a tx, `{policy: {assetNameHex: quantity}}`: tells which asset a CIP-25 key means. */
export type MintMap = Record<string, Record<string, bigint>>;

function policyKey(k: Metadatum): string | null {
  if (k instanceof Uint8Array) {
    if (k.length === 28) return bytesToHex(k);
    // CIP-68 v4 datums hold everything as bytes; the policy may be the hex text's bytes rather than the raw id.
    const text = bytesAsText(k);
    return text !== null && /^[0-9a-fA-F]{56}$/.test(text) ? text.toLowerCase() : null;
  }
  if (typeof k !== 'string') return null;
  const s = k.toLowerCase().replace(/^0x/, '');
  return /^[0-9a-f]{56}$/.test(s) ? s : null;
}

const utf8Hex = (s: string): string => bytesToHex(new TextEncoder().encode(s));

/**
 * Candidate asset-name hex strings for a CIP-25 asset key, most likely first. v2 keys are bytes; v1 keys are
 * meant to be UTF-8 text, but many mints (ADA Handle's CIP-68 mints among them) write the hex name as text.
 */
function assetKeyCandidates(k: Metadatum, version: number): string[] {
  if (k instanceof Uint8Array) return [bytesToHex(k)];
  if (typeof k !== 'string') return [];
  const asHex = k.toLowerCase().replace(/^0x/, '');
  const isHex = /^([0-9a-f]{2}){0,32}$/.test(asHex);
  const text = utf8Hex(k);
  const out = version >= 2 || k.startsWith('0x') ? [asHex, text] : [text, asHex];
  return out.filter((h, i) => (h === text || isHex) && h.length <= 64 && out.indexOf(h) === i);
}

/**
 * All assets described by a label-721 value. With `mint`, each key resolves to the asset actually minted (and
 * keys naming no minted asset are dropped); without it, v1 keys are read as UTF-8 and v2 keys as bytes.
 */
export function cip25Entries(label721: Metadatum, mint?: MintMap): NftMetadata[] {
  if (!isMap(label721)) return [];
  const v = mapGet(label721, 'version');
  // Written as an integer by the CIP, and as text ("2.0", "1.0") by many minting tools.
  const version = typeof v === 'bigint' ? Number(v) : typeof v === 'string' && /^\d(\.0+)?$/.test(v) ? Number(v) : 1;
  const out: NftMetadata[] = [];
  for (const [pk, assets] of label721.entries) {
    const policyId = policyKey(pk);
    if (policyId === null || !isMap(assets)) continue;
    for (const [ak, meta] of assets.entries) {
      if (!isMap(meta)) continue;
      const candidates = assetKeyCandidates(ak, version);
      const minted = mint?.[policyId];
      const assetNameHex = mint ? candidates.find((c) => minted?.[c] !== undefined) : candidates[0];
      if (assetNameHex === undefined) continue;
      const fields = toPlain(meta) as Record<string, PlainValue>;
      out.push(normaliseNft(fields, policyId, assetNameHex, 'cip25', version));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// CIP-68

export interface Cip68Datum {
  /** Metadata of the user token; `assetNameHex` is the user token's name (label `userLabel`). */
  metadata: NftMetadata;
  /** Datum field 1. */
  version: number;
  /** Datum field 2, free-form (ADA Handle keeps its personalisation map here). */
  extra: PlutusData | null;
}

/**
 * Decode the datum of a (100) reference output. `referenceAssetNameHex` is the reference token's name
 * (`000643b0‖suffix`); the metadata is attributed to `userLabel‖suffix` (222 for NFTs). Throws
 * PlutusShapeError when the datum is not `C0[map, int, …]`.
 */
export function cip68FromDatum(
  datum: string | PlutusData,
  policyId: string,
  referenceAssetNameHex: string,
  userLabel: number = LABEL.nft,
): Cip68Datum {
  const d = typeof datum === 'string' ? decodePlutusData(datum) : datum;
  const split = splitLabel(referenceAssetNameHex);
  if (!split || split.label !== LABEL.reference) throw new PlutusShapeError('not a (100) reference asset name');
  const c = asConstr(d, 0, 2);
  const meta = metadatumFromPlutus(c.fields[0] as PlutusData);
  if (!isMap(meta)) throw new PlutusShapeError('CIP-68 metadata must be a map');
  const version = Number(asInt(c.fields[1]));
  const userName = withLabel(userLabel, split.suffixHex);
  const extra = c.fields[2] ?? null;
  // Version 4 may nest a CIP-25 style {"721": {policy: {asset: metadata}}} map: its (single) entry is the metadata.
  const nested = mapGet(meta, '721');
  const inner = nested ? cip25Entries(nested)[0] : undefined;
  if (inner)
    return {
      metadata: { ...inner, policyId, assetNameHex: userName, unit: policyId + userName, standard: 'cip68', version },
      version,
      extra,
    };
  const fields = toPlain(meta) as Record<string, PlainValue>;
  return {
    metadata: normaliseNft(fields, policyId, userName, 'cip68', version),
    version,
    extra,
  };
}

export interface Cip68Reference {
  /** Where the reference token now sits: the datum here is the current metadata. */
  outputIndex: number;
  referenceUnit: string;
  /** The user token this metadata describes. */
  userUnit: string;
  datum: Cip68Datum;
}

/**
 * Every output of `tx` holding a (100) reference token with a readable inline datum, attributed to the (222)
 * user token. A sync keeps the latest per `userUnit`: this is both the mint-time metadata and every later update.
 */
export function cip68ReferencesOf(tx: Transaction): Cip68Reference[] {
  if (tx.spends !== 'inputs') return [];
  const out: Cip68Reference[] = [];
  tx.outputs.forEach((o, i) => {
    if (!o.datum) return;
    for (const ref of referenceTokensIn(o)) {
      try {
        const datum = cip68FromDatum(o.datum, ref.policyId, ref.assetNameHex);
        out.push({
          outputIndex: i,
          referenceUnit: ref.policyId + ref.assetNameHex,
          userUnit: datum.metadata.unit,
          datum,
        });
      } catch (e) {
        // Not CIP-68 metadata: another shape, or a datum the CBOR reader refuses (nested past its 256 levels; the
        // ledger bounds nesting only by the transaction size, and anyone can lock a (100)-named token of their own
        // policy under any datum). The output is simply no metadata, as for any other shape.
        if (!(e instanceof PlutusShapeError) && !(e instanceof TypeError) && !(e instanceof CborError)) throw e;
      }
    }
  });
  return out;
}

function referenceTokensIn(o: TxOutput): Array<{ policyId: string; assetNameHex: string }> {
  const out: Array<{ policyId: string; assetNameHex: string }> = [];
  for (const [policyId, assets] of Object.entries(o.value)) {
    if (policyId === 'ada') continue;
    for (const [name, q] of Object.entries(assets as Record<string, bigint>))
      if (q > 0n && splitLabel(name)?.label === LABEL.reference) out.push({ policyId, assetNameHex: name });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Mints and burns

export interface NftMint {
  unit: string;
  policyId: string;
  assetNameHex: string;
  /** +1 = mint, −1 = burn. */
  quantity: bigint;
  standard: NftMetadata['standard'];
  /** From this tx (721 entry, or the (100) datum output for CIP-68); absent for burns, re-mints of a known NFT
   * without a 721 entry, and CIP-68 mints whose reference token is not created here. */
  metadata?: NftMetadata;
}

export interface NftMintOptions {
  /**
   * A burn (−1), or a mint (+1) without a 721 entry, of an asset without a CIP-67 label is an NFT burn or mint only
   * if the caller already knows the unit as an NFT.
   */
  isKnownNft?: (unit: string) => boolean;
}

/**
 * Policies whose quantity-1 tokens are not NFTs of a collection: the DEXes' own tokens (a SundaeSwap V3 pool NFT is
 * a CIP-68 (222) token, one per pool; Minswap, WingRiders and MuesliSwap pool/validity NFTs are quantity-1 mints
 * too) and ADA Handles (their own feature: /wallet and resolve_handle), even though both are unique tokens.
 */
export const NOT_NFT_POLICIES: ReadonlySet<string> = new Set([...DEX_TOKEN_POLICIES, ...HANDLE_POLICIES]);

/** Units the tx puts into a DEX pool output: per-pool identity tokens (Splash mints one policy per pool). */
function unitsInPools(tx: Transaction): Set<string> {
  const out = new Set<string>();
  for (const o of tx.outputs)
    if (findPoolAdapter(o))
      for (const [policyId, assets] of Object.entries(o.value)) {
        if (policyId === 'ada') continue;
        for (const name of Object.keys(assets as Record<string, bigint>)) out.add(policyId + name);
      }
  return out;
}

/**
 * NFT mints and burns of a valid tx. An NFT mint = quantity 1 of an asset named by this tx's label 721 (CIP-25),
 * or quantity 1 of a CIP-67 (222) user token (CIP-68). (100) reference tokens, (333) FTs and (444) RFTs are not
 * NFTs; quantities other than ±1 are fungible. Neither are tokens of `NOT_NFT_POLICIES` (DEX pool/LP tokens, ADA
 * Handles) nor a token the tx puts into a DEX pool output (a pool's identity token). Failed txs
 * (`spends: "collaterals"`) mint nothing.
 */
export function nftMintsOf(tx: Transaction, opts: NftMintOptions = {}): NftMint[] {
  if (tx.spends !== 'inputs' || !tx.mint) return [];
  const l721 = labelOf(tx.metadata, 721);
  const cip25 = new Map((l721 ? cip25Entries(l721, tx.mint) : []).map((m) => [m.unit, m]));
  const cip68 = new Map(cip68ReferencesOf(tx).map((r) => [r.userUnit, r.datum.metadata]));
  let inPools: Set<string> | null = null;
  const out: NftMint[] = [];
  for (const [policyId, assets] of Object.entries(tx.mint))
    for (const [assetNameHex, quantity] of Object.entries(assets)) {
      if (quantity !== 1n && quantity !== -1n) continue;
      if (NOT_NFT_POLICIES.has(policyId)) continue;
      const unit = policyId + assetNameHex;
      if ((inPools ??= unitsInPools(tx)).has(unit)) continue;
      const label = splitLabel(assetNameHex)?.label;
      if (label === LABEL.nft) {
        const metadata = quantity > 0n ? (cip68.get(unit) ?? cip25.get(unit)) : undefined;
        out.push({ unit, policyId, assetNameHex, quantity, standard: 'cip68', ...(metadata ? { metadata } : {}) });
        continue;
      }
      if (label === LABEL.reference || label === LABEL.ft || label === LABEL.rft) continue;
      const metadata = cip25.get(unit);
      if (quantity > 0n && metadata) out.push({ unit, policyId, assetNameHex, quantity, standard: 'cip25', metadata });
      // A known NFT minted again without a 721 entry (after a burn) is still a mint: it keeps the metadata of its
      // latest mint that carried one (CIP-25: the latest 721-carrying mint is the valid metadata).
      else if (metadata || opts.isKnownNft?.(unit))
        out.push({ unit, policyId, assetNameHex, quantity, standard: 'cip25' });
    }
  return out;
}

/**
 * CIP-68 (333) fungible-token metadata: the inline datum of the UTxO holding the (100) reference NFT
 * (`policy ‖ 000643b0 ‖ suffix`) is `C0[ metadata Map, version Int, extra ]`, with UTF-8 byte-string keys
 * `name, description, ticker, url, decimals (int), logo`. Text values may be one byte string or a list of chunks
 * (as CIP-25 images are). Pure.
 */
import type { TokenDoc } from '../../mongo/collections/market.js';
import { attempt } from '../../cardano/dex/utxo.js';
import { decodePlutusData, type PlutusData } from '../../cardano/dex/plutus-data.js';
import { cip68FtOfReference } from '../../cardano/units.js';
import { CIP67_FT } from './constants.js';

export type Cip68Metadata = NonNullable<TokenDoc['cip68']>;

const utf8 = new TextDecoder('utf-8');

function text(d: PlutusData | undefined): string | null {
  if (d instanceof Uint8Array) return utf8.decode(d);
  if (d && typeof d === 'object' && 'list' in d) {
    const parts = d.list.map((x) => (x instanceof Uint8Array ? utf8.decode(x) : null));
    return parts.every((p) => p !== null) ? parts.join('') : null;
  }
  return null;
}

function decimals(d: PlutusData | undefined): number | null {
  return typeof d === 'bigint' && d >= 0n && d <= 255n ? Number(d) : null;
}

/** The metadata of a reference-NFT datum (CBOR hex), or null when the datum is not CIP-68 shaped. */
export function decodeCip68Metadata(datumHex: string): Cip68Metadata | null {
  const d = attempt(() => decodePlutusData(datumHex));
  if (!d || typeof d !== 'object' || !('constr' in d) || d.constr !== 0) return null;
  const meta = d.fields[0];
  if (!meta || typeof meta !== 'object' || meta instanceof Uint8Array || !('map' in meta)) return null;
  const fields = new Map<string, PlutusData>();
  for (const [k, v] of meta.map) if (k instanceof Uint8Array) fields.set(utf8.decode(k), v);
  return {
    name: text(fields.get('name')),
    ticker: text(fields.get('ticker')),
    decimals: decimals(fields.get('decimals')),
    description: text(fields.get('description')),
    url: text(fields.get('url')),
    logo: text(fields.get('logo')),
  };
}

/** The (333) unit whose metadata a (100) reference asset carries, or null for other assets. */
export const ftUnitOfReference = (policyId: string, assetName: string): string | null =>
  cip68FtOfReference(policyId + assetName);

/** A mint that looks fungible: more than one unit, or a CIP-68 (333) name. NFTs get no token document. */
export const isFungibleMint = (unit: string, quantity: bigint): boolean =>
  quantity > 1n || unit.slice(56).startsWith(CIP67_FT);

/**
 * Which metadata describes a token, pure. Sources in precedence order: the CIP-26 registry (TOKEN_META, imported
 * at start), the on-chain CIP-68 (333) reference datum (TokenDoc.cip68), then the asset name itself, field by field:
 * a field the registry entry lacks (decimals are optional in CIP-26) comes from CIP-68. A token neither source gives
 * decimals has 0 (its amounts are shown in base units).
 */
import { decodeAssetName, splitUnit } from './units.js';
import type { TokenDoc, TokenMetaDoc } from '../mongo/collections/market.js';

export const LOVELACE = 'lovelace';

export interface TokenMetadata {
  unit: string;
  policyId: string;
  nameHex: string;
  name: string | null;
  ticker: string | null;
  decimals: number;
  description: string | null;
  url: string | null;
  /** A LOGOS document exists (registry image), served by GET /assets/{unit}/logo. */
  storedLogo: boolean;
  /** CIP-68 `image`/logo given inline as a data URI (also served by the logo route). */
  inlineLogo: string | null;
  /** CIP-68 logo given as a link (https, or ipfs:// through a public gateway). */
  externalLogo: string | null;
}

/** ipfs://… → a public gateway URL; http(s) kept; anything else (ar://, bare CIDs) is not a usable link. */
export function externalLogoUrl(v: string | null): string | null {
  if (!v) return null;
  if (/^https?:\/\//i.test(v)) return v;
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/i.exec(v);
  return ipfs ? `https://ipfs.io/ipfs/${ipfs[1] as string}` : null;
}

const DATA_URI = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]+)$/i;

/** `data:image/…;base64,…` → its content type and bytes; null for anything else. */
export function parseDataUri(v: string | null): { contentType: string; bytes: Buffer } | null {
  const m = v ? DATA_URI.exec(v) : null;
  if (!m) return null;
  const bytes = Buffer.from((m[2] as string).replace(/\s+/g, ''), 'base64');
  return bytes.length ? { contentType: (m[1] as string).toLowerCase(), bytes } : null;
}

export const ADA_METADATA: TokenMetadata = {
  unit: LOVELACE,
  policyId: '',
  nameHex: '',
  name: 'Cardano',
  ticker: 'ADA',
  decimals: 6,
  description: null,
  url: null,
  storedLogo: false,
  inlineLogo: null,
  externalLogo: null,
};

const text = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

export function tokenMetadata(unit: string, meta: TokenMetaDoc | null, token: TokenDoc | null): TokenMetadata {
  if (unit === LOVELACE) return ADA_METADATA;
  const { policyId, nameHex } = splitUnit(unit);
  const c = token?.cip68 ?? null;
  const cipLogo = c?.logo ?? null;
  const inline = parseDataUri(cipLogo) ? cipLogo : null;
  return {
    unit,
    policyId,
    nameHex,
    name: text(meta?.name) ?? text(c?.name) ?? decodeAssetName(nameHex),
    ticker: text(meta?.ticker) ?? text(c?.ticker),
    decimals: meta?.decimals ?? c?.decimals ?? 0,
    description: text(meta?.description) ?? text(c?.description),
    url: text(meta?.url) ?? text(c?.url),
    storedLogo: meta?.hasLogo ?? false,
    inlineLogo: inline,
    externalLogo: inline ? null : externalLogoUrl(cipLogo),
  };
}

/** What lists show for a token: ticker, else name, else a short form of the unit. */
export function displayName(m: Pick<TokenMetadata, 'ticker' | 'name' | 'unit' | 'policyId'>): string {
  return m.ticker ?? m.name ?? `${m.policyId.slice(0, 8)}…${m.unit.slice(-8)}`;
}

/**
 * Unit helpers the recomputes need, pure: exact decimal scaling of raw integers and the readable form of an asset
 * name. Same rules as api/units.ts (activities may not import api/; the lead may make api/units.ts re-export these).
 */

/** `raw · 10^-decimals` as the nearest double, computed from the exact decimal expansion. */
export function scaleInteger(raw: string, decimals: number): number {
  const n = BigInt(raw);
  if (decimals <= 0) return Number(n);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const base = 10n ** BigInt(decimals);
  const frac = String(abs % base).padStart(decimals, '0');
  return Number(`${negative ? '-' : ''}${abs / base}.${frac}`);
}

/** A native asset unit is the 28-byte policy id (56 hex) followed by the asset name (0–32 bytes, hex). */
export function splitUnit(unit: string): { policyId: string; nameHex: string } {
  return { policyId: unit.slice(0, 56), nameHex: unit.slice(56) };
}

/** CRC-8 (polynomial 0x07, initial value 0) of CIP-67 asset name labels. */
function crc8(bytes: readonly number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** The CIP-67 label of an asset name (333 for a CIP-68 fungible token), null when it carries none. */
export function cip67Label(nameHex: string): number | null {
  const m = /^0([0-9a-f]{4})([0-9a-f]{2})0/i.exec(nameHex);
  if (!m) return null;
  const label = parseInt(m[1] as string, 16);
  return crc8([label >> 8, label & 0xff]) === parseInt(m[2] as string, 16) ? label : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NON_PRINTABLE = /[\p{Cc}\p{Cn}\p{Co}\p{Cs}]/u;

/** UTF-8 text of the name bytes (after a CIP-67 label) when printable; null for binary and empty names. */
export function decodeAssetName(nameHex: string): string | null {
  const body = cip67Label(nameHex) === null ? nameHex : nameHex.slice(8);
  if (body.length === 0 || body.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(body)) return null;
  try {
    const text = utf8.decode(Buffer.from(body, 'hex'));
    return NON_PRINTABLE.test(text) ? null : text;
  } catch {
    return null;
  }
}

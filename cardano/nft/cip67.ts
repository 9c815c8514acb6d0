/**
 * CIP-67 asset name labels. A labelled asset name starts with 4 bytes `0x0 ‖ label (16 bit) ‖ crc8(label) ‖ 0x0`
 * (hex: `0` + 4 hex digits + 2 hex digits + `0`), followed by the token's own name. CIP-68 uses them to pair a
 * reference token (100), which carries the metadata datum, with the user token (222 NFT, 333 FT, 444 RFT) of the
 * same policy and suffix. Pure.
 */

/** Labels this service reads. 000 and 001 are ADA Handle's virtual subhandle and subhandle-settings tokens. */
export const LABEL = {
  virtual: 0,
  settings: 1,
  reference: 100,
  nft: 222,
  ft: 333,
  rft: 444,
} as const;

/** CRC-8 with polynomial 0x07, init 0 (CIP-67 "crc8"), over the 2 label bytes. */
function crc8(bytes: number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** The 8-hex-character prefix of `label` (0 ≤ label ≤ 65535): 222 → `000de140`. */
export function labelPrefix(label: number): string {
  if (!Number.isInteger(label) || label < 0 || label > 0xffff) throw new RangeError(`not a CIP-67 label: ${label}`);
  const crc = crc8([label >> 8, label & 0xff]);
  return `0${label.toString(16).padStart(4, '0')}${crc.toString(16).padStart(2, '0')}0`;
}

/** `{label, suffix}` when `assetNameHex` starts with a valid CIP-67 prefix (checksum included), else null. */
export function splitLabel(assetNameHex: string): { label: number; suffixHex: string } | null {
  const m = /^0([0-9a-f]{4})([0-9a-f]{2})0/.exec(assetNameHex.toLowerCase());
  if (!m) return null;
  const label = parseInt(m[1] as string, 16);
  if (crc8([label >> 8, label & 0xff]) !== parseInt(m[2] as string, 16)) return null;
  return { label, suffixHex: assetNameHex.slice(8).toLowerCase() };
}

/** Asset name with `label` put in front of (or swapped onto) the suffix of a labelled name. */
export function withLabel(label: number, suffixHex: string): string {
  return labelPrefix(label) + suffixHex.toLowerCase();
}

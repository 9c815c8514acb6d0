/**
 * Big-number-safe JSON output. Lovelace and asset quantities are `bigint` inside the devnet (token supplies reach
 * 2^63 − 1 on mainnet) and must leave as plain JSON integers, exactly as Ogmios writes them: never strings, never
 * doubles.
 */
const MARK = '\u0001';
const RAW = /"\\u0001(-?\d+)"/g;

const replacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? MARK + value.toString() : value);

export function stringify(value: unknown): string {
  return JSON.stringify(value, replacer).replace(RAW, '$1');
}

/**
 * Circulating supply of a token from chain data (spec: TokenStats.circulatingSupply, mcap). Pure.
 *
 * Rule: the quantity in unspent outputs (minted minus burned, as the holders index sums it) minus what its largest
 * holders keep locked in scripts that are not markets: a holder that is a script address without a stake key
 * (`addr1w…`: treasuries, vesting and lock contracts are such enterprise script addresses) and whose script is not
 * a DEX pool or order script (liquidity and open orders circulate). Holders with a stake key combine every address
 * of the key, so a script behind one cannot be told apart and counts as circulating; only the largest holders
 * (LOCKED_HOLDERS_SCANNED) are examined, where treasuries and vesting contracts sit.
 */
import { parseAddress } from './address.js';
import { DEX_ADAPTERS } from './dex/index.js';

/** How many of a token's largest holders are examined for script locks. */
export const LOCKED_HOLDERS_SCANNED = 20;

/** Payment script hashes of every DEX pool and order (their holdings circulate). */
export const DEX_SCRIPT_HASHES: ReadonlySet<string> = new Set(
  DEX_ADAPTERS.flatMap((a) => [...a.poolScriptHashes, ...a.orderScriptHashes]),
);

/** True when the holder is a non-DEX script address without a stake key: its holding is locked, not circulating. */
export function isLockedHolder(holder: string, dexScripts: ReadonlySet<string> = DEX_SCRIPT_HASHES): boolean {
  if (!holder.startsWith('addr')) return false;
  try {
    const a = parseAddress(holder);
    return a.kind === 'enterprise' && a.paymentScript && a.paymentCred !== null && !dexScripts.has(a.paymentCred);
  } catch {
    return false;
  }
}

/** Circulating raw quantity: `onChainRaw` minus the locked holders' quantities among `largest`. */
export function circulatingRaw(
  onChainRaw: bigint,
  largest: readonly { holder: string; quantityRaw: string }[],
): bigint {
  let locked = 0n;
  for (const h of largest) if (isLockedHolder(h.holder)) locked += BigInt(h.quantityRaw);
  return onChainRaw - locked > 0n ? onChainRaw - locked : 0n;
}

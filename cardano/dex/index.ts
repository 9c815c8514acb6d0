/**
 * The DEX registry: every adapter this service understands, and lookups by output. Script hashes do not overlap
 * between DEXes, so at most one adapter claims an output.
 */
import type { TxOutput } from '../chain/types.js';
import { MINSWAP_V1, minswapV1 } from './minswap-v1.js';
import { minswapV2 } from './minswap-v2.js';
import { MUESLISWAP, muesliswap } from './muesliswap.js';
import { splash } from './splash.js';
import { sundaeswapV1 } from './sundaeswap-v1.js';
import { sundaeswapV3 } from './sundaeswap-v3.js';
import type { DexAdapter, DexName } from './types.js';
import { wingridersV1 } from './wingriders-v1.js';
import { wingridersV2 } from './wingriders-v2.js';
import { paymentCredential } from './utxo.js';

export const DEX_ADAPTERS: readonly DexAdapter[] = [
  minswapV2,
  sundaeswapV3,
  wingridersV2,
  splash,
  minswapV1,
  sundaeswapV1,
  wingridersV1,
  muesliswap,
];

const byName = new Map<DexName, DexAdapter>(DEX_ADAPTERS.map((a) => [a.name, a]));
const byPoolScript = new Map<string, DexAdapter>();
const byOrderScript = new Map<string, DexAdapter>();
for (const a of DEX_ADAPTERS) {
  for (const h of a.poolScriptHashes) byPoolScript.set(h, a);
  for (const h of a.orderScriptHashes) byOrderScript.set(h, a);
}

/**
 * Policies under which the DEXes mint their own tokens (pool identity / validity NFTs, LP and factory tokens): each
 * adapter's pool identity policy, plus the LP, factory and pool NFT policies a DEX keeps apart from it (Minswap V1
 * LP and factory, MuesliSwap pool NFTs and LP). Minswap V2, SundaeSwap V1/V3 and WingRiders V1/V2 mint everything
 * under their identity policy. Splash has one policy per pool: `findPoolAdapter` on the minting tx's outputs tells
 * those apart.
 */
export const DEX_TOKEN_POLICIES: ReadonlySet<string> = new Set([
  ...DEX_ADAPTERS.flatMap((a) => (a.poolIdentityPolicy ? [a.poolIdentityPolicy] : [])),
  MINSWAP_V1.poolNftPolicy,
  MINSWAP_V1.lpPolicy,
  MINSWAP_V1.factoryPolicy,
  ...MUESLISWAP.poolNftPolicies,
  MUESLISWAP.lpPolicy,
  MUESLISWAP.factoryPolicy,
]);

export function dexAdapter(name: DexName): DexAdapter | undefined {
  return byName.get(name);
}

/** The adapter whose pool this output is (payment script and identity token), or null. */
export function findPoolAdapter(output: TxOutput): DexAdapter | null {
  const cred = paymentCredential(output.address);
  const a = cred ? byPoolScript.get(cred) : undefined;
  return a && a.isPoolOutput(output) ? a : null;
}

/** The adapter whose order (request) script this output pays to, or null. */
export function findOrderAdapter(output: TxOutput): DexAdapter | null {
  const cred = paymentCredential(output.address);
  const a = cred ? byOrderScript.get(cred) : undefined;
  return a && a.isOrderOutput(output) ? a : null;
}

export type * from './types.js';

/**
 * The DEX registry: every adapter this service understands, and lookups by output. Script hashes do not overlap
 * between DEXes, so at most one adapter claims an output.
 */
import type { TxOutput } from '../chain/types.js';
import { minswapV1 } from './minswap-v1.js';
import { minswapV2 } from './minswap-v2.js';
import { muesliswap } from './muesliswap.js';
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

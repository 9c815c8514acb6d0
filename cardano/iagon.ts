/**
 * Iagon on chain (reference: dex-nft-handles.md §7): the IAG token and the script hashes of its storage-provider
 * staking and reward validators. Both validators are parameterised (operator key, penalty address / owner key), so
 * the unparameterised hashes of the contract repository's plutus.json are not the deployed ones and the mainnet
 * hashes are not known: they are configuration (IAGON_STAKE_SCRIPTS, IAGON_REWARD_SCRIPTS). The built-in devnet
 * deploys its own copies, whose hashes derive from the devnet seed (`devnetIagonScripts`). Pure; no I/O.
 */
import { hash256, keyHash } from './address.js';
import type { TokenStatsDoc } from '../mongo/collections/market-read.js';
import type { Described } from '../mongo/collections/storage.js';

export const IAG_POLICY = '5d16cc1a177b5d9ba9cfa9793b07e60f1fb70fea1f8aef064415d114';
export const IAG_NAME = '494147';
/** The IAG unit (policy id ‖ asset name "IAG"); 6 decimals (CIP-26 registry "IAGON"). */
export const IAG_UNIT = IAG_POLICY + IAG_NAME;
export const IAG_DECIMALS = 6;

/** Payment script hashes (hex, 28 bytes) of the staking and reward validators the service follows. */
export interface IagonScripts {
  stake: readonly string[];
  reward: readonly string[];
}

export const NO_IAGON_SCRIPTS: IagonScripts = { stake: [], reward: [] };

const enc = new TextEncoder();
/** A devnet script hash: blake2b-224 of a seed-derived "script" (as the devnet's other script addresses). */
const devnetScriptHash = (seed: string, name: string) => keyHash(hash256(enc.encode(`${seed}/script/${name}`)));

/** The staking and reward script hashes of the built-in devnet with this seed. */
export function devnetIagonScripts(seed: string): IagonScripts {
  return { stake: [devnetScriptHash(seed, 'iagon-stake')], reward: [devnetScriptHash(seed, 'iagon-reward')] };
}

/**
 * The scripts to follow: each configured list as given; an unset list is the devnet's of DEVNET_SEED when a devnet
 * is the chain (the built-in one: OGMIOS_URL unset; the standalone `npm run devnet`: OGMIOS_IS_DEVNET), else empty
 * (then the overview says the staking figures are unavailable and why).
 */
export function resolveIagonScripts(config: {
  IAGON_STAKE_SCRIPTS?: readonly string[] | undefined;
  IAGON_REWARD_SCRIPTS?: readonly string[] | undefined;
  OGMIOS_URL?: string | undefined;
  OGMIOS_IS_DEVNET?: boolean | undefined;
  DEVNET_SEED: string;
}): IagonScripts {
  const devnetIsChain = !config.OGMIOS_URL || config.OGMIOS_IS_DEVNET === true;
  const devnet = devnetIsChain ? devnetIagonScripts(config.DEVNET_SEED) : NO_IAGON_SCRIPTS;
  return {
    stake: config.IAGON_STAKE_SCRIPTS ?? devnet.stake,
    reward: config.IAGON_REWARD_SCRIPTS ?? devnet.reward,
  };
}

const d = <T>(value: T, description: string): Described<T> => ({ value, description });

/** The IAG market figures of the storage overview, each with what it means (from the market recompute's stats). */
export function storageMarket(s: TokenStatsDoc | null) {
  return {
    priceAda: d(s?.priceAda ?? null, 'IAG price in ADA from its on-chain DEX pools (market recompute).'),
    priceUsd: d(s?.priceUsd ?? null, 'IAG price in USD: the ADA price × ADA/USD from the ADA/stablecoin pools.'),
    change24h: d(s?.change24h ?? null, 'Change of the ADA price over 24 h, as a fraction (0.05 = +5 %).'),
    volume24hAda: d(s?.volume24h ?? null, 'IAG traded on the DEX pools in the last 24 h, in ADA.'),
    liquidityAda: d(s?.liquidityAda ?? null, 'ADA value of the IAG pools’ reserves (both sides).'),
    liquidityUsd: d(s?.liquidityUsd ?? null, 'The same liquidity in USD.'),
  };
}

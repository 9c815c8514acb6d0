/**
 * Cardano address formats (CIP-19), pure. Shelley addresses are bech32 (`addr…`, `stake…`, with `_test` on
 * testnets); the header byte is `type << 4 | networkId` (networkId 1 = mainnet, 0 = testnets). Byron addresses
 * are base58 and carry no stake part. Used by the sync (stake address of an output), the devnet (building
 * addresses) and the API (validating path parameters).
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { base58, bech32, hex } from '@scure/base';

export type Network = 'mainnet' | 'testnet';
const LIMIT = 1023;

export interface ParsedAddress {
  kind: 'base' | 'pointer' | 'enterprise' | 'reward' | 'byron';
  network: Network | null;
  /** Payment credential hash (hex); null for reward and Byron addresses. */
  paymentCred: string | null;
  paymentScript: boolean;
  /** Stake credential hash (hex) for base and reward addresses. */
  stakeCred: string | null;
  stakeScript: boolean;
}

export class AddressError extends Error {}

const prefixes = (network: Network) =>
  network === 'mainnet' ? { addr: 'addr', stake: 'stake' } : { addr: 'addr_test', stake: 'stake_test' };

export function parseAddress(address: string): ParsedAddress {
  if (/^(addr|stake)(_test)?1/.test(address)) {
    let decoded: { prefix: string; words: number[] };
    try {
      decoded = bech32.decode(address as `${string}1${string}`, LIMIT);
    } catch (e) {
      throw new AddressError(`not a valid bech32 address: ${(e as Error).message}`);
    }
    const bytes = bech32.fromWords(decoded.words);
    const header = bytes[0];
    if (header === undefined) throw new AddressError('empty address');
    const type = header >> 4;
    const network: Network = (header & 0x0f) === 1 ? 'mainnet' : 'testnet';
    const expected = prefixes(network);
    const isReward = type === 14 || type === 15;
    if (decoded.prefix !== (isReward ? expected.stake : expected.addr))
      throw new AddressError(`prefix ${decoded.prefix} does not match the address header`);
    const h = (from: number) => {
      const part = bytes.slice(from, from + 28);
      if (part.length !== 28) throw new AddressError('credential is not 28 bytes');
      return hex.encode(part);
    };
    if (type <= 3) {
      if (bytes.length !== 57) throw new AddressError('base address must be 57 bytes');
      return {
        kind: 'base',
        network,
        paymentCred: h(1),
        paymentScript: (type & 1) === 1,
        stakeCred: h(29),
        stakeScript: (type & 2) === 2,
      };
    }
    if (type === 4 || type === 5) {
      if (bytes.length < 32 || !completePointer(bytes.slice(29)))
        throw new AddressError('pointer address must end in three complete variable-length numbers (slot, tx, cert)');
      return {
        kind: 'pointer',
        network,
        paymentCred: h(1),
        paymentScript: type === 5,
        stakeCred: null,
        stakeScript: false,
      };
    }
    if (type === 6 || type === 7) {
      if (bytes.length !== 29) throw new AddressError('enterprise address must be 29 bytes');
      return {
        kind: 'enterprise',
        network,
        paymentCred: h(1),
        paymentScript: type === 7,
        stakeCred: null,
        stakeScript: false,
      };
    }
    if (isReward) {
      if (bytes.length !== 29) throw new AddressError('stake address must be 29 bytes');
      return {
        kind: 'reward',
        network,
        paymentCred: null,
        paymentScript: false,
        stakeCred: h(1),
        stakeScript: type === 15,
      };
    }
    throw new AddressError(`unknown address type ${type}`);
  }
  if (/^[1-9A-HJ-NP-Za-km-z]{20,}$/.test(address)) {
    try {
      base58.decode(address);
    } catch {
      throw new AddressError('not a valid base58 address');
    }
    return {
      kind: 'byron',
      network: null,
      paymentCred: null,
      paymentScript: false,
      stakeCred: null,
      stakeScript: false,
    };
  }
  throw new AddressError('not a Cardano address (expected addr1…, stake1… or a Byron base58 address)');
}

const stakeCache = new Map<string, string | null>();
const STAKE_CACHE_MAX = 50_000;

/**
 * The stake (reward) address of a base address, or null. Memoised (bounded): the sync asks it for the same output
 * addresses in the core and in several extensions per block, and a bech32 decode plus encode per call added up.
 */
export function stakeAddressOf(address: string): string | null {
  const hit = stakeCache.get(address);
  if (hit !== undefined) return hit;
  const v = computeStakeAddressOf(address);
  if (stakeCache.size >= STAKE_CACHE_MAX) stakeCache.clear();
  stakeCache.set(address, v);
  return v;
}

function computeStakeAddressOf(address: string): string | null {
  try {
    const p = parseAddress(address);
    if (p.kind === 'reward') return address;
    if (p.kind !== 'base' || !p.stakeCred || !p.network) return null;
    return rewardAddress(p.network, p.stakeCred, p.stakeScript);
  } catch {
    return null;
  }
}

export function rewardAddress(network: Network, stakeCred: string, script = false): string {
  const header = ((script ? 15 : 14) << 4) | (network === 'mainnet' ? 1 : 0);
  return bech32.encode(prefixes(network).stake, bech32.toWords(Uint8Array.of(header, ...hex.decode(stakeCred))), LIMIT);
}

export function baseAddress(
  network: Network,
  paymentCred: string,
  stakeCred: string,
  paymentScript = false,
  stakeScript = false,
): string {
  const type = (paymentScript ? 1 : 0) | (stakeScript ? 2 : 0);
  const header = (type << 4) | (network === 'mainnet' ? 1 : 0);
  const bytes = Uint8Array.of(header, ...hex.decode(paymentCred), ...hex.decode(stakeCred));
  return bech32.encode(prefixes(network).addr, bech32.toWords(bytes), LIMIT);
}

export function enterpriseAddress(network: Network, paymentCred: string, paymentScript = false): string {
  const header = ((paymentScript ? 7 : 6) << 4) | (network === 'mainnet' ? 1 : 0);
  return bech32.encode(
    prefixes(network).addr,
    bech32.toWords(Uint8Array.of(header, ...hex.decode(paymentCred))),
    LIMIT,
  );
}

/** Ogmios certificates name a credential by its hash; this is the reward address the chain shows for it. */
export const credentialToStakeAddress = rewardAddress;

/** blake2b-224 of a verification key: a key hash (payment/stake credential, pool id bytes). */
export function keyHash(vkeyHex: string): string {
  return hex.encode(blake2b(hex.decode(vkeyHex), { dkLen: 28 }));
}

/** `pool1…` of a pool's cold verification key (a block issuer) or of its key hash. */
export function poolIdFromVkey(vkeyHex: string): string {
  return poolIdFromHash(keyHash(vkeyHex));
}
export function poolIdFromHash(hashHex: string): string {
  return bech32.encode('pool', bech32.toWords(hex.decode(hashHex)));
}
/** A stake pool id as a user may give it: pool1… as given, a 56-hex key hash (any case) as its bech32 pool1… id. */
export const bech32PoolId = (id: string): string =>
  /^[0-9a-fA-F]{56}$/.test(id) ? poolIdFromHash(id.toLowerCase()) : id;
export function poolHashFromId(poolId: string): string {
  const d = bech32.decode(poolId as `${string}1${string}`);
  if (d.prefix !== 'pool') throw new AddressError('not a pool id (pool1…)');
  const bytes = bech32.fromWords(d.words);
  if (bytes.length !== 28) throw new AddressError('pool id must be 28 bytes');
  return hex.encode(bytes);
}

/** blake2b-256 (tx ids, block ids, datum hashes). */
export function hash256(bytes: Uint8Array): string {
  return hex.encode(blake2b(bytes, { dkLen: 32 }));
}

/**
 * Whether `bytes` (what follows a pointer address's payment credential) holds three whole numbers in the ledger's
 * variable-length form: 7 bits a byte, the high bit set on every byte but a number's last. Their values are not
 * checked: the ledger accepted pointers of any size (mainnet has pointers to no certificate), but a number cut off
 * is no address any decoder reads.
 */
function completePointer(bytes: Uint8Array): boolean {
  let numbers = 0;
  for (const b of bytes) if ((b & 0x80) === 0) numbers++;
  return numbers >= 3 && ((bytes.at(-1) ?? 0x80) & 0x80) === 0;
}

/**
 * The devnet's cast, derived from the seed alone: wallets (payment and stake keys, mainnet addresses), stake
 * pool keys, the faucet, fungible tokens and NFT collections. Keys are pseudo keys (32 random bytes from the
 * seed); credentials are their blake2b-224 hashes exactly as on chain, so every address and pool id decodes
 * like a real one. Nothing here changes while the chain runs.
 */
import { hex, bech32 } from '@scure/base';
import { baseAddress, enterpriseAddress, hash256, keyHash, poolIdFromVkey, rewardAddress } from '../cardano/address.js';
import { Rng } from './rng.js';

const enc = new TextEncoder();

export interface Wallet {
  index: number;
  address: string;
  paymentVkey: string;
  paymentCred: string;
  /** Null for enterprise addresses (no stake part: never delegated, never rewarded). */
  stakeVkey: string | null;
  stakeCred: string | null;
  rewardAddress: string | null;
}

export interface PoolKeys {
  index: number;
  coldVkey: string;
  /** blake2b-224 of the cold key: the pool's on-chain id bytes. */
  hash: string;
  id: string;
  vrfVkey: string;
  vrfKeyHash: string;
  kesVkey: string;
  opCertCount: number;
  opCertSigma: string;
  /** Index of the wallet that owns and pledges to this pool (its stake key is the owner and reward account). */
  owner: number;
  ticker: string;
}

export interface FungibleToken {
  policyId: string;
  policyVkey: string;
  assetName: string;
  ticker: string;
  /** Wallet that mints and first holds the supply. */
  issuer: number;
  supply: bigint;
}

export interface NftCollection {
  policyId: string;
  policyVkey: string;
  name: string;
  /** Prefix of asset names: `${prefix}${n}` (UTF-8, hex on chain). */
  prefix: string;
  size: number;
  /** Wallet of the project: receives the mint price. */
  creator: number;
  priceLovelace: bigint;
  traits: Record<string, readonly string[]>;
}

export interface World {
  seed: string;
  wallets: Wallet[];
  /** Wallets with a stake key (base addresses). */
  stakers: Wallet[];
  walletByAddress: Map<string, Wallet>;
  faucet: Wallet;
  pools: PoolKeys[];
  /** Pools registered in the first block; the rest register over time. */
  genesisPools: number;
  tokens: FungibleToken[];
  collections: NftCollection[];
  genesisTxId: string;
}

export const WALLET_COUNT = 420;
/** Wallets from this index on use enterprise addresses (exchanges, scripts-free services). */
const ENTERPRISE_FROM = 380;
export const POOL_COUNT = 32;
export const GENESIS_POOLS = 10;

const TICKERS = ['ALPHA', 'BLOOM', 'CRANE', 'DELTA', 'EMBER', 'FJORD', 'GLADE', 'HAVEN', 'IRIS', 'JADE', 'KELP'];
const TOKENS: { name: string; ticker: string; supply: bigint }[] = [
  { name: 'Nebula', ticker: 'NEBL', supply: 1_000_000_000_000_000n },
  { name: 'Quartz', ticker: 'QRTZ', supply: 45_000_000_000_000n },
  { name: 'Orbit', ticker: 'ORBT', supply: 9_000_000_000_000_000_000n },
  { name: 'Lumen', ticker: 'LUMN', supply: 2_100_000_000_000_000n },
  { name: 'Fern', ticker: 'FERN', supply: 100_000_000_000n },
  { name: 'Pebble', ticker: 'PBBL', supply: 500_000_000_000_000_000n },
];
const COLLECTIONS: { name: string; prefix: string; size: number; price: bigint; traits: Record<string, string[]> }[] = [
  {
    name: 'Dev Punks',
    prefix: 'DevPunk',
    size: 1000,
    price: 35_000_000n,
    traits: {
      background: ['teal', 'rose', 'slate', 'gold', 'void'],
      eyes: ['laser', 'sleepy', 'visor', 'wink'],
      hat: ['none', 'beanie', 'crown', 'halo', 'cap'],
    },
  },
  {
    name: 'Lunar Foxes',
    prefix: 'LunarFox',
    size: 500,
    price: 60_000_000n,
    traits: { fur: ['silver', 'ember', 'frost', 'shadow'], moon: ['new', 'half', 'full'], tail: ['short', 'plume'] },
  },
  {
    name: 'Pixel Gardens',
    prefix: 'PixelGarden',
    size: 2500,
    price: 12_000_000n,
    traits: { season: ['spring', 'summer', 'autumn', 'winter'], flora: ['tulip', 'fern', 'cactus', 'lotus'] },
  },
  {
    name: 'Chain Golems',
    prefix: 'Golem',
    size: 300,
    price: 120_000_000n,
    traits: { core: ['basalt', 'obsidian', 'jade', 'iron'], rune: ['ansuz', 'eihwaz', 'kenaz', 'othala', 'sowilo'] },
  },
];

const vkey = (seed: string, label: string) => hash256(enc.encode(`${seed}/key/${label}`));

export function buildWorld(seed: string): World {
  const wallets: Wallet[] = [];
  for (let i = 0; i < WALLET_COUNT; i++) {
    const paymentVkey = vkey(seed, `wallet/${i}/payment`);
    const paymentCred = keyHash(paymentVkey);
    if (i >= ENTERPRISE_FROM) {
      wallets.push({
        index: i,
        address: enterpriseAddress('mainnet', paymentCred),
        paymentVkey,
        paymentCred,
        stakeVkey: null,
        stakeCred: null,
        rewardAddress: null,
      });
      continue;
    }
    const stakeVkey = vkey(seed, `wallet/${i}/stake`);
    const stakeCred = keyHash(stakeVkey);
    wallets.push({
      index: i,
      address: baseAddress('mainnet', paymentCred, stakeCred),
      paymentVkey,
      paymentCred,
      stakeVkey,
      stakeCred,
      rewardAddress: rewardAddress('mainnet', stakeCred),
    });
  }
  const faucetVkey = vkey(seed, 'faucet');
  const faucet: Wallet = {
    index: -1,
    address: enterpriseAddress('mainnet', keyHash(faucetVkey)),
    paymentVkey: faucetVkey,
    paymentCred: keyHash(faucetVkey),
    stakeVkey: null,
    stakeCred: null,
    rewardAddress: null,
  };

  const rng = new Rng(seed, 'world');
  const pools: PoolKeys[] = [];
  for (let i = 0; i < POOL_COUNT; i++) {
    const coldVkey = vkey(seed, `pool/${i}/cold`);
    const vrfVkey = vkey(seed, `pool/${i}/vrf`);
    const base = TICKERS[i % TICKERS.length] as string;
    pools.push({
      index: i,
      coldVkey,
      hash: keyHash(coldVkey),
      id: poolIdFromVkey(coldVkey),
      vrfVkey,
      vrfKeyHash: hash256(hex.decode(vrfVkey)),
      kesVkey: vkey(seed, `pool/${i}/kes`),
      opCertCount: rng.int(0, 12),
      opCertSigma: rng.hex(64),
      owner: i,
      ticker: i < TICKERS.length ? base : `${base.slice(0, 4)}${Math.floor(i / TICKERS.length)}`,
    });
  }

  const hexName = (s: string) => hex.encode(enc.encode(s));
  const tokens: FungibleToken[] = TOKENS.map((t, i) => {
    const policyVkey = vkey(seed, `token/${t.ticker}`);
    return {
      policyId: policyIdOf(policyVkey),
      policyVkey,
      assetName: hexName(t.ticker),
      ticker: t.ticker,
      issuer: 40 + i * 7,
      supply: t.supply,
    };
  });
  const collections: NftCollection[] = COLLECTIONS.map((c, i) => {
    const policyVkey = vkey(seed, `collection/${c.prefix}`);
    return {
      policyId: policyIdOf(policyVkey),
      policyVkey,
      name: c.name,
      prefix: c.prefix,
      size: c.size,
      creator: 90 + i * 5,
      priceLovelace: c.price,
      traits: c.traits,
    };
  });

  return {
    seed,
    wallets,
    stakers: wallets.filter((w) => w.stakeCred !== null),
    walletByAddress: new Map([...wallets, faucet].map((w) => [w.address, w])),
    faucet,
    pools,
    genesisPools: GENESIS_POOLS,
    tokens,
    collections,
    genesisTxId: hash256(enc.encode(`${seed}/genesis`)),
  };
}

/**
 * Policy id of a single-signature native script `{clause: signature, from: keyHash}`: blake2b-224 of
 * 0x00 ‖ CBOR [0, keyHash], as the ledger hashes native scripts.
 */
function policyIdOf(policyVkey: string): string {
  const script = Uint8Array.of(0x00, 0x82, 0x00, 0x58, 0x1c, ...hex.decode(keyHash(policyVkey)));
  return keyHash(hex.encode(script));
}

const addressBytesCache = new Map<string, Uint8Array>();
/** Raw bytes of a bech32 address (for CBOR bodies). */
export function addressBytes(address: string): Uint8Array {
  let b = addressBytesCache.get(address);
  if (!b) {
    b = bech32.fromWords(bech32.decode(address as `${string}1${string}`, 1023).words);
    addressBytesCache.set(address, b);
  }
  return b;
}

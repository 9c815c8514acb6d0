/**
 * The tokens the devnet's DEXes trade: fungible tokens under the real subjects (policy id ‖ asset name) of CIP-26
 * registry entries in registry/mappings (so the service shows their real names, tickers, decimals and logos),
 * three CIP-68 (333) fungible tokens whose metadata lives in the inline datum next to their (100) reference NFT,
 * and a long tail of meme tokens nobody registered. Supplies are whole-token counts × 10^decimals; prices are the
 * starting "fair" value in ADA per whole token, from which the market walks.
 */
import { hex } from '@scure/base';
import { enterpriseAddress, hash256, keyHash } from '../../cardano/address.js';
import { bytes, constr, encodePlutusData, type PlutusData } from '../../cardano/dex/plutus-data.js';
import { Rng } from '../rng.js';
import type { World } from '../world.js';

const enc = new TextEncoder();
const utf8Hex = (s: string) => hex.encode(enc.encode(s));

/** CIP-67 label prefixes: (100) reference NFT, (333) fungible token. */
export const CIP68_REFERENCE_PREFIX = '000643b0';
export const CIP68_FT_PREFIX = '0014df10';

/**
 * How a token trades: `stable` = USD stablecoin (ADA/USD derives from its pools), `major` = deep pools on several
 * DEXes and frequent trades, `mid` = one or two pools, `tail` = one shallow pool, rare trades.
 */
export type DexTokenTier = 'stable' | 'major' | 'mid' | 'tail';

export interface DexToken {
  unit: string;
  policyId: string;
  assetName: string;
  ticker: string;
  decimals: number;
  /** Total minted, base units. */
  supply: bigint;
  /** Starting fair value, ADA per whole token (stablecoins: USD per token, converted with ADA/USD). */
  price: number;
  tier: DexTokenTier;
  source: 'registry' | 'cip68' | 'meme';
  /** Key of the devnet native policy (CIP-68 and meme tokens); null for registry subjects (real Plutus/native policies). */
  policyVkey: string | null;
  /** Per-block log-price volatility of the fair value. */
  volatility: number;
  /** Wallet that receives the supply and creates the token's pools. */
  issuer: number;
  /** The (100) reference datum of a CIP-68 token. */
  cip68: Cip68Metadata | null;
}

export interface Cip68Metadata {
  name: string;
  ticker: string;
  decimals: number;
  description: string;
  url: string;
  logo: string;
}

interface RegistrySpec {
  ticker: string;
  policyId: string;
  assetName: string;
  decimals: number;
  /** Whole tokens. */
  supply: bigint;
  price: number;
  tier: DexTokenTier;
}

/** Subjects, tickers and decimals exactly as registry/mappings has them (a test checks every one). */
const REGISTRY: RegistrySpec[] = [
  // Stablecoins: price in USD.
  {
    ticker: 'USDM',
    policyId: 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad',
    assetName: '0014df105553444d',
    decimals: 6,
    supply: 30_000_000n,
    price: 1,
    tier: 'stable',
  },
  {
    ticker: 'DJED',
    policyId: '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61',
    assetName: '446a65644d6963726f555344',
    decimals: 6,
    supply: 4_000_000n,
    price: 1,
    tier: 'stable',
  },
  {
    ticker: 'iUSD',
    policyId: 'f66d78b4a3cb3d37afa0ec36461e51ecbde00f26c8f0a68f94b69880',
    assetName: '69555344',
    decimals: 6,
    supply: 12_000_000n,
    price: 0.985,
    tier: 'stable',
  },
  // Popular: deep pools on several DEXes.
  {
    ticker: 'MIN',
    policyId: '29d222ce763455e3d7a09a665ce554f00ac89d2e99a1a83d267170c6',
    assetName: '4d494e',
    decimals: 6,
    supply: 5_000_000_000n,
    price: 0.032,
    tier: 'major',
  },
  {
    ticker: 'SNEK',
    policyId: '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f',
    assetName: '534e454b',
    decimals: 0,
    supply: 76_715_880_000n,
    price: 0.0042,
    tier: 'major',
  },
  {
    ticker: 'HOSKY',
    policyId: 'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235',
    assetName: '484f534b59',
    decimals: 0,
    supply: 1_000_000_000_000_000n,
    price: 0.00000007,
    tier: 'major',
  },
  {
    ticker: 'INDY',
    policyId: '533bb94a8850ee3ccbe483106489399112b74c905342cb1792a797a0',
    assetName: '494e4459',
    decimals: 6,
    supply: 35_000_000n,
    price: 0.85,
    tier: 'major',
  },
  {
    ticker: 'NIGHT',
    policyId: '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa',
    assetName: '4e49474854',
    decimals: 6,
    supply: 24_000_000_000n,
    price: 0.09,
    tier: 'major',
  },
  {
    ticker: 'IAG',
    policyId: '5d16cc1a177b5d9ba9cfa9793b07e60f1fb70fea1f8aef064415d114',
    assetName: '494147',
    decimals: 6,
    supply: 1_000_000_000n,
    price: 0.45,
    tier: 'major',
  },
  // One or two pools.
  {
    ticker: 'SUNDAE',
    policyId: '9a9693a9a37912a5097918f97918d15240c92ab729a0b7c4aa144d77',
    assetName: '53554e444145',
    decimals: 6,
    supply: 2_000_000_000n,
    price: 0.011,
    tier: 'mid',
  },
  {
    ticker: 'WMTX',
    policyId: 'e5a42a1a1d3d1da71b0449663c32798725888d2eb0843c4dabeca05a',
    assetName: '576f726c644d6f62696c65546f6b656e58',
    decimals: 6,
    supply: 2_000_000_000n,
    price: 0.26,
    tier: 'mid',
  },
  {
    ticker: 'WRT',
    policyId: 'c0ee29a85b13209423b10447d3c2e6a50641a15c57770e27cb9d5073',
    assetName: '57696e67526964657273',
    decimals: 6,
    supply: 100_000_000n,
    price: 0.055,
    tier: 'mid',
  },
  {
    ticker: 'AGIX',
    policyId: 'f43a62fdc3965df486de8a0d32fe800963589c41b38946602a0dc535',
    assetName: '41474958',
    decimals: 8,
    supply: 2_000_000_000n,
    price: 0.38,
    tier: 'mid',
  },
  {
    ticker: 'LQ',
    policyId: 'da8c30857834c6ae7203935b89278c532b3995245295456f993e1d24',
    assetName: '4c51',
    decimals: 6,
    supply: 5_400_000n,
    price: 1.6,
    tier: 'mid',
  },
  {
    ticker: 'GENS',
    policyId: 'dda5fdb1002f7389b33e036b6afee82a8189becb6cba852e8b79b4fb',
    assetName: '0014df1047454e53',
    decimals: 6,
    supply: 100_000_000n,
    price: 0.11,
    tier: 'mid',
  },
  {
    ticker: 'SPLASH',
    policyId: 'ececc92aeaaac1f5b665f567b01baec8bc2771804b4c21716a87a4e3',
    assetName: '53504c415348',
    decimals: 6,
    supply: 1_000_000_000n,
    price: 0.05,
    tier: 'mid',
  },
  {
    ticker: 'iBTC',
    policyId: 'f66d78b4a3cb3d37afa0ec36461e51ecbde00f26c8f0a68f94b69880',
    assetName: '69425443',
    decimals: 6,
    supply: 60n,
    price: 125_000,
    tier: 'mid',
  },
  {
    ticker: 'SHEN',
    policyId: '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61',
    assetName: '5368656e4d6963726f555344',
    decimals: 6,
    supply: 10_000_000n,
    price: 1.45,
    tier: 'mid',
  },
  // Long tail: one shallow pool each.
  {
    ticker: 'COPI',
    policyId: 'b6a7467ea1deb012808ef4e87b5ff371e85f7142d7b356a40d9b42a0',
    assetName: '436f726e75636f70696173205b76696120436861696e506f72742e696f5d',
    decimals: 6,
    supply: 1_600_000_000n,
    price: 0.021,
    tier: 'tail',
  },
  {
    ticker: 'NTX',
    policyId: 'edfd7a1d77bcb8b884c474bdc92a16002d1fb720e454fa6e99344479',
    assetName: '4e5458',
    decimals: 6,
    supply: 1_000_000_000n,
    price: 0.04,
    tier: 'tail',
  },
  {
    ticker: 'MELD',
    policyId: 'a2944573e99d2ed3055b808eaa264f0bf119e01fc6b18863067c63e4',
    assetName: '4d454c44',
    decimals: 6,
    supply: 4_000_000_000n,
    price: 0.012,
    tier: 'tail',
  },
  {
    ticker: 'NEWM',
    policyId: '682fe60c9918842b3323c43b5144bc3d52a23bd2fb81345560d73f63',
    assetName: '4e45574d',
    decimals: 6,
    supply: 10_000_000_000n,
    price: 0.0021,
    tier: 'tail',
  },
];

const CIP68: { name: string; ticker: string; decimals: number; supply: bigint; price: number; description: string }[] =
  [
    {
      name: 'Solstice',
      ticker: 'SOLS',
      decimals: 6,
      supply: 250_000_000n,
      price: 0.18,
      description: 'Governance token of the Solstice lending protocol on the devnet.',
    },
    {
      name: 'Tidal Credits',
      ticker: 'TIDE',
      decimals: 6,
      supply: 1_000_000_000n,
      price: 0.025,
      description: 'Fee-rebate credits of the Tidal perpetuals venue.',
    },
    {
      name: 'Aerie',
      ticker: 'AERIE',
      decimals: 4,
      supply: 42_000_000n,
      price: 0.6,
      description: 'Utility token of the Aerie data-availability network.',
    },
  ];

const MEMES: [string, string][] = [
  ['Moon Frog', 'MFROG'],
  ['Lazy Llama', 'LLAMA'],
  ['Cheems Ada', 'CHEEMS'],
  ['Pixel Pug', 'PPUG'],
  ['Rocket Newt', 'NEWT'],
  ['Bonk Otter', 'OTTER'],
  ['Gravy Train', 'GRAVY'],
  ['Sir Quackers', 'QUACK'],
  ['Turbo Snail', 'TSNAIL'],
  ['Hodl Hamster', 'HAMMY'],
  ['Degen Duck', 'DDUCK'],
  ['Wen Lambo', 'WEN'],
  ['Based Badger', 'BADGER'],
  ['Cosmic Cat', 'CCAT'],
  ['Frogi', 'FROGI'],
  ['Ape Stake', 'APES'],
  ['Yeti Coin', 'YETI'],
  ['Plank', 'PLANK'],
  ['Mochi', 'MOCHI'],
  ['Bork', 'BORK'],
  ['Slurp', 'SLURP'],
  ['Gm Gator', 'GMGATOR'],
  ['Noodle', 'NOODL'],
  ['Wagmi Whale', 'WHALE'],
  ['Tiny Titan', 'TITAN'],
  ['Crab Rave', 'CRAB'],
  ['Shrimp Inu', 'SHRIMP'],
  ['Pepe Ada', 'PEPEADA'],
  ['Kawaii Koi', 'KOI'],
  ['Honk', 'HONK'],
  ['Beep Boop', 'BEEP'],
  ['Zonk', 'ZONK'],
  ['Flip', 'FLIP'],
  ['Gecko Gang', 'GECKO'],
  ['Sloth Mode', 'SLOTH'],
  ['Chonk', 'CHONK'],
];

/** Policy id of a single-signature native script: blake2b-224 of 0x00 ‖ CBOR [0, keyHash] (as world.ts). */
export function nativePolicyId(policyVkey: string): string {
  return keyHash(hex.encode(Uint8Array.of(0x00, 0x82, 0x00, 0x58, 0x1c, ...hex.decode(keyHash(policyVkey)))));
}

const vkey = (seed: string, label: string) => hash256(enc.encode(`${seed}/key/dex-token/${label}`));

/** A small SVG logo (a coloured disc with the ticker) as a data URI: what CIP-68 `logo` fields carry. */
function svgLogo(ticker: string, hue: number): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<circle cx="32" cy="32" r="30" fill="hsl(${hue},70%,45%)"/>` +
    `<text x="32" y="38" font-family="sans-serif" font-size="${ticker.length > 4 ? 11 : 14}" font-weight="bold" ` +
    `text-anchor="middle" fill="#fff">${ticker}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Wallets that issue DEX tokens and seed their pools (base addresses, clear of the other modules' issuers). */
const ISSUER_FROM = 300;
const ISSUER_TO = 379;

export function dexTokens(world: World): DexToken[] {
  const rng = new Rng(world.seed, 'dex', 'tokens');
  const issuers: number[] = [];
  for (let i = ISSUER_FROM; i <= ISSUER_TO; i++) issuers.push(i);
  // Deterministic shuffle: every token gets its own issuer.
  for (let i = issuers.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [issuers[i], issuers[j]] = [issuers[j] as number, issuers[i] as number];
  }
  let nextIssuer = 0;
  const issuer = () => issuers[nextIssuer++ % issuers.length] as number;
  const scale = (d: number) => 10n ** BigInt(d);
  const out: DexToken[] = [];
  for (const r of REGISTRY) {
    out.push({
      unit: r.policyId + r.assetName,
      policyId: r.policyId,
      assetName: r.assetName,
      ticker: r.ticker,
      decimals: r.decimals,
      supply: r.supply * scale(r.decimals),
      price: r.price,
      tier: r.tier,
      source: 'registry',
      policyVkey: null,
      volatility: r.tier === 'stable' ? 0.0004 : r.tier === 'major' ? 0.004 : 0.006,
      issuer: issuer(),
      cip68: null,
    });
  }
  CIP68.forEach((c, i) => {
    const policyVkey = vkey(world.seed, `cip68/${c.ticker}`);
    const policyId = nativePolicyId(policyVkey);
    out.push({
      unit: policyId + CIP68_FT_PREFIX + utf8Hex(c.ticker),
      policyId,
      assetName: CIP68_FT_PREFIX + utf8Hex(c.ticker),
      ticker: c.ticker,
      decimals: c.decimals,
      supply: c.supply * scale(c.decimals),
      price: c.price,
      tier: 'mid',
      source: 'cip68',
      policyVkey,
      volatility: 0.006,
      issuer: issuer(),
      cip68: {
        name: c.name,
        ticker: c.ticker,
        decimals: c.decimals,
        description: c.description,
        url: `https://${c.name.toLowerCase().replace(/\s+/g, '')}.devnet`,
        logo: svgLogo(c.ticker, 40 + i * 110),
      },
    });
  });
  for (const [name, ticker] of MEMES) {
    const policyVkey = vkey(world.seed, `meme/${ticker}`);
    const policyId = nativePolicyId(policyVkey);
    const decimals = rng.chance(0.7) ? 0 : 6;
    const whole = BigInt(Math.round(rng.logUniform(1e8, 1e12)));
    // Market cap between 20k and 2M ADA at launch.
    const price = rng.logUniform(20_000, 2_000_000) / Number(whole);
    out.push({
      unit: policyId + utf8Hex(ticker),
      policyId,
      assetName: utf8Hex(ticker),
      ticker,
      decimals,
      supply: whole * scale(decimals),
      price,
      tier: 'tail',
      source: 'meme',
      policyVkey,
      volatility: 0.012,
      issuer: issuer(),
      cip68: null,
    });
    void name;
  }
  return out;
}

/** The (100) reference NFT's asset name for a (333) token. */
export const referenceAssetName = (t: DexToken) => CIP68_REFERENCE_PREFIX + t.assetName.slice(CIP68_FT_PREFIX.length);

/**
 * CIP-68 reference datum `C0[{name, ticker, decimals, description, url, logo}, 1, C0[]]`: keys and text values
 * as UTF-8 bytes, decimals as an integer (CIP-68 333 metadata).
 */
export function cip68Datum(m: Cip68Metadata): string {
  const entries: [PlutusData, PlutusData][] = [
    [bytes(utf8Hex('name')), bytes(utf8Hex(m.name))],
    [bytes(utf8Hex('ticker')), bytes(utf8Hex(m.ticker))],
    [bytes(utf8Hex('decimals')), BigInt(m.decimals)],
    [bytes(utf8Hex('description')), bytes(utf8Hex(m.description))],
    [bytes(utf8Hex('url')), bytes(utf8Hex(m.url))],
    [bytes(utf8Hex('logo')), bytes(utf8Hex(m.logo))],
  ];
  return encodePlutusData(constr(0, { map: entries }, 1n, constr(0)));
}

/** Where reference NFTs live: an enterprise script address (a metadata-store validator nobody can spend). */
export function cip68StoreAddress(world: World): string {
  return enterpriseAddress('mainnet', keyHash(hash256(enc.encode(`${world.seed}/script/cip68-store`))), true);
}

/**
 * ADA Handles in their real on-chain formats (reference/dex-nft-handles.md §4), on the real mainnet handle policy
 * id (the devnet is a simulator: a policy id is just bytes, signed here by a devnet key):
 * - legacy CIP-25 handles: asset name = the name's UTF-8, label 721 metadata `{name: "$name", image, core, …}`;
 * - CIP-68 handles: the (222) user token to the buyer and the (100) reference token to the Kora Labs script with
 *   the datum `C0[{name, image, og_number, rarity, length, …}, 1, {default, last_update_address, …}]`;
 * - NFT subhandles `sub@root` ((222) + (100), minted by the root's holder, who first mints the root's (001)
 *   subhandle-settings token) and one virtual subhandle: a (000) token kept at the script whose datum names the
 *   holder in `resolved_addresses.ada` (address bytes), later re-pointed to another wallet;
 * - transfers of holder tokens between wallets (some to an enterprise wallet, one listing at a marketplace script),
 *   and one burn of a CIP-68 handle (both tokens).
 * A few dozen handles, minted early in the chain; names, owners and images are functions of the seed.
 */
import { base58, hex } from '@scure/base';
import { enterpriseAddress, hash256, keyHash } from '../../cardano/address.js';
import { bytes, constr, encodePlutusData, type PlutusData } from '../../cardano/dex/plutus-data.js';
import type { CborValue } from '../cbor.js';
import type { ActivityContext, ActivityModule } from '../generator.js';
import type { Utxo } from '../ledger.js';
import { Rng } from '../rng.js';
import { policySigner, type DevTx, type OutputDraft } from '../tx.js';
import { minCoin, type Assets } from '../value.js';
import { addressBytes, type Wallet, type World } from '../world.js';
import { ADA, pickFunded } from './common.js';

/** The original ADA Handle policy (mainnet), and the Kora Labs script holding (100) reference tokens on mainnet. */
export const HANDLE_POLICY = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';
export const KORA_SCRIPT_ADDRESS = 'addr1wxktka03n943759y4pcexpmftdhzsrrv8kcd2qs8cwgtdhgg6j4ux';
/** CIP-67 prefixes: (000) virtual subhandle, (001) subhandle settings, (100) reference, (222) user token. */
const VIRTUAL = '00000000';
const SETTINGS = '00001070';
const REFERENCE = '000643b0';
const USER = '000de140';

const enc = new TextEncoder();
const utf8Hex = (s: string) => hex.encode(enc.encode(s));
const text = (s: string): PlutusData => bytes(utf8Hex(s));

export type DevHandleKind = 'legacy' | 'cip68' | 'subhandle' | 'virtual';
interface Job {
  kind: DevHandleKind;
  name: string;
}

const WORDS = [
  'alice',
  'atlas',
  'bison',
  'cosmo',
  'delta',
  'ember',
  'fjord',
  'gecko',
  'hydra',
  'indigo',
  'jolt',
  'kaizen',
  'lotus',
  'mochi',
  'nova',
  'orca',
  'pixel',
  'quill',
  'raven',
  'satoshi',
  'tundra',
  'umbra',
  'vortex',
  'willow',
  'xeno',
  'yeti',
  'zen',
  'stake',
  'pool',
  'mint',
  'ada',
  'lace',
  'dao',
  'node',
  'block',
  'ledger',
];
const SUBS = ['pay', 'dev', 'shop', 'vault', 'ops', 'team'];
const LEGACY = 8;
const CIP68 = 14;
const NFT_SUBHANDLES = 4;
const FIRST_HEIGHT = 12;

/** A name in the style of real handles: words, digits and `-`, `_`, `.` (Kora's rule: 1-28 of a-z 0-9 _ - .). */
function handleName(r: Rng): string {
  const u = r.next();
  const w = r.pick(WORDS);
  if (u < 0.3) return w;
  if (u < 0.5) return `${w}${r.int(1, 9999)}`;
  if (u < 0.62) return `${w}-${r.pick(WORDS)}`;
  if (u < 0.72) return `${w}_${r.pick(WORDS)}`;
  if (u < 0.8) return `${w}.${r.pick(['ada', 'io', 'eth', 'dev'])}`;
  if (u < 0.88) return `${r.int(1, 999)}-${r.int(10, 99)}`;
  if (u < 0.94) return String(r.int(0, 99_999));
  return w.slice(0, r.int(1, 2));
}

/** The mint plan: legacy handles first (2022), then CIP-68 roots, NFT subhandles of those roots, one virtual. */
export function handlePlan(seed: string): Job[] {
  const r = new Rng(seed, 'handles', 'plan');
  const used = new Set<string>();
  const fresh = (): string => {
    for (;;) {
      const n = handleName(r);
      if (!used.has(n)) {
        used.add(n);
        return n;
      }
    }
  };
  const jobs: Job[] = [];
  for (let i = 0; i < LEGACY; i++) jobs.push({ kind: 'legacy', name: fresh() });
  const roots: string[] = [];
  for (let i = 0; i < CIP68; i++) {
    const name = fresh();
    roots.push(name);
    jobs.push({ kind: 'cip68', name });
  }
  const parents = roots.filter((n) => n.length >= 3 && n.length <= 20);
  for (let i = 0; i < NFT_SUBHANDLES; i++) {
    const name = `${SUBS[i % SUBS.length]}@${parents[i % parents.length]}`;
    used.add(name);
    jobs.push({ kind: 'subhandle', name });
  }
  jobs.push({ kind: 'virtual', name: `me@${parents[0]}` });
  return jobs;
}

/** Rarity by length, as Kora Labs prices handles. */
const rarity = (name: string) =>
  name.length === 1
    ? 'legendary'
    : name.length === 2
      ? 'ultra_rare'
      : name.length === 3
        ? 'rare'
        : name.length < 8
          ? 'common'
          : 'basic';
const PRICE_ADA: Record<string, bigint> = { legendary: 2000n, ultra_rare: 500n, rare: 100n, common: 50n, basic: 10n };

function characters(name: string): string {
  const kinds = [/[a-z]/.test(name) && 'letters', /[0-9]/.test(name) && 'numbers', /[-_.@]/.test(name) && 'special'];
  return kinds.filter(Boolean).join(',');
}

/** An IPFS image URI (CIDv0) derived from the seed and the handle. */
function imageOf(seed: string, name: string): { uri: string; hash: string } {
  const digest = hash256(enc.encode(`${seed}/handle-image/${name}`));
  return { uri: `ipfs://${base58.encode(Uint8Array.of(0x12, 0x20, ...hex.decode(digest)))}`, hash: digest };
}

const HANDLE_TYPE: Record<DevHandleKind, string> = {
  legacy: 'handle',
  cip68: 'handle',
  subhandle: 'nft_subhandle',
  virtual: 'virtual_subhandle',
};

/** The CIP-68 metadata map (field 0 of the datum), as Kora Labs writes it. */
function nftMetadata(seed: string, name: string, kind: DevHandleKind): [string, PlutusData][] {
  return [
    ['name', text(`$${name}`)],
    ['image', text(imageOf(seed, name).uri)],
    ['mediaType', text('image/jpeg')],
    ['og', 0n],
    ['og_number', 0n],
    ['rarity', text(rarity(name))],
    ['length', BigInt(name.length)],
    ['characters', text(characters(name))],
    ['numeric_modifiers', text('')],
    ['handle_type', text(HANDLE_TYPE[kind])],
    ['version', 1n],
  ];
}

/**
 * The (100)/(000) datum `C0[metadata, 1, personalisation]`: keys and text as UTF-8 bytes, addresses as their bytes.
 * `resolvedAda` (virtual subhandles) is the holder's address.
 */
export function handleDatum(
  seed: string,
  name: string,
  kind: DevHandleKind,
  opts: { owner: string; isDefault: boolean; resolvedAda?: string; expiresMs?: number },
): string {
  const img = imageOf(seed, name);
  const pz: [string, PlutusData][] = [
    ['standard_image', text(img.uri)],
    ['portal', text('')],
    ['designer', text('')],
    ['socials', text('')],
    ['vendor', text('')],
    ['default', opts.isDefault ? 1n : 0n],
    ['last_update_address', bytes(hex.encode(addressBytes(opts.owner)))],
    ['validated_by', bytes(keyHash(hash256(enc.encode(`${seed}/handles/validator`))))],
    ['image_hash', bytes(img.hash)],
    ['standard_image_hash', bytes(img.hash)],
    ['svg_version', text('3.0.8')],
    ['agreed_terms', text('https://handle.me/$/tou')],
    ['migrate_sig_required', 0n],
    ['trial', 0n],
    ['nsfw', 0n],
    ['pz_enabled', 1n],
  ];
  if (opts.resolvedAda !== undefined) {
    pz.push(['resolved_addresses', { map: [[text('ada'), bytes(hex.encode(addressBytes(opts.resolvedAda)))]] }]);
    pz.push([
      'virtual',
      {
        map: [
          [text('expires_time'), BigInt(opts.expiresMs ?? 0)],
          [text('public_mint'), 0n],
        ],
      },
    ]);
  }
  const asMap = (entries: [string, PlutusData][]): PlutusData => ({ map: entries.map(([k, v]) => [text(k), v]) });
  return encodePlutusData(constr(0, asMap(nftMetadata(seed, name, kind)), 1n, asMap(pz)));
}

/** Label 721 metadata of a legacy handle (2022 format). */
function legacyMetadata(seed: string, name: string): Record<string, CborValue> {
  return {
    name: `$${name}`,
    image: imageOf(seed, name).uri,
    description: 'The Handle Standard',
    website: 'https://adahandle.com',
    core: { og: 0, prefix: '$', version: 0, termsofuse: 'https://adahandle.com/tou', handleEncoding: 'utf-8' },
    augmentations: [],
  };
}

/** Label 721 metadata Kora Labs adds to a CIP-68 mint, keyed by the (222) asset name (hex). */
function cip68MintMetadata(seed: string, name: string, kind: DevHandleKind): Record<string, CborValue> {
  const out: Record<string, CborValue> = {};
  for (const [k, v] of nftMetadata(seed, name, kind))
    out[k] = typeof v === 'bigint' ? v : Buffer.from(v as Uint8Array).toString('utf8');
  return out;
}

interface Held {
  kind: DevHandleKind;
  /** Asset name (hex) of the holder token. */
  assetName: string;
  /** Current holder: a wallet, or null once listed at the marketplace script. */
  holder: Wallet | null;
}

/** `systemStartMs`: wall-clock time of slot 0, for the virtual subhandle's POSIX expiry. */
export function handlesModule(world: World, opts: { systemStartMs?: number } = {}): ActivityModule {
  const plan = handlePlan(world.seed);
  const policyVkey = hash256(enc.encode(`${world.seed}/key/handles/policy`));
  const mintPolicies = { [HANDLE_POLICY]: policySigner(policyVkey) };
  const treasury = world.wallets[world.wallets.length - 3] as Wallet;
  const market = enterpriseAddress('mainnet', keyHash(hash256(enc.encode(`${world.seed}/script/handle-market`))), true);
  const enterprise = world.wallets.filter((w) => w.stakeCred === null);
  let next = 0;
  let transfers = 0;
  let burned = false;
  let repointed = false;
  const held = new Map<string, Held>();
  const defaults = new Set<string>();
  const withSettings = new Set<string>();

  const one = (assetName: string, q = 1n): Assets => ({ [HANDLE_POLICY]: { [assetName]: q } });
  const scriptOut = (assets: Assets, datum: string): OutputDraft => ({
    address: KORA_SCRIPT_ADDRESS,
    value: { coin: minCoin(assets, datum.length / 2), assets },
    datum,
  });
  const heldUtxo = (ctx: ActivityContext, address: string, assetName: string): Utxo | null => {
    for (const u of ctx.view.utxosAt(address)) if (u.value.assets[HANDLE_POLICY]?.[assetName]) return u;
    return null;
  };

  /**
   * `inputs` plus one more UTxO of the payer: buildTx pulls funding only when the explicit inputs leave change, so a
   * token UTxO holding exactly what its new output needs (a handle moved before, a re-pointed datum) would not pay
   * its fee.
   */
  const withFee = (ctx: ActivityContext, payer: string, inputs: Utxo[]): Utxo[] => {
    for (const u of ctx.view.utxosAt(payer))
      if (u.value.coin >= 3n * ADA && !inputs.some((i) => i.txId === u.txId && i.index === u.index))
        return [...inputs, u];
    return inputs;
  };

  const mint = (ctx: ActivityContext, job: Job): DevTx | null => {
    const { name, kind } = job;
    const nameHex = utf8Hex(name);
    const price = PRICE_ADA[rarity(name)] as bigint;
    if (kind === 'legacy' || kind === 'cip68') {
      const buyer = pickFunded(ctx, world.stakers, (price + 20n) * ADA);
      if (!buyer) return null;
      const user = kind === 'legacy' ? nameHex : USER + nameHex;
      const outputs: OutputDraft[] = [
        { address: buyer.address, value: { coin: minCoin(one(user)), assets: one(user) } },
      ];
      const mint: Assets = one(user);
      if (kind === 'cip68') {
        const isDefault = !defaults.has(buyer.address);
        mint[HANDLE_POLICY]![REFERENCE + nameHex] = 1n;
        outputs.push(
          scriptOut(one(REFERENCE + nameHex), handleDatum(world.seed, name, kind, { owner: buyer.address, isDefault })),
        );
      }
      outputs.push({ address: treasury.address, value: { coin: price * ADA, assets: {} } });
      const metadata = {
        '721': {
          [HANDLE_POLICY]: {
            [kind === 'legacy' ? name : user]:
              kind === 'legacy' ? legacyMetadata(world.seed, name) : cip68MintMetadata(world.seed, name, kind),
          },
        },
      };
      const tx = ctx.build({
        fundFrom: buyer.address,
        mint,
        mintPolicies,
        outputs,
        metadata,
        signers: [buyer.paymentVkey, policyVkey],
      });
      if (tx) {
        held.set(name, { kind, assetName: user, holder: buyer });
        if (kind === 'cip68') defaults.add(buyer.address);
      }
      return tx;
    }
    // Subhandles: the root's holder mints (and pays); the root must still sit in a wallet.
    const root = name.slice(name.indexOf('@') + 1);
    const owner = held.get(root)?.holder;
    if (!owner || ctx.view.coinAt(owner.address) < 30n * ADA) return null;
    const mint: Assets = {};
    const outputs: OutputDraft[] = [];
    if (!withSettings.has(root)) {
      // The root's (001) subhandle settings token (not a handle), minted once before its first subhandle.
      mint[HANDLE_POLICY] = { [SETTINGS + utf8Hex(root)]: 1n };
      outputs.push(scriptOut(one(SETTINGS + utf8Hex(root)), encodePlutusData(constr(0, { map: [] }, 1n))));
    }
    const to = kind === 'subhandle' ? ctx.rng.pick(world.stakers) : null;
    const resolved = ctx.rng.pick(world.stakers);
    if (kind === 'subhandle') {
      const user = USER + nameHex;
      mint[HANDLE_POLICY] = { ...mint[HANDLE_POLICY], [user]: 1n, [REFERENCE + nameHex]: 1n };
      outputs.push({ address: to!.address, value: { coin: minCoin(one(user)), assets: one(user) } });
      outputs.push(
        scriptOut(
          one(REFERENCE + nameHex),
          handleDatum(world.seed, name, kind, { owner: to!.address, isDefault: false }),
        ),
      );
    } else {
      mint[HANDLE_POLICY] = { ...mint[HANDLE_POLICY], [VIRTUAL + nameHex]: 1n };
      outputs.push(scriptOut(one(VIRTUAL + nameHex), virtualDatum(name, owner.address, resolved.address, ctx)));
    }
    const tx = ctx.build({
      fundFrom: owner.address,
      mint,
      mintPolicies,
      outputs,
      signers: [owner.paymentVkey, policyVkey],
    });
    if (tx) {
      withSettings.add(root);
      if (kind === 'subhandle') held.set(name, { kind, assetName: USER + nameHex, holder: to });
    }
    return tx;
  };

  /** A virtual subhandle expires a year after it is (re)pointed (POSIX ms; 1 slot = 1 s). */
  const virtualDatum = (name: string, owner: string, resolved: string, ctx: ActivityContext) =>
    handleDatum(world.seed, name, 'virtual', {
      owner,
      isDefault: false,
      resolvedAda: resolved,
      expiresMs: (opts.systemStartMs ?? 0) + (ctx.slot + 365 * 86_400) * 1000,
    });

  const transfer = (ctx: ActivityContext): DevTx | null => {
    const movable = [...held].filter(([, h]) => h.holder !== null);
    if (movable.length < 5) return null;
    const [name, h] = ctx.rng.pick(movable);
    const from = h.holder as Wallet;
    const u = heldUtxo(ctx, from.address, h.assetName);
    if (!u) return null;
    const listing = transfers === 5;
    const to = listing ? null : ctx.rng.chance(0.15) ? ctx.rng.pick(enterprise) : ctx.rng.pick(world.stakers);
    if (to === from) return null;
    const piece = one(h.assetName);
    const tx = ctx.build({
      inputs: withFee(ctx, from.address, [u]),
      fundFrom: from.address,
      outputs: [{ address: to ? to.address : market, value: { coin: minCoin(piece), assets: piece } }],
      signers: [from.paymentVkey],
    });
    if (tx) {
      transfers++;
      held.set(name, { ...h, holder: to });
    }
    return tx;
  };

  /** Burns one CIP-68 handle: its (222) token from the holder and its (100) token from the script. */
  const burn = (ctx: ActivityContext): DevTx | null => {
    const target = plan.find((j, i) => j.kind === 'cip68' && i > LEGACY && held.get(j.name)?.holder);
    if (!target) return null;
    const h = held.get(target.name) as Held;
    const holder = h.holder as Wallet;
    const nameHex = utf8Hex(target.name);
    const user = heldUtxo(ctx, holder.address, h.assetName);
    const ref = heldUtxo(ctx, KORA_SCRIPT_ADDRESS, REFERENCE + nameHex);
    if (!user || !ref) return null;
    const tx = ctx.build({
      inputs: [user, ref],
      fundFrom: holder.address,
      mint: { [HANDLE_POLICY]: { [h.assetName]: -1n, [REFERENCE + nameHex]: -1n } },
      mintPolicies,
      outputs: [],
      signers: [holder.paymentVkey, policyVkey],
    });
    if (tx) held.delete(target.name);
    return tx;
  };

  /** The virtual subhandle's owner points it at another wallet: the (000) token is re-created with a new datum. */
  const repoint = (ctx: ActivityContext): DevTx | null => {
    const job = plan.find((j) => j.kind === 'virtual') as Job;
    const root = job.name.slice(job.name.indexOf('@') + 1);
    const owner = held.get(root)?.holder;
    const u = heldUtxo(ctx, KORA_SCRIPT_ADDRESS, VIRTUAL + utf8Hex(job.name));
    if (!owner || !u) return null;
    const to = ctx.rng.pick(world.stakers);
    return ctx.build({
      inputs: withFee(ctx, owner.address, [u]),
      fundFrom: owner.address,
      outputs: [
        { address: KORA_SCRIPT_ADDRESS, value: u.value, datum: virtualDatum(job.name, owner.address, to.address, ctx) },
      ],
      signers: [owner.paymentVkey],
    });
  };

  return {
    name: 'handles',
    step(ctx) {
      const txs: DevTx[] = [];
      if (ctx.height < FIRST_HEIGHT) return txs;
      const push = (tx: DevTx | null) => tx && txs.push(tx);
      if (next < plan.length && ctx.rng.chance(0.4)) {
        const tx = mint(ctx, plan[next] as Job);
        if (tx) next++;
        push(tx);
      }
      if (ctx.rng.chance(0.12)) push(transfer(ctx));
      if (next >= plan.length && !burned && ctx.rng.chance(0.25)) {
        const tx = burn(ctx);
        if (tx) burned = true;
        push(tx);
      } else if (burned && !repointed && ctx.rng.chance(0.25)) {
        const tx = repoint(ctx);
        if (tx) repointed = true;
        push(tx);
      }
      return txs;
    },
  };
}

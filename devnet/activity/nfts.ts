/**
 * NFT collections (CIP-25): buyers mint 1–3 pieces from a project, paying its creator wallet, with label 721
 * metadata `{policyId: {assetName: {name, image: ipfs://…, mediaType, attributes}}, version}`; afterwards
 * holders sell pieces to other wallets (buyer pays the seller in the same transaction) or give them away.
 * Each piece's traits and image are a function of (seed, collection, number), not of when it is minted.
 */
import { base58, hex } from '@scure/base';
import { hash256 } from '../../cardano/address.js';
import type { CborValue } from '../cbor.js';
import type { ActivityContext, ActivityModule } from '../generator.js';
import { Rng } from '../rng.js';
import { policySigner, type DevTx } from '../tx.js';
import { addAssets, cloneAssets, minCoin, type Assets } from '../value.js';
import type { NftCollection, World } from '../world.js';
import { ADA, adaBetween, pickFunded } from './common.js';

const enc = new TextEncoder();

/** CIP-25 metadata of piece `n` (v1: asset names as UTF-8 text keys). */
export function nftMetadata(world: World, c: NftCollection, n: number): Record<string, CborValue> {
  const r = new Rng(world.seed, 'nft', c.prefix, n);
  const attributes: Record<string, CborValue> = {};
  for (const [trait, values] of Object.entries(c.traits)) attributes[trait] = r.pick(values);
  // CIDv0: base58btc of the multihash 0x12 0x20 ‖ 32-byte digest, 46 characters starting with "Qm".
  const cid = base58.encode(
    Uint8Array.of(0x12, 0x20, ...hex.decode(hash256(enc.encode(`${world.seed}/${c.prefix}/${n}`)))),
  );
  return { name: `${c.name} #${n}`, image: `ipfs://${cid}`, mediaType: 'image/png', attributes };
}

export const nftAssetName = (c: NftCollection, n: number) => hex.encode(enc.encode(`${c.prefix}${n}`));

export function nftsModule(world: World): ActivityModule {
  const minted = new Map<string, number>();
  const policies = new Set(world.collections.map((c) => c.policyId));
  // Recent NFT recipients (a bounded ring): sellers are drawn from here rather than by scanning every wallet.
  const holders: string[] = [];
  const received = (address: string) => {
    holders.push(address);
    if (holders.length > 400) holders.splice(0, holders.length - 400);
  };
  const byAddress = new Map([...world.wallets].map((w) => [w.address, w]));

  const mint = (ctx: ActivityContext): DevTx | null => {
    const open = world.collections.filter((c) => (minted.get(c.policyId) ?? 0) < c.size);
    if (!open.length) return null;
    const c = ctx.rng.pick(open);
    const first = (minted.get(c.policyId) ?? 0) + 1;
    const count = Math.min(ctx.rng.int(1, 3), c.size - first + 1);
    const buyer = pickFunded(ctx, world.wallets, c.priceLovelace * BigInt(count) + 10n * ADA);
    if (!buyer) return null;
    const names: Record<string, bigint> = {};
    const meta: Record<string, CborValue> = {};
    for (let n = first; n < first + count; n++) {
      names[nftAssetName(c, n)] = 1n;
      meta[`${c.prefix}${n}`] = nftMetadata(world, c, n);
    }
    const assets: Assets = { [c.policyId]: names };
    const creator = world.wallets[c.creator]!;
    const tx = ctx.build({
      fundFrom: buyer.address,
      mint: assets,
      mintPolicies: { [c.policyId]: policySigner(c.policyVkey) },
      outputs: [
        { address: buyer.address, value: { coin: minCoin(assets), assets: cloneAssets(assets) } },
        { address: creator.address, value: { coin: c.priceLovelace * BigInt(count), assets: {} } },
      ],
      metadata: { '721': { [c.policyId]: meta, version: '1.0' } },
      signers: [buyer.paymentVkey, c.policyVkey],
    });
    if (tx) {
      minted.set(c.policyId, first + count - 1);
      received(buyer.address);
    }
    return tx;
  };

  const trade = (ctx: ActivityContext): DevTx | null => {
    for (let i = 0; i < 3 && holders.length; i++) {
      const seller = byAddress.get(ctx.rng.pick(holders)) as (typeof world.wallets)[number];
      for (const u of ctx.view.utxosAt(seller.address)) {
        const policy = Object.keys(u.value.assets).find((p) => policies.has(p));
        if (!policy) continue;
        const name = Object.keys(u.value.assets[policy]!)[0]!;
        const piece: Assets = { [policy]: { [name]: 1n } };
        const rest = cloneAssets(u.value.assets);
        addAssets(rest, piece, -1n);
        const gift = ctx.rng.chance(0.25);
        const price = adaBetween(ctx, 5, 900);
        const buyer = gift ? ctx.rng.pick(world.wallets) : pickFunded(ctx, world.wallets, price + 10n * ADA);
        if (!buyer || buyer === seller) return null;
        const tx = ctx.build({
          inputs: [u],
          fundFrom: gift ? seller.address : buyer.address,
          outputs: [
            { address: buyer.address, value: { coin: minCoin(piece), assets: piece } },
            // The seller keeps the rest of the UTxO (and is paid, in a sale); a gift's leftover ADA is change.
            ...(gift && Object.keys(rest).length === 0
              ? []
              : [{ address: seller.address, value: { coin: u.value.coin + (gift ? 0n : price), assets: rest } }]),
          ],
          signers: gift ? [seller.paymentVkey] : [seller.paymentVkey, buyer.paymentVkey],
        });
        if (tx) received(buyer.address);
        return tx;
      }
    }
    return null;
  };

  return {
    name: 'nfts',
    step(ctx) {
      const txs: DevTx[] = [];
      if (ctx.height < 3) return txs;
      const push = (tx: DevTx | null) => tx && txs.push(tx);
      const mints = ctx.rng.poisson(0.3);
      for (let i = 0; i < mints; i++) push(mint(ctx));
      const trades = ctx.rng.poisson(0.6);
      for (let i = 0; i < trades; i++) push(trade(ctx));
      return txs;
    },
  };
}

/**
 * Iagon storage providers (reference §7) on the devnet, in the contracts' on-chain formats
 * (activities/storage/datum.ts): a treasury takes IAG from its issuer once it is minted (the DEX module mints the
 * real IAG unit with its first pool) and hands every provider an allocation; providers then
 *   - stake: lock IAG at the staking script with an inline datum {providerKey, providerAddr, locked_until, Active};
 *   - resize: re-lock a larger Active stake (own stake output + more IAG → one output);
 *   - retire: once locked_until has passed, re-lock the same value with state Retiring and a new locked_until;
 *   - withdraw: once a Retiring output's locked_until has passed, take it back to providerAddr;
 *   - claim rewards: take IAG from a reward-script output, the continuing output carrying the RewardCertificate
 *     {cert_utxo (an input of the claim), expires_in, provider_key, value}; the treasury refills the reward script.
 * The contract's 3-month lock after Retire is 6 hours here, so a 48 h history shows withdrawals as well as
 * providers in both states. The devnet writes no redeemers; the service classifies by datums (events.ts).
 * Module state (each provider's stake output) changes only in canonical steps; fork blocks carry nothing from here.
 */
import { enterpriseAddress } from '../../cardano/address.js';
import { encodeRewardCertificate, encodeStakeDatum } from '../../activities/storage/datum.js';
import { IAG_NAME, IAG_POLICY, IAG_UNIT, devnetIagonScripts } from '../../cardano/iagon.js';
import type { ActivityContext, ActivityModule } from '../generator.js';
import type { Utxo } from '../ledger.js';
import { Rng } from '../rng.js';
import type { DevTx } from '../tx.js';
import { coinOnly, minCoin, type Assets } from '../value.js';
import type { Wallet, World } from '../world.js';
import { ADA } from './common.js';
import { dexTokens } from './dex-tokens.js';

export interface IagonModuleOptions {
  /** Unix ms of slot 0, for the POSIX times in datums. */
  systemStartMs?: number;
}

const IAG = 1_000_000n;
const PROVIDERS = 24;
const TREASURY = 299;
/** Providers are drawn from wallets no other module gives a role (issuers, creators, pool owners, batchers). */
const PROVIDER_FROM = 120;
const PROVIDER_TO = 298;
const TREASURY_IAG = 30_000_000n * IAG;
const MIN_STAKE = 10_000n * IAG;
/** Lock of a new Active stake before it may retire, and of a Retiring one before it may be withdrawn (ms). */
const INITIAL_LOCK_MS = 3 * 3_600_000;
const RETIRE_LOCK_MS = 6 * 3_600_000;
/** Provider actions and reward claims per block (Poisson means). */
const ACTIONS_PER_BLOCK = 0.06;
const CLAIMS_PER_BLOCK = 0.04;
/** The treasury refills the reward script below this much IAG. */
const REWARD_LOW = 100_000n * IAG;
const REWARD_REFILL = 1_000_000n * IAG;
/** Inline datum of a funding output at the reward script (the validator ignores it): unit, C0[]. */
const UNIT_DATUM = 'd87980';

interface Stake {
  utxo: Utxo;
  state: 'active' | 'retiring';
  lockedUntilMs: number;
}

const iagAssets = (q: bigint): Assets => ({ [IAG_POLICY]: { [IAG_NAME]: q } });
const iagOf = (u: Utxo): bigint => u.value.assets[IAG_POLICY]?.[IAG_NAME] ?? 0n;

/**
 * A plain UTxO of the provider to spend beside its stake output: re-locking or withdrawing the same value leaves
 * nothing over for the fee, and the builder adds funding inputs only for a shortfall.
 */
function feeInput(ctx: ActivityContext, address: string): Utxo | null {
  for (const u of ctx.view.utxosAt(address)) if (u.value.coin >= 3n * ADA) return u;
  return null;
}

function iagAt(ctx: ActivityContext, address: string): bigint {
  let total = 0n;
  for (const u of ctx.view.utxosAt(address)) total += iagOf(u);
  return total;
}

export function iagonModule(world: World, opts: IagonModuleOptions = {}): ActivityModule {
  const systemStartMs = opts.systemStartMs ?? 0;
  const timeMs = (slot: number) => systemStartMs + slot * 1000;
  const scripts = devnetIagonScripts(world.seed);
  const stakeAddress = enterpriseAddress('mainnet', scripts.stake[0] as string, true);
  const rewardAddress = enterpriseAddress('mainnet', scripts.reward[0] as string, true);
  const issuer = world.wallets[
    (dexTokens(world).find((t) => t.unit === IAG_UNIT) as { issuer: number }).issuer
  ] as Wallet;
  const treasury = world.wallets[TREASURY] as Wallet;

  const pickRng = new Rng(world.seed, 'iagon', 'providers');
  const pool: number[] = [];
  for (let i = PROVIDER_FROM; i <= PROVIDER_TO; i++) pool.push(i);
  const providers: Wallet[] = [];
  for (let n = 0; n < PROVIDERS; n++)
    providers.push(world.wallets[pool.splice(pickRng.int(0, pool.length - 1), 1)[0] as number] as Wallet);

  let phase: 'treasury' | 'distribute' | 'running' = 'treasury';
  let treasuryFunded = false;
  const stakes = new Map<Wallet, Stake>();

  const lock = (
    ctx: ActivityContext,
    w: Wallet,
    value: Utxo['value'],
    state: Stake['state'],
    lockMs: number,
    inputs: Utxo[],
  ) => {
    const lockedUntilMs = timeMs(ctx.slot) + lockMs;
    const datum = encodeStakeDatum({ providerKey: w.paymentCred, providerAddress: w.address, lockedUntilMs, state });
    const coin = value.coin > 0n ? value.coin : minCoin(value.assets, datum.length / 2);
    const tx = ctx.build({
      inputs,
      fundFrom: w.address,
      outputs: [{ address: stakeAddress, value: { coin, assets: value.assets }, datum }],
      signers: [w.paymentVkey],
    });
    if (tx) stakes.set(w, { utxo: tx.created[0] as Utxo, state, lockedUntilMs });
    return tx;
  };

  const act = (ctx: ActivityContext, w: Wallet): DevTx | null => {
    const s = stakes.get(w);
    const nowMs = timeMs(ctx.slot);
    if (!s) {
      const held = iagAt(ctx, w.address);
      if (held < MIN_STAKE || !ctx.rng.chance(0.7)) return null;
      const amount = (held * BigInt(ctx.rng.int(30, 90))) / 100n;
      return lock(ctx, w, { coin: 0n, assets: iagAssets(amount) }, 'active', INITIAL_LOCK_MS, []);
    }
    if (nowMs <= s.lockedUntilMs) return null;
    if (s.state === 'active') {
      const u = ctx.rng.next();
      const fee = feeInput(ctx, w.address);
      if (u < 0.15) return fee && lock(ctx, w, s.utxo.value, 'retiring', RETIRE_LOCK_MS, [s.utxo, fee]);
      const held = iagAt(ctx, w.address);
      if (u < 0.25 && held >= MIN_STAKE) {
        const more = (held * BigInt(ctx.rng.int(20, 60))) / 100n;
        return lock(
          ctx,
          w,
          { coin: s.utxo.value.coin, assets: iagAssets(iagOf(s.utxo) + more) },
          'active',
          INITIAL_LOCK_MS,
          [s.utxo],
        );
      }
      return null;
    }
    const fee = feeInput(ctx, w.address);
    if (!ctx.rng.chance(0.5) || !fee) return null;
    const tx = ctx.build({
      inputs: [s.utxo, fee],
      fundFrom: w.address,
      outputs: [{ address: w.address, value: s.utxo.value }],
      signers: [w.paymentVkey],
    });
    if (tx) stakes.delete(w);
    return tx;
  };

  const claim = (ctx: ActivityContext): DevTx | null => {
    const staked = providers.filter((p) => stakes.has(p));
    if (!staked.length) return null;
    const w = ctx.rng.pick(staked);
    let from: Utxo | null = null;
    for (const u of ctx.view.utxosAt(rewardAddress)) if (!from || iagOf(u) > iagOf(from)) from = u;
    const certUtxo = [...ctx.view.utxosAt(w.address)].find((u) => u.value.coin >= 3n * ADA);
    if (!from || !certUtxo) return null;
    const amount = BigInt(Math.floor(ctx.rng.logUniform(500, 5_000) * 1e6));
    if (amount > iagOf(from)) return null;
    const rest = iagOf(from) - amount;
    const datum = encodeRewardCertificate({
      certUtxo: { txId: certUtxo.txId, index: certUtxo.index },
      expiresInMs: timeMs(ctx.slot) + 3_600_000,
      providerKey: w.paymentCred,
      value: { [IAG_UNIT]: amount },
    });
    const restAssets = rest > 0n ? iagAssets(rest) : {};
    const coin = [from.value.coin, minCoin(restAssets, datum.length / 2)].reduce((a, b) => (a > b ? a : b));
    return ctx.build({
      inputs: [from, certUtxo],
      fundFrom: w.address,
      outputs: [
        { address: rewardAddress, value: { coin, assets: restAssets }, datum },
        { address: w.address, value: { coin: minCoin(iagAssets(amount)), assets: iagAssets(amount) } },
      ],
      signers: [w.paymentVkey],
    });
  };

  return {
    name: 'iagon',
    step(ctx) {
      const txs: DevTx[] = [];
      const push = (tx: DevTx | null) => tx && txs.push(tx);
      if (phase === 'treasury') {
        // The treasury's ADA first (fees and min-ADA of every output it makes), then IAG once it exists.
        if (iagAt(ctx, issuer.address) < TREASURY_IAG) return txs;
        if (!treasuryFunded) {
          const funding = ctx.build({
            fundFrom: world.faucet.address,
            outputs: [{ address: treasury.address, value: coinOnly(20_000n * ADA) }],
            signers: [world.faucet.paymentVkey],
          });
          if (funding) txs.push(funding);
          treasuryFunded = funding !== null;
        }
        const a = iagAssets(TREASURY_IAG);
        const tx = ctx.build({
          fundFrom: issuer.address,
          outputs: [{ address: treasury.address, value: { coin: minCoin(a), assets: a } }],
          signers: [issuer.paymentVkey],
        });
        if (tx) {
          txs.push(tx);
          phase = 'distribute';
        }
        return txs;
      }
      if (phase === 'distribute') {
        const outputs = providers.map((p) => {
          const a = iagAssets(BigInt(Math.floor(ctx.rng.logUniform(150_000, 1_500_000))) * IAG);
          return { address: p.address, value: { coin: minCoin(a), assets: a } };
        });
        const tx = ctx.build({ fundFrom: treasury.address, outputs, signers: [treasury.paymentVkey] });
        if (tx) {
          txs.push(tx);
          phase = 'running';
        }
        return txs;
      }
      if (iagAt(ctx, rewardAddress) < REWARD_LOW && iagAt(ctx, treasury.address) >= REWARD_REFILL) {
        const a = iagAssets(REWARD_REFILL);
        push(
          ctx.build({
            fundFrom: treasury.address,
            outputs: [
              {
                address: rewardAddress,
                value: { coin: minCoin(a, UNIT_DATUM.length / 2), assets: a },
                datum: UNIT_DATUM,
              },
            ],
            signers: [treasury.paymentVkey],
          }),
        );
      }
      const n = ctx.rng.poisson(ACTIONS_PER_BLOCK);
      for (let i = 0; i < n; i++) push(act(ctx, ctx.rng.pick(providers)));
      const c = ctx.rng.poisson(CLAIMS_PER_BLOCK);
      for (let i = 0; i < c; i++) push(claim(ctx));
      return txs;
    },
  };
}

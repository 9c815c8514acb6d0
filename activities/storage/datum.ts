/**
 * Iagon's datums (Aiken contracts `Charli3-Official/staking-and-rewards-contract`, reference §7), decoded from and
 * encoded to inline-datum CBOR. Pure; a datum of another shape decodes to null (never guessed).
 *
 * Stake datum, two layouts exist:
 *   - the architecture document's (the reference layout, what the devnet writes):
 *       C0[ B providerKey (28-byte pkh), providerAddr (Plutus Address), I locked_until (POSIX ms), staking_state ]
 *   - the validator source's (`StakeDatum` in lib/iagon/staking/staking_validator.ak):
 *       C0[ B provider_key, [B policy, B name] token (an Aiken tuple: a list), I locked_until, state, Option<StakingCertificate> cert ]
 *   staking_state: Active = C0[], Retiring = C1[].
 * Reward certificate (`RewardCertificate` of validators/reward.ak), the datum of the reward script's continuing
 * output after a claim (the validator looks it up by the hash its redeemer signs, inline or in the witness set):
 *   C0[ C0[C0[B txId], I index] cert_utxo, I expires_in (POSIX ms), B provider_key, Value value ]
 *   Value = Map<B policy, Map<B name, I quantity>> (ADA under the empty policy and name).
 */
import type { Network } from '../../cardano/address.js';
import {
  asConstr,
  asHex,
  asInt,
  asList,
  asOption,
  bech32ToPlutusAddress,
  bytes,
  constr,
  decodePlutusData,
  encodePlutusData,
  fieldsOf,
  plutusAddressToBech32,
  unitOf,
  type PlutusData,
} from '../../cardano/dex/plutus-data.js';

export type StakingState = 'active' | 'retiring';

export interface StakeDatum {
  /** Payment key hash of the provider (hex): it signs Retire and Withdraw. */
  providerKey: string;
  /** Where withdrawn funds go (bech32), when the layout carries it. */
  providerAddress: string | null;
  /** The staked token (unit), when the layout carries it. */
  token: string | null;
  /** POSIX milliseconds until which the output cannot be retired (Active) or withdrawn (Retiring). */
  lockedUntilMs: number;
  state: StakingState;
  layout: 'architecture' | 'validator';
}

function stakingState(d: PlutusData | undefined): StakingState {
  const c = asConstr(d);
  if (c.fields.length !== 0 || c.constr > 1) throw new Error('not a StakingState');
  return c.constr === 0 ? 'active' : 'retiring';
}

function posixMs(d: PlutusData | undefined): number {
  const v = asInt(d);
  if (v < 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('POSIX time out of range');
  return Number(v);
}

function pkh(d: PlutusData | undefined): string {
  const h = asHex(d);
  if (h.length !== 56) throw new Error('a key hash has 28 bytes');
  return h;
}

/** Decodes either stake datum layout; null for anything else. */
export function decodeStakeDatum(cborHex: string, network: Network = 'mainnet'): StakeDatum | null {
  try {
    const c = asConstr(decodePlutusData(cborHex), 0);
    if (c.fields.length === 4) {
      const [key, addr, locked, state] = c.fields;
      return {
        providerKey: pkh(key),
        providerAddress: plutusAddressToBech32(addr, network),
        token: null,
        lockedUntilMs: posixMs(locked),
        state: stakingState(state),
        layout: 'architecture',
      };
    }
    if (c.fields.length === 5) {
      const [key, token, locked, state, cert] = c.fields;
      // An Aiken tuple is a list: [B policy, B name].
      const pair = asList(token);
      if (pair.length !== 2) return null;
      const [policy, name] = pair;
      asOption(cert, (x) => x); // Some(certificate) or None; its content is the operator's business
      return {
        providerKey: pkh(key),
        providerAddress: null,
        token: unitOf(asHex(policy), asHex(name)),
        lockedUntilMs: posixMs(locked),
        state: stakingState(state),
        layout: 'validator',
      };
    }
    return null;
  } catch {
    return null;
  }
}

/** CBOR hex of a stake datum in the reference (architecture) layout. */
export function encodeStakeDatum(d: {
  providerKey: string;
  providerAddress: string;
  lockedUntilMs: number | bigint;
  state: StakingState;
}): string {
  return encodePlutusData(
    constr(
      0,
      bytes(d.providerKey),
      bech32ToPlutusAddress(d.providerAddress),
      BigInt(d.lockedUntilMs),
      constr(d.state === 'active' ? 0 : 1),
    ),
  );
}

export interface RewardCertificate {
  /** The output the claim had to spend (replay protection). */
  certUtxo: { txId: string; index: number };
  expiresInMs: number;
  providerKey: string;
  /** Value the certificate lets the provider take, unit → raw quantity (`lovelace` for ADA). */
  value: Record<string, bigint>;
}

function asMap(d: PlutusData | undefined): Array<[PlutusData, PlutusData]> {
  if (d === undefined || typeof d !== 'object' || d instanceof Uint8Array || !('map' in d))
    throw new Error('expected a map');
  return d.map;
}

export function decodeRewardCertificate(cborHex: string): RewardCertificate | null {
  try {
    const [ref, expires, key, value] = fieldsOf(decodePlutusData(cborHex), 0, 4);
    const [txIdData, index] = fieldsOf(ref, 0, 2);
    const txId = asHex(fieldsOf(txIdData, 0, 1)[0]);
    if (txId.length !== 64) return null;
    const out: Record<string, bigint> = {};
    for (const [p, names] of asMap(value))
      for (const [n, q] of asMap(names)) out[unitOf(asHex(p), asHex(n))] = asInt(q);
    return {
      certUtxo: { txId, index: Number(asInt(index)) },
      expiresInMs: posixMs(expires),
      providerKey: pkh(key),
      value: out,
    };
  } catch {
    return null;
  }
}

export function encodeRewardCertificate(c: RewardCertificate): string {
  const byPolicy = new Map<string, Array<[PlutusData, PlutusData]>>();
  for (const [unit, q] of Object.entries(c.value)) {
    const [policy, name] = unit === 'lovelace' ? ['', ''] : [unit.slice(0, 56), unit.slice(56)];
    const names = byPolicy.get(policy) ?? [];
    names.push([bytes(name), q]);
    byPolicy.set(policy, names);
  }
  const value: PlutusData = { map: [...byPolicy].map(([p, names]) => [bytes(p), { map: names }]) };
  return encodePlutusData(
    constr(
      0,
      constr(0, constr(0, bytes(c.certUtxo.txId)), BigInt(c.certUtxo.index)),
      BigInt(c.expiresInMs),
      bytes(c.providerKey),
      value,
    ),
  );
}

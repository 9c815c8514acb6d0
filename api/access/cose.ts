/**
 * Server-side check of a CIP-30 `signData` answer (CIP-8 message signing): a COSE_Sign1 over the sign-in message,
 * and the COSE_Key holding the Ed25519 public key that made it. Pure; the nonce bookkeeping lives in signin.ts.
 *
 * COSE_Sign1 = [protected: bstr .cbor {1: -8 (EdDSA), "address": bstr}, unprotected: {"hashed": bool},
 *               payload: bstr, signature: bstr(64)]
 * The signature is Ed25519 over Sig_structure = ["Signature1", protected, external_aad = h'', payload].
 * A wallet signs with the key of the address it was asked for: the payment key for addr… addresses, the stake key
 * for stake… addresses, so blake2b-224 of the public key must equal that credential.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { bech32, hex } from '@scure/base';
import { AddressError, keyHash, parseAddress, rewardAddress, type Network } from '../../cardano/address.js';
import { decodeCbor, encodeCbor } from './cbor.js';

/** A sign-in the caller can fix (400: malformed input) or that proves nothing (401: wrong key, nonce, signature). */
export class SignInError extends Error {
  constructor(
    readonly status: 400 | 401,
    message: string,
  ) {
    super(message);
  }
}

const COSE_ALG = 1;
const ALG_EDDSA = -8;
const KEY_KTY = 1;
const KTY_OKP = 1;
const KEY_ALG = 3;
const KEY_CRV = -1;
const CRV_ED25519 = 6;
const KEY_X = -2;
const LIMIT = 1023;

const HEX = /^([0-9a-fA-F]{2})+$/;

/** Raw bytes of a Shelley address given as bech32 (addr1…, stake1…). */
export function addressBytes(bech: string): Uint8Array {
  const d = bech32.decode(bech as `${string}1${string}`, LIMIT);
  return bech32.fromWords(d.words);
}

/**
 * A Shelley address as bech32, from what a web page or wallet sends: bech32 as is, or the hex bytes CIP-30's
 * getChangeAddress/getUsedAddresses/getRewardAddresses return. Byron and script addresses cannot sign in, nor (when
 * `network` is given) an address of another network: the same stake key on a testnet has another stake address,
 * which would open a second account of one wallet (a wallet left on preprod signing in to the mainnet service).
 */
export function normalizeSignInAddress(input: unknown, network?: Network): string {
  if (typeof input !== 'string' || input.length === 0 || input.length > 300)
    throw new SignInError(400, 'address must be a Cardano address (addr1…, stake1… or its hex bytes)');
  let bech = input;
  if (HEX.test(input)) {
    const bytes = hex.decode(input);
    const header = bytes[0] ?? 0;
    const type = header >> 4;
    const mainnet = (header & 0x0f) === 1;
    const prefix = (type === 14 || type === 15 ? 'stake' : 'addr') + (mainnet ? '' : '_test');
    if (type > 7 && type < 14) throw new SignInError(400, 'Byron addresses cannot sign in; use a Shelley address');
    bech = bech32.encode(prefix, bech32.toWords(bytes), LIMIT);
  }
  let parsed;
  try {
    parsed = parseAddress(bech);
  } catch (e) {
    throw new SignInError(400, `address is not valid: ${e instanceof AddressError ? e.message : 'unreadable'}`);
  }
  if (parsed.kind === 'byron') throw new SignInError(400, 'Byron addresses cannot sign in; use a Shelley address');
  const signer = parsed.kind === 'reward' ? parsed.stakeScript : parsed.paymentScript;
  if (signer) throw new SignInError(400, 'a script address cannot sign; use an address of a key wallet');
  if (network && parsed.network !== network)
    throw new SignInError(
      400,
      `this is a ${parsed.network} address and this service runs on ${network}: switch your wallet to ${network}`,
    );
  return bech;
}

/**
 * The account a wallet address belongs to: its stake address when it has a key stake part (so every address of
 * one wallet is one account), else its payment key hash (hex). What an operator means by an address
 * (ops-keys.ts); a sign-in opens the account of the key that signed (signedAccountId).
 */
export function accountIdOf(address: string): string {
  const p = parseAddress(address);
  if (p.stakeCred && !p.stakeScript && p.network) return rewardAddress(p.network, p.stakeCred);
  if (p.paymentCred && !p.paymentScript) return p.paymentCred;
  throw new SignInError(400, 'this address has no key credential to own an account');
}

/**
 * The account a verified sign-in opens: that of the credential whose key signed. A stake key's signature opens its
 * stake address's account, which every address of the wallet shares (the account page signs with the wallet's
 * reward address); a payment key's opens that key's own account (its hash, hex), also for a base address. The
 * stake part of a base address proves nothing about its signer: anyone can build a base address of their own
 * payment key and another wallet's stake credential (public on chain) and sign for it with their payment key.
 */
export function signedAccountId(address: string, signedBy: VerifiedSignature['credential']): string {
  const p = parseAddress(address);
  if (signedBy === 'stake' && p.stakeCred && p.network) return rewardAddress(p.network, p.stakeCred);
  if (signedBy === 'payment' && p.paymentCred) return p.paymentCred;
  throw new SignInError(400, 'this address has no key credential to own an account');
}

const asBytes = (v: unknown): Uint8Array | null => (v instanceof Uint8Array ? v : null);
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

function decodeHex(field: string, v: unknown): Uint8Array {
  if (typeof v !== 'string' || !HEX.test(v) || v.length > 20_000)
    throw new SignInError(400, `${field} must be hex-encoded CBOR (the CIP-30 signData answer)`);
  return hex.decode(v);
}

function decodeAs<T>(field: string, bytes: Uint8Array, check: (v: unknown) => v is T): T {
  let v: unknown;
  try {
    v = decodeCbor(bytes);
  } catch {
    throw new SignInError(400, `${field} is not valid CBOR`);
  }
  if (!check(v)) throw new SignInError(400, `${field} is not a ${field === 'key' ? 'COSE_Key' : 'COSE_Sign1'}`);
  return v;
}

const isMap = (v: unknown): v is Map<unknown, unknown> => v instanceof Map;
const isSign1 = (v: unknown): v is unknown[] => Array.isArray(v) && v.length === 4;

export interface VerifiedSignature {
  /** Ed25519 public key (hex) that signed. */
  publicKey: string;
  /** Which credential of the address the key matched. */
  credential: 'payment' | 'stake';
}

/**
 * Verify that `signature` (COSE_Sign1 hex) and `key` (COSE_Key hex) are a signature of exactly `message` made by
 * the key behind `address` (bech32), and that the signed protected header names that address.
 */
export function verifyCip30Signature(input: {
  address: string;
  message: string;
  signature: unknown;
  key: unknown;
}): VerifiedSignature {
  const sign1 = decodeAs('signature', decodeHex('signature', input.signature), isSign1);
  const coseKey = decodeAs('key', decodeHex('key', input.key), isMap);
  const [protectedRaw, unprotected, payload, sig] = sign1;
  const protectedBytes = asBytes(protectedRaw);
  const payloadBytes = asBytes(payload);
  const sigBytes = asBytes(sig);
  if (!protectedBytes || !payloadBytes || !sigBytes || sigBytes.length !== 64)
    throw new SignInError(400, 'signature is not a COSE_Sign1 with an attached payload and a 64-byte signature');
  const headers = decodeAs('signature', protectedBytes, isMap);
  if (headers.get(COSE_ALG) !== ALG_EDDSA) throw new SignInError(400, 'signature must use EdDSA (COSE alg -8)');
  const signedAddress = asBytes(headers.get('address'));
  if (!signedAddress || !equalBytes(signedAddress, addressBytes(input.address)))
    throw new SignInError(401, 'the signed address header does not match the address that asked for the nonce');

  const messageBytes = new TextEncoder().encode(input.message);
  const hashed = isMap(unprotected) && unprotected.get('hashed') === true;
  const expected = hashed ? blake2b(messageBytes, { dkLen: 28 }) : messageBytes;
  if (!equalBytes(payloadBytes, expected))
    throw new SignInError(401, 'the signed message is not the one issued with this nonce; ask for a new nonce');

  const x = asBytes(coseKey.get(KEY_X));
  if (!x || x.length !== 32)
    throw new SignInError(400, 'key must be a COSE_Key with a 32-byte Ed25519 public key (-2)');
  const kty = coseKey.get(KEY_KTY);
  const alg = coseKey.get(KEY_ALG);
  const crv = coseKey.get(KEY_CRV);
  if (
    (kty !== undefined && kty !== KTY_OKP) ||
    (alg !== undefined && alg !== ALG_EDDSA) ||
    (crv !== undefined && crv !== CRV_ED25519)
  )
    throw new SignInError(400, 'key must be an Ed25519 OKP COSE_Key');

  const sigStructure = encodeCbor(['Signature1', protectedBytes, new Uint8Array(0), payloadBytes]);
  let valid: boolean;
  try {
    valid = ed25519.verify(sigBytes, sigStructure, x);
  } catch {
    valid = false; // a public key that is not a curve point
  }
  if (!valid) throw new SignInError(401, 'the signature does not verify with the given key');

  const publicKey = hex.encode(x);
  const h = keyHash(publicKey);
  const p = parseAddress(input.address);
  if (p.paymentCred === h && !p.paymentScript) return { publicKey, credential: 'payment' };
  if (p.stakeCred === h && !p.stakeScript) return { publicKey, credential: 'stake' };
  throw new SignInError(401, 'the signing key does not belong to this address');
}

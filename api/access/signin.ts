/**
 * Wallet sign-in for the account area: the server issues a nonce and the exact message to sign, the wallet signs it
 * with CIP-30 `signData`, and a verified signature over an unexpired, unused nonce yields a short-lived session.
 * Nonces are single-use: claimed atomically (in this process; through Redis `SET NX` across replicas when Redis is
 * configured and answers) before the session is created, then deleted. Session tokens are stored as SHA-256 only.
 */
import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import type { Network } from '../../cardano/address.js';
import type { Collection, Store } from '../../mongo/store.js';
import { del, put } from '../../mongo/store.js';
import { NONCES, SESSIONS, type NonceDoc, type SessionDoc } from '../../mongo/collections/access.js';
import { decodeCbor } from './cbor.js';
import { normalizeSignInAddress, signedAccountId, SignInError, verifyCip30Signature } from './cose.js';
import { sha256Hex } from './keys.js';
import type { SharedCounters } from './shared-counters.js';

/** Sessions last an hour: long enough to manage keys, short enough that a left-open browser does not stay in. */
export const SESSION_TTL_MS = 3_600_000;
const SESSION_PREFIX = 'cdss_';
const NONCE_LINE = /^Nonce: ([0-9a-f]{32})$/m;

export interface IssuedNonce {
  nonce: string;
  address: string;
  /** The text to sign; `payload` is its UTF-8 bytes in hex, ready for `signData(address, payload)`. */
  message: string;
  payload: string;
  expiresAt: string;
}

export interface Session {
  accountId: string;
  address: string;
  expiresAt: number;
}

export class SignIn {
  private readonly nonces: Collection<NonceDoc>;
  private readonly sessions: Collection<SessionDoc>;
  /** Nonces being consumed by this process right now (the in-process half of "single use"). */
  private readonly claiming = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly opts: {
      siteUrl: string;
      /** The chain's address network (CARDANO_NETWORK): addresses of another one cannot sign in. */
      network: Network;
      nonceTtlSeconds: number;
      now: () => number;
      shared?: SharedCounters;
    },
  ) {
    this.nonces = store.collection(NONCES);
    this.sessions = store.collection(SESSIONS);
  }

  async issueNonce(addressInput: unknown): Promise<IssuedNonce> {
    const address = normalizeSignInAddress(addressInput, this.opts.network);
    const nonce = randomBytes(16).toString('hex');
    const t = this.opts.now();
    const expiresAt = t + this.opts.nonceTtlSeconds * 1000;
    const host = new URL(this.opts.siteUrl).host;
    const message = [
      `${host} asks you to sign in with your Cardano wallet to manage API keys.`,
      'Signing proves you hold this address; it is not a transaction and moves no funds.',
      '',
      `URI: ${this.opts.siteUrl}/account`,
      `Address: ${address}`,
      `Nonce: ${nonce}`,
      `Issued At: ${new Date(t).toISOString()}`,
      `Expiration Time: ${new Date(expiresAt).toISOString()}`,
    ].join('\n');
    await this.store.write([put(NONCES, { _id: nonce, address, message, expiresAt })]);
    return {
      nonce,
      address,
      message,
      payload: hex.encode(new TextEncoder().encode(message)),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The nonce a COSE_Sign1 claims to answer: from the request, else from the signed message itself. */
  private nonceOf(body: { nonce?: unknown; signature?: unknown }): string {
    if (typeof body.nonce === 'string' && /^[0-9a-f]{32}$/.test(body.nonce)) return body.nonce;
    if (typeof body.signature === 'string' && /^([0-9a-fA-F]{2})+$/.test(body.signature)) {
      try {
        const sign1 = decodeCbor(hex.decode(body.signature));
        const payload = Array.isArray(sign1) ? sign1[2] : null;
        if (payload instanceof Uint8Array) {
          const m = NONCE_LINE.exec(new TextDecoder().decode(payload));
          if (m?.[1]) return m[1];
        }
      } catch {
        // fall through to the error below
      }
    }
    throw new SignInError(400, 'the signed message carries no nonce; ask for one at POST /account/api/nonce');
  }

  private async claim(nonce: string, ttlMs: number): Promise<boolean> {
    if (this.claiming.has(nonce)) return false;
    this.claiming.add(nonce);
    try {
      // Across replicas through Redis. While Redis does not answer (down or restarting, or a command failed or
      // went unanswered: shared-counters.ts) the claim is this process's and the store's alone, as the per-minute limits then count in
      // this process (limits.ts sharedUp) rather than holding the request until the client gives up and answering
      // 500. The nonce stays single-use against any later replay (its document is deleted below); only requests
      // racing on two replicas within the same instant could both pass, each opening a session for the signer.
      const shared = this.opts.shared;
      if (shared?.up()) {
        const key = `cds:nonce:${nonce}`;
        const ok = await shared.redis.set(key, '1', 'PX', Math.max(1, ttlMs), 'NX').catch((e: unknown) => {
          shared.failed(e);
          return 'no answer' as const;
        });
        if (ok !== 'OK' && ok !== 'no answer') return false; // null: another replica claimed it first
      }
      // Re-read after the claim: another process may have consumed (deleted) it before we got here.
      const still = await this.nonces.get(nonce);
      if (!still) return false;
      await this.store.write([del(NONCES, nonce)]);
      return true;
    } finally {
      this.claiming.delete(nonce);
    }
  }

  /**
   * Verify a signData answer and open a session. Refusals are SignInError: 400 for malformed input, 401 for a
   * signature that proves nothing (wrong key or address, unknown, expired or used nonce, bad signature).
   */
  async createSession(body: {
    address?: unknown;
    signature?: unknown;
    key?: unknown;
    nonce?: unknown;
  }): Promise<{ token: string; session: Session }> {
    const address = normalizeSignInAddress(body.address, this.opts.network);
    const nonceId = this.nonceOf(body);
    const nonce = await this.nonces.get(nonceId);
    const t = this.opts.now();
    if (!nonce) throw new SignInError(401, 'unknown or already used nonce; ask for a new one');
    if (nonce.expiresAt <= t) {
      await this.store.write([del(NONCES, nonceId)]);
      throw new SignInError(401, 'the nonce has expired; ask for a new one and sign again');
    }
    if (nonce.address !== address) throw new SignInError(401, 'this nonce was issued to another address');
    const { credential } = verifyCip30Signature({
      address,
      message: nonce.message,
      signature: body.signature,
      key: body.key,
    });
    if (!(await this.claim(nonceId, nonce.expiresAt - t)))
      throw new SignInError(401, 'unknown or already used nonce; ask for a new one');

    const token = SESSION_PREFIX + randomBytes(32).toString('base64url');
    const session: Session = {
      accountId: signedAccountId(address, credential),
      address,
      expiresAt: t + SESSION_TTL_MS,
    };
    await this.store.write([
      put(SESSIONS, { _id: sha256Hex(token), ...session, createdAt: new Date(t).toISOString() }),
    ]);
    return { token, session };
  }

  async resolveSession(token: string | undefined): Promise<Session | null> {
    if (!token?.startsWith(SESSION_PREFIX)) return null;
    const doc = await this.sessions.get(sha256Hex(token));
    if (!doc || doc.expiresAt <= this.opts.now()) return null;
    return { accountId: doc.accountId, address: doc.address, expiresAt: doc.expiresAt };
  }

  async endSession(token: string | undefined): Promise<void> {
    if (token?.startsWith(SESSION_PREFIX)) await this.store.write([del(SESSIONS, sha256Hex(token))]);
  }

  /** Delete expired nonces and sessions. */
  async prune(): Promise<number> {
    const t = this.opts.now();
    const nonces = await this.nonces.find('byExpires', { lt: t, limit: 10_000 });
    const sessions = await this.sessions.find('byExpires', { lt: t, limit: 10_000 });
    const ops = [...nonces.map((d) => del(NONCES, d._id)), ...sessions.map((d) => del(SESSIONS, d._id))];
    if (ops.length) await this.store.write(ops);
    return ops.length;
  }
}

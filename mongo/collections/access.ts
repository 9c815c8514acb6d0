/**
 * Access control: accounts (one per Cardano wallet), their API keys, wallet sign-in nonces and sessions, and the
 * daily request quotas of keys. Secrets (API keys, session tokens) are never stored: documents are keyed by the
 * SHA-256 of the secret, so a leaked store grants nothing.
 */
import { defineCollection } from '../store.js';

export type PlanName = 'free' | 'plus' | 'pro';

export interface AccountDoc {
  /** The wallet's stake address (stake1…) when its address has a stake part, else its payment key hash (hex). */
  _id: string;
  plan: PlanName;
  createdAt: string;
  updatedAt: string;
}
export const ACCOUNTS = defineCollection<AccountDoc>({ name: 'accounts' });

export interface ApiKeyDoc {
  /** SHA-256 (hex) of the full key; the key itself is shown once at creation and never stored. */
  _id: string;
  /** Public id used to list and revoke (`key_…`); not a secret and not accepted as a key. */
  keyId: string;
  accountId: string;
  name: string;
  /** What the owner sees to recognise the key: the prefix and its last four characters (`cds_…wXyz`). */
  hint: string;
  createdAt: string;
  revokedAt: string | null;
  /**
   * When a store written before KEY_USAGE recorded the key's last use; null on keys created since. The last use is
   * KEY_USAGE's (the later of the two).
   */
  lastUsedAt: string | null;
}
export const API_KEYS = defineCollection<ApiKeyDoc>({
  name: 'api_keys',
  indexes: [
    { name: 'byKeyId', fields: ['keyId'] },
    { name: 'byAccount', fields: ['accountId', 'createdAt'] },
  ],
});

/**
 * When a key was last used, refreshed at most once a minute while it is. A document of its own: written back into
 * the key's document, a use read just before a revocation and written just after it made the key active again.
 */
export interface KeyUsageDoc {
  /** SHA-256 of the key (= ApiKeyDoc._id). */
  _id: string;
  lastUsedAt: string;
}
export const KEY_USAGE = defineCollection<KeyUsageDoc>({ name: 'key_usage' });

export interface NonceDoc {
  /** The nonce (hex, 16 random bytes). */
  _id: string;
  /** The address (bech32) the nonce was issued to; the signature must come from this address's key. */
  address: string;
  /** The exact text the wallet must sign (UTF-8 bytes are the COSE payload). */
  message: string;
  /** Epoch milliseconds after which the nonce is refused. */
  expiresAt: number;
}
export const NONCES = defineCollection<NonceDoc>({
  name: 'nonces',
  indexes: [{ name: 'byExpires', fields: ['expiresAt'] }],
});

export interface SessionDoc {
  /** SHA-256 (hex) of the session token. */
  _id: string;
  accountId: string;
  /** The address that signed in. */
  address: string;
  createdAt: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}
export const SESSIONS = defineCollection<SessionDoc>({
  name: 'sessions',
  indexes: [{ name: 'byExpires', fields: ['expiresAt'] }],
});

/**
 * Requests a key made on one UTC day, as counted by one API process (`instance`). A key's count for the day is the
 * sum over instances, so replicas never overwrite each other's counts and a restarted process keeps the old count.
 */
export interface QuotaDoc {
  /** `${day}:${keyHash}:${instance}`. */
  _id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** SHA-256 of the key (= ApiKeyDoc._id). */
  key: string;
  instance: string;
  count: number;
  updatedAt: string;
}
export const QUOTAS = defineCollection<QuotaDoc>({
  name: 'quotas',
  indexes: [
    { name: 'byKeyDay', fields: ['key', 'day'] },
    { name: 'byDay', fields: ['day'] },
  ],
});

export const ACCESS_COLLECTIONS = [ACCOUNTS, API_KEYS, KEY_USAGE, NONCES, SESSIONS, QUOTAS] as const;

/**
 * API keys: `cds_` + 43 base64url characters (32 random bytes). Only the SHA-256 of a key is stored (a 256-bit
 * random secret needs no slow hash: there is nothing to guess); the key is shown once, at creation.
 * Accounts own keys; a key's limits follow its account's plan.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Store } from '../../mongo/store.js';
import { put } from '../../mongo/store.js';
import {
  ACCOUNTS,
  API_KEYS,
  KEY_USAGE,
  type AccountDoc,
  type ApiKeyDoc,
  type KeyUsageDoc,
  type PlanName,
} from '../../mongo/collections/access.js';

export const KEY_PREFIX = 'cds_';
const KEY_SHAPE = /^cds_[A-Za-z0-9_-]{43}$/;
const NAME_MAX = 64;
/**
 * Live (unrevoked) keys an account may hold from the account area. Limits are per key, so without a bound one
 * wallet sign-in could mint keys until its per-minute and daily allowance were any multiple of its plan's. Revoked
 * keys do not count; an operator (`ops keys create`) is not bound by it.
 */
export const MAX_LIVE_KEYS = 10;

export const sha256Hex = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Whether `s` looks like one of our keys (checked before any store lookup, so garbage costs nothing). */
export const isKeyShaped = (s: string) => KEY_SHAPE.test(s);

export function newApiKey(): { key: string; hash: string; hint: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: sha256Hex(key), hint: `${KEY_PREFIX}…${key.slice(-4)}` };
}

const newKeyId = () => `key_${randomBytes(9).toString('base64url')}`;

/** What an owner sees of a key (never the key or its hash). */
export interface KeyView {
  id: string;
  name: string;
  hint: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}
/** `usage`: the key's KEY_USAGE document; a store written before it kept the last use in the key's own document. */
export const keyView = (d: ApiKeyDoc, usage: KeyUsageDoc | null = null): KeyView => ({
  id: d.keyId,
  name: d.name,
  hint: d.hint,
  createdAt: d.createdAt,
  revokedAt: d.revokedAt,
  lastUsedAt: later(usage?.lastUsedAt ?? null, d.lastUsedAt),
});

/** The later of two ISO times (same format: their string order is time order), null only when both are. */
const later = (a: string | null, b: string | null): string | null => (a === null || (b !== null && b > a) ? b : a);

export class KeyError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** Key and account bookkeeping over the store; used by the account area and the operator command. */
export class KeyRegistry {
  private readonly keys: Collection<ApiKeyDoc>;
  private readonly accounts: Collection<AccountDoc>;
  private readonly usage: Collection<KeyUsageDoc>;
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    /** Called with a key hash whose cached state is stale (revoked, plan changed). */
    private readonly onChange: (keyHash: string) => void = () => {},
  ) {
    this.keys = store.collection(API_KEYS);
    this.accounts = store.collection(ACCOUNTS);
    this.usage = store.collection(KEY_USAGE);
  }

  /** The account, created on the Free plan at first sight. */
  async ensureAccount(accountId: string): Promise<AccountDoc> {
    const existing = await this.accounts.get(accountId);
    if (existing) return existing;
    const at = new Date(this.now()).toISOString();
    const doc: AccountDoc = { _id: accountId, plan: 'free', createdAt: at, updatedAt: at };
    await this.store.write([put(ACCOUNTS, doc)]);
    return doc;
  }

  getAccount(accountId: string): Promise<AccountDoc | null> {
    return this.accounts.get(accountId);
  }

  /**
   * Create a key; the returned `key` is the only time the secret exists outside the caller's hands. `maxLive`: how
   * many unrevoked keys the account may already hold (409 past it).
   */
  async create(accountId: string, name: unknown, maxLive = Infinity): Promise<{ key: string; view: KeyView }> {
    const label = typeof name === 'string' && name.trim() ? name.trim() : 'default';
    if (label.length > NAME_MAX) throw new KeyError(400, `name must be at most ${NAME_MAX} characters`);
    if (maxLive !== Infinity) {
      const live = (await this.keys.find('byAccount', { eq: [accountId] })).filter((k) => !k.revokedAt).length;
      if (live >= maxLive)
        throw new KeyError(409, `an account holds at most ${maxLive} live keys: revoke one before creating another`);
    }
    await this.ensureAccount(accountId);
    const { key, hash, hint } = newApiKey();
    const doc: ApiKeyDoc = {
      _id: hash,
      keyId: newKeyId(),
      accountId,
      name: label,
      hint,
      createdAt: new Date(this.now()).toISOString(),
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.store.write([put(API_KEYS, doc)]);
    return { key, view: keyView(doc) };
  }

  async list(accountId: string): Promise<KeyView[]> {
    const docs = await this.keys.find('byAccount', { eq: [accountId] });
    const usage = await this.usage.getMany(docs.map((d) => d._id));
    return docs.map((d, i) => keyView(d, usage[i] ?? null));
  }

  /** Revoke by public id; with `accountId`, only that account's key (the account area), else any (operator). */
  async revoke(keyId: string, accountId?: string): Promise<KeyView> {
    const [doc] = await this.keys.find('byKeyId', { eq: [keyId], limit: 1 });
    if (!doc || (accountId !== undefined && doc.accountId !== accountId)) throw new KeyError(404, `no key ${keyId}`);
    const usage = await this.usage.get(doc._id);
    if (doc.revokedAt) return keyView(doc, usage);
    const revoked: ApiKeyDoc = { ...doc, revokedAt: new Date(this.now()).toISOString() };
    await this.store.write([put(API_KEYS, revoked)]);
    this.onChange(doc._id);
    return keyView(revoked, usage);
  }

  async setPlan(accountId: string, plan: PlanName): Promise<AccountDoc> {
    const account = await this.ensureAccount(accountId);
    const updated: AccountDoc = { ...account, plan, updatedAt: new Date(this.now()).toISOString() };
    await this.store.write([put(ACCOUNTS, updated)]);
    for (const k of await this.keys.find('byAccount', { eq: [accountId] })) this.onChange(k._id);
    return updated;
  }

  /** The key document and its account's plan, read through (no cache). */
  async lookup(keyHash: string): Promise<{ key: ApiKeyDoc; plan: PlanName } | null> {
    const key = await this.keys.get(keyHash);
    if (!key) return null;
    const account = await this.accounts.get(key.accountId);
    return { key, plan: account?.plan ?? 'free' };
  }

  /**
   * Record when each key was used (key hash → ms), in KEY_USAGE only: the key's document, where a revocation is
   * written, is never written back (r23-access: a use read before a revocation and written after it undid it).
   */
  async touch(uses: ReadonlyMap<string, number>): Promise<void> {
    if (!uses.size) return;
    const ops = [...uses].map(([hash, ms]) => put(KEY_USAGE, { _id: hash, lastUsedAt: new Date(ms).toISOString() }));
    await this.store.write(ops);
  }
}

/** A resolved key as the limiter sees it. */
export interface KeyPrincipal {
  hash: string;
  keyId: string;
  accountId: string;
  /** The account's plan as stored (what PLANS_ENFORCED would apply). */
  accountPlan: PlanName;
}

type Cached = { principal: KeyPrincipal | null; at: number };

/**
 * Key → account → plan, cached for `ttlMs` (30 s: a plan change or a revocation made on another replica reaches
 * every key within that time; on this process it is immediate through `invalidate`). Unknown keys are cached as
 * well (for a shorter time) so a flood of one bad key does not turn into store reads.
 */
export class KeyCache {
  private readonly entries = new Map<string, Cached>();
  private readonly used = new Map<string, number>();
  private readonly lastTouched = new Map<string, number>();
  constructor(
    private readonly registry: KeyRegistry,
    private readonly now: () => number,
    private readonly ttlMs = 30_000,
    private readonly negativeTtlMs = 5_000,
    private readonly maxEntries = 50_000,
  ) {}

  /** Resolve a presented key; null = unknown or revoked. */
  async resolve(key: string): Promise<KeyPrincipal | null> {
    if (!isKeyShaped(key)) return null;
    const hash = sha256Hex(key);
    const t = this.now();
    const hit = this.entries.get(hash);
    let principal: KeyPrincipal | null;
    if (hit && t - hit.at < (hit.principal ? this.ttlMs : this.negativeTtlMs)) principal = hit.principal;
    else {
      const found = await this.registry.lookup(hash);
      principal =
        found && !found.key.revokedAt
          ? { hash, keyId: found.key.keyId, accountId: found.key.accountId, accountPlan: found.plan }
          : null;
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(hash, { principal, at: t });
    }
    if (principal && t - (this.lastTouched.get(hash) ?? 0) >= 60_000) this.used.set(hash, t);
    return principal;
  }

  invalidate(keyHash: string): void {
    this.entries.delete(keyHash);
  }

  /** Write `lastUsedAt` for keys used since the last call (at most once a minute per key). */
  async flushUsage(): Promise<void> {
    if (!this.used.size) return;
    // Each key its own time: one time for the whole batch showed every key as used when the latest of them was.
    const batch = new Map(this.used);
    this.used.clear();
    for (const [h, t] of batch) this.lastTouched.set(h, t);
    await this.registry.touch(batch);
  }
}

/**
 * The one configuration module. Every key is read from the environment once, validated, and passed into the
 * factories as a value (never imported as a singleton by domain code). An unset production address
 * (MONGODB_URI, TEMPORAL_ADDRESS, OGMIOS_URL, REDIS_URL) selects the embedded default for that part.
 * The README's configuration table repeats the `doc` of each key.
 */
import { z } from 'zod';

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const num = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, 'must be a number')
    .transform(Number)
    .pipe(z.number().min(min).max(max));
/**
 * A name or a path, as written: not blank, and no space or tab at either end (`DATA_DIR= /srv/cds` in an env file is
 * the folder ' /srv/cds' under the working directory, not /srv/cds).
 */
const text = z
  .string()
  .refine((v) => v.trim() !== '' && v.trim() === v, 'must not be blank nor begin or end with whitespace');
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = (protocols: readonly string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL (${protocols.join(' or ')})`,
  );

/**
 * The site's root, to which every absolute link appends its path (`${SITE_URL}/api/v1/…`): a query or a fragment
 * would end up in the middle of each link, and a user and password would be handed out in every answer.
 */
const siteUrl = url(['http:', 'https:']).refine((v) => {
  const u = new URL(v);
  return u.search === '' && u.hash === '' && u.username === '' && u.password === '' && !/[?#]/.test(v);
}, 'must be the site root, without a query, fragment, user or password');

/** `host:port` of a gRPC server: a name or IPv4 address, or an IPv6 address in brackets; a port from 1 to 65535. */
const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]@?#]+):\d{1,5}$/, 'must be host:port (a port from 1 to 65535)')
  .refine((v) => {
    const port = Number(v.slice(v.lastIndexOf(':') + 1));
    return port >= 1 && port <= 65535;
  }, 'must be host:port (a port from 1 to 65535)');

/**
 * A MongoDB connection string by its scheme. Not a WHATWG URL: a replica set's host list
 * (`mongodb://a:27017,b:27017/?replicaSet=rs0`) is none, and the driver, which parses the rest, says what is wrong
 * with it when the store is opened (mongo/open.ts: one line naming MONGODB_URI).
 */
const mongoUri = z.string().regex(/^mongodb(\+srv)?:\/\/\S/, 'must be a URL (mongodb: or mongodb+srv:)');

/** Comma-separated 28-byte script hashes (hex, case-insensitive); the list without duplicates, lower-cased. */
const scriptHashList = z
  .string()
  .transform((v) => v.toLowerCase().replace(/\s+/g, ''))
  .pipe(z.string().regex(/^[0-9a-f]{56}(,[0-9a-f]{56})*$/, 'must be comma-separated 56-hex script hashes'))
  .transform((v) => [...new Set(v.split(','))]);

/** Comma-separated http(s) URLs, blanks ignored, duplicates dropped. */
const feedUrlList = z
  .string()
  .transform((v) => [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(z.array(url(['http:', 'https:'])));

/** `free=120/10000,plus=300/50000,pro=600/200000`: every plan named once, requests per minute / per UTC day. */
const planLimits = z
  .string()
  .regex(/^(free|plus|pro)=\d+\/\d+(,(free|plus|pro)=\d+\/\d+){2}$/, 'must be free=M/D,plus=M/D,pro=M/D')
  .transform((v) => {
    const out: Record<string, { perMinute: number; perDay: number }> = {};
    for (const part of v.split(',')) {
      const [name, limits] = part.split('=') as [string, string];
      const [perMinute, perDay] = limits.split('/').map(Number) as [number, number];
      out[name] = { perMinute, perDay };
    }
    return out;
  })
  .refine(
    (o) =>
      ['free', 'plus', 'pro'].every((p) =>
        [o[p]?.perMinute ?? 0, o[p]?.perDay ?? 0].every((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER),
      ),
    // Past 2^53 a count is no longer exact (a 400-digit limit was Infinity, sent as X-RateLimit-Limit: Infinity).
    { message: `must name free, plus and pro once each, with limits from 1 to ${Number.MAX_SAFE_INTEGER}` },
  )
  .transform((o) => o as Record<'free' | 'plus' | 'pro', { perMinute: number; perDay: number }>);

interface KeyDef<T> {
  doc: string;
  default?: string;
  schema: z.ZodType<T, string>;
}
function key<T>(doc: string, schema: z.ZodType<T, string>): KeyDef<T>;
function key<T>(doc: string, schema: z.ZodType<T, string>, dflt: string): KeyDef<T> & { default: string };
function key<T>(doc: string, schema: z.ZodType<T, string>, dflt?: string): KeyDef<T> {
  return dflt === undefined ? { doc, schema } : { doc, schema, default: dflt };
}

/** Every environment key the service reads. Order = README order. */
export const CONFIG_KEYS = {
  PORT: key(
    'HTTP port of the API (REST, MCP, Markdown, pages); 0 = any free port, which `npm start` logs and an unset SITE_URL names.',
    int(0, 65535),
    '8080',
  ),
  HOST: key('Interface the API listens on.', text, '0.0.0.0'),
  SITE_URL: key(
    'Public site root; `{site_url}` of the spec (links to /swap, /account, logo URLs). Defaults to http://localhost:PORT.',
    siteUrl,
  ),
  DATA_DIR: key('Folder of the embedded store (lmdb) and the devnet state.', text, './data'),
  TOKEN_REGISTRY_DIR: key(
    'Folder of the CIP-26 token registry snapshot (`mappings/*.json`), imported at start for token names, tickers, decimals and logos. A folder without `mappings/*.json` (a typo, an unmounted volume, a file, a folder it may not read) is logged as a warning at start, with the reason, and removes nothing already imported; so are, each file named, entries skipped (not JSON, no valid subject; a file named after its subject keeps the entry imported before) and fields left out as unusable (decimals not an integer 0-255, a non-text name, a logo that is no image or over the registry’s 87,400 base64 characters).',
    text,
    './registry',
  ),
  MONGODB_URI: key('MongoDB connection string; when set, the store is MongoDB instead of the embedded lmdb.', mongoUri),
  MONGODB_DB: key('MongoDB database name.', text, 'cardano'),
  MONGODB_WRITE_BATCH: key(
    'Most write statements (upserts, deletes) the MongoDB adapter sends in one command, and has in flight at once per process (the sync and recomputes write concurrently). MongoDB takes 100000; FerretDB 1.x holds a connection of its pool of 100 per statement of an update until the command ends and never answers once commands together need 100, so use 50 there (tested against FerretDB 1.24.2).',
    int(1, 100_000),
    '1000',
  ),
  TEMPORAL_ADDRESS: key(
    'Temporal frontend host:port; when set, workflows run on Temporal instead of the embedded runner.',
    hostPort,
  ),
  TEMPORAL_NAMESPACE: key('Temporal namespace.', text, 'default'),
  TEMPORAL_TASK_QUEUE: key('Temporal task queue of the worker.', text, 'cardano-data'),
  OGMIOS_URL: key(
    'Ogmios v6 WebSocket URL (ws://host:1337); when unset, the built-in devnet is the chain.',
    url(['ws:', 'wss:']),
  ),
  CARDANO_NETWORK: key(
    'Address network of the chain (mainnet: addr1…/stake1…; testnet: addr_test1…). The devnet uses mainnet-style addresses.',
    z.enum(['mainnet', 'testnet']),
    'mainnet',
  ),
  DEVNET_SEED: key('Seed of the deterministic devnet.', text, 'devnet'),
  DEVNET_BACKFILL_HOURS: key(
    'Hours of chain time the devnet backfills at start (one block per ~20 s of chain time).',
    num(0, 24 * 90),
    '48',
  ),
  DEVNET_BLOCK_MS: key(
    'Wall-clock milliseconds between the live devnet’s ticks; each publishes the blocks whose slot has come (one per ~20 s of chain time on average), so its tip follows the clock.',
    int(50, 3_600_000),
    '20000',
  ),
  DEVNET_FORK_RATE: key(
    'Probability per block that the devnet forks (a rollback of 1 to DEVNET_FORK_DEPTH blocks).',
    num(0, 1),
    '0.02',
  ),
  DEVNET_FORK_DEPTH: key(
    'Deepest devnet fork, in blocks. 3: rollbacks of 1-3 blocks (70/22/8 %), never deeper than the sync undoes in memory. Above 3: the depth is drawn evenly from 1 to it, so rollbacks deeper than 3 happen (the sync undoes them from its journal, reruns the recomputes and withholds their answers until they ran). The canonical chain is the same whatever it is.',
    int(1, 100),
    '3',
  ),
  DEVNET_PORT: key('Port of the standalone devnet (`npm run devnet`).', int(0, 65535), '1337'),
  DEVNET_STREAM_BACKFILL: key(
    'Serve the devnet while its history is generated: followers sync the backfill as it grows (`npm start` sets it for its devnet process). Default: the whole history exists before the devnet serves.',
    bool,
    'false',
  ),
  SYNC_START_POINT: key(
    'Where an empty store starts following the chain, `slot.blockHash` of a block (e.g. a recent mainnet block); unset = origin. Answers then cover the chain from the block after it on (the named block itself is not indexed): outputs created in it or before are unresolved inputs.',
    z
      .string()
      .regex(/^\d+\.[0-9a-f]{64}$/, 'must be slot.blockHash (the block header hash, 64 hex)')
      // A slot past 2^53 would be rounded to another slot (99999999999999999999 read as 100000000000000000000).
      .refine((v) => Number(v.split('.')[0]) <= Number.MAX_SAFE_INTEGER, {
        message: `its slot must be at most ${Number.MAX_SAFE_INTEGER}`,
      })
      .transform((v) => {
        const [slot, id] = v.split('.');
        return { slot: Number(slot), id: id as string };
      }),
  ),
  SYNC_SLICE_BLOCKS: key(
    'Blocks per sync slice (one activity; written in batches of up to 500 blocks, each atomic with its checkpoint, fewer when the store commits a batch slower than in 30 s; a slice also ends after 60 s).',
    int(1, 100_000),
    '500',
  ),
  SYNC_K: key('Blocks of undo information kept (the security parameter k; 2160 on mainnet).', int(1, 100_000), '2160'),
  LOG_LEVEL: key('pino log level.', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  OGMIOS_IS_DEVNET: key(
    'The chain source at OGMIOS_URL is the standalone devnet (`npm run devnet`): its pools’ `.devnet` metadata URLs are fetched from it, and its Iagon scripts (of DEVNET_SEED: give the devnet’s seed) are followed unless IAGON_* are set, and the sync keeps the undo records its re-enacted forks need (of DEVNET_FORK_DEPTH: give the devnet’s depth when above 8). Never set it for a real node.',
    bool,
    'false',
  ),
  TRUST_PROXY: key(
    'Take client IPs from X-Forwarded-For (only behind a trusted proxy): its last entry, the one the proxy added, without a source port a proxy may append.',
    bool,
    'false',
  ),
  API_CACHE_MS: key(
    'How long a REST answer, Markdown view or tool result is reused for the same request and sync checkpoint (ms); 0 = never.',
    int(0, 60_000),
    '1000',
  ),
  RATE_LIMITS: key(
    'Rate limiting on (per IP, per key, daily quotas). Operators switch it off for load tests.',
    bool,
    'true',
  ),
  RATE_LIMIT_ANON_PER_MIN: key(
    'Requests per minute per IP without a key, on each surface (REST, Markdown, MCP).',
    int(1, 1_000_000),
    '60',
  ),
  RATE_LIMIT_PNL_ANON_PER_MIN: key(
    'Wallet-PnL calls per minute per IP without a key (the expensive-call limit).',
    int(1, 1_000_000),
    '20',
  ),
  RATE_LIMIT_PNL_KEY_PER_MIN: key('Wallet-PnL calls per minute per key.', int(1, 1_000_000), '60'),
  PLAN_LIMITS: key(
    'Per-minute/per-day requests of each plan, `plan=perMinute/perDay` comma-separated (raise for load tests).',
    planLimits,
    'free=120/10000,plus=300/50000,pro=600/200000',
  ),
  PLANS_ENFORCED: key(
    'Apply each account plan (Free/Plus/Pro); off = every key gets Free, as the spec says for now.',
    bool,
    'false',
  ),
  ACCOUNT_NONCE_TTL_SECONDS: key('Lifetime of a wallet sign-in nonce.', int(10, 86_400), '300'),
  REDIS_URL: key(
    'Redis URL; when set, per-minute rate-limit counters are shared through Redis.',
    url(['redis:', 'rediss:']),
  ),
  IAGON_STAKE_SCRIPTS: key(
    'Iagon storage-provider staking validator(s): comma-separated payment script hashes (56 hex). Unset: the devnet’s own when a devnet is the chain (OGMIOS_URL unset, or OGMIOS_IS_DEVNET), else none (the storage-network overview then says its staking figures are unavailable; the mainnet hashes are not known).',
    scriptHashList,
  ),
  IAGON_REWARD_SCRIPTS: key(
    'Iagon reward validator(s): comma-separated payment script hashes (56 hex). Unset: the devnet’s own when a devnet is the chain (OGMIOS_URL unset, or OGMIOS_IS_DEVNET), else none (no reward figures).',
    scriptHashList,
  ),
  NEWS_FEEDS: key(
    'Comma-separated RSS 2.0 / Atom feed URLs ingested every 15 minutes into /news. Unset: no news (GET /news answers an empty list saying so).',
    feedUrlList,
  ),
} as const;

type Keys = typeof CONFIG_KEYS;
type Parsed<K extends keyof Keys> = Keys[K] extends KeyDef<infer T> ? T : never;
type HasDefault<K extends keyof Keys> = Keys[K] extends { default: string } ? K : never;

export type Config = { [K in keyof Keys as HasDefault<K>]: Parsed<K> } & {
  [K in keyof Keys as Exclude<K, HasDefault<K>>]?: Parsed<K>;
} & { SITE_URL: string };

export class ConfigError extends Error {}

/**
 * A configured service that cannot be used (MONGODB_URI names a store that does not answer): the message is one line
 * naming the key and the reason; entry points print it without a stack trace and exit 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** `scheme://user:` (group 1) and the password (group 2), up to the last `@` before the path. */
const URI_USERINFO = String.raw`([a-z][a-z0-9+.-]*:\/\/[^:@/\s]*:)([^/\s]*)@`;
const URI_PASSWORDS = new RegExp(String.raw`\b${URI_USERINFO}`, 'gi');
const URI_PASSWORD = new RegExp(`^${URI_USERINFO}`, 'i');

/**
 * `scheme://user:password@host…` with the password replaced by `***`, for any value echoed to a log or terminal. The
 * password runs to the last `@` before the path: one with an `@` not percent-encoded (`p@ss`, which the MongoDB
 * driver refuses) is hidden whole.
 */
export function redactUri(value: string): string {
  return value.replace(URI_PASSWORDS, '$1***@');
}

/** The password `uri` carries, as written (percent-encoded or not); null when it has none. */
export function uriPassword(uri: string): string | null {
  return URI_PASSWORD.exec(uri)?.[2] || null;
}

/**
 * SITE_URL when it is not set: the API on this machine at PORT. With PORT=0 (any free port) it is only known once a
 * port is chosen: `npm start` chooses it before the API is built and puts it here (scripts/start.ts).
 */
export function defaultSiteUrl(port: number): string {
  return `http://localhost:${String(port)}`;
}

/** Parse and validate; throws ConfigError naming the first bad key with what it must be. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, def] of Object.entries(CONFIG_KEYS) as [string, KeyDef<unknown>][]) {
    const raw = env[name] === '' ? undefined : env[name];
    const value = raw ?? def.default;
    if (value === undefined) continue;
    const r = def.schema.safeParse(value);
    if (r.success) out[name] = r.data;
    else
      problems.push(`${name}=${JSON.stringify(redactUri(value))}: ${r.error.issues.map((i) => i.message).join('; ')}`);
  }
  // One line per bad key, each whole (a log line read alone, or grepped for the key, says what is wrong).
  if (problems.length) throw new ConfigError(problems.map((p) => `Invalid configuration: ${p}`).join('\n'));
  out.SITE_URL = String(out.SITE_URL ?? defaultSiteUrl(out.PORT as number)).replace(/\/+$/, '');
  return out as Config;
}

/**
 * For process entry points: load the configuration and run `main` with it. A bad configuration (at start, or a
 * ConfigError `main` throws for a missing address) prints its one-line reason and exits 2; a configured service that
 * does not answer (StartupError: a store that cannot be reached) prints its one-line reason and exits 1; any other
 * failure prints `fatal:` with the stack and exits 1.
 */
export function runWithConfig(main: (config: Config) => Promise<void>): void {
  const fail = (e: unknown): never => {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    if (e instanceof StartupError) {
      console.error(e.message);
      process.exit(1);
    }
    console.error('fatal:', e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  };
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    return fail(e);
  }
  main(config).catch(fail);
}

/** Markdown rows for the README's configuration table. */
export function configTable(): string {
  return Object.entries(CONFIG_KEYS as Record<string, KeyDef<unknown>>)
    .map(([k, d]) => `| \`${k}\` | ${d.default === undefined ? '—' : `\`${d.default}\``} | ${d.doc} |`)
    .join('\n');
}

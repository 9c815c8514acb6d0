/**
 * Imports the CIP-26 token registry snapshot (`<dir>/mappings/<subject>.json`) into TOKEN_META and LOGOS. Run at
 * service start: off-chain metadata, not chain-derived, so it is never rolled back. Idempotent and cheap on a
 * restart: documents equal to the stored ones are not rewritten; subjects whose file disappeared are removed.
 *
 * A CIP-26 entry: `subject` = policy id + asset name hex (the unit); `name`, `ticker`, `description`, `url`, `logo`
 * (base64 image, PNG in practice) and `decimals`, each as `{ value, signatures… }`.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { LOGOS, TOKEN_META, logoVersion, type LogoDoc, type TokenMetaDoc } from '../../mongo/collections/market.js';
import { del, put, type Store, type WriteOp } from '../../mongo/store.js';

export interface RegistryImportResult {
  /** Mapping files read. */
  files: number;
  /** Metadata or logo documents written because they were new or changed. */
  written: number;
  unchanged: number;
  removed: number;
  /** Files that were not a usable CIP-26 token entry, with the reason. */
  skipped: { file: string; reason: string }[];
  /** Entries imported without some of their fields, which were unusable: what was left out and why. */
  invalid: { file: string; problems: string[] }[];
  /** Why `<dir>/mappings` could not be listed, when it exists but is no readable folder (a file, no permission). */
  unreadable?: string;
}

const SUBJECT = /^[0-9a-f]{56}([0-9a-f]{2}){0,32}$/;
/** Writes per store batch (a logo is 30-80 KB). */
const BATCH = 50;
/**
 * The registry's own limit on a logo: 87,400 base64 characters (about 64 KB). A larger image would be inlined in
 * every answer naming the token (a trade list repeats it per trade), so it is left out, as the registry's checks
 * would have refused it.
 */
export const MAX_LOGO_BASE64_CHARS = 87_400;

/** The image type from its first bytes; null when it is no image format browsers show. */
export function imageType(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.subarray(0, 16));
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  const head = Buffer.from(bytes.subarray(0, 256)).toString('utf8').trimStart();
  if (/^(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return null;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

type Field = { value?: unknown } | undefined;

/** One CIP-26 entry → its documents and the fields left out as unusable; throws with the reason when the entry is not usable. */
export function parseRegistryEntry(json: unknown): { meta: TokenMetaDoc; logo: LogoDoc | null; problems: string[] } {
  if (typeof json !== 'object' || json === null) throw new Error('not a JSON object');
  const e = json as Record<string, Field | string>;
  const subject = typeof e.subject === 'string' ? e.subject.toLowerCase() : '';
  if (!SUBJECT.test(subject)) throw new Error('subject is not a policy id + asset name');
  const problems: string[] = [];
  /** A property's value, or undefined when the entry does not give it. */
  const valueOf = (key: string): unknown => {
    const f = e[key];
    return typeof f === 'object' && f !== null ? f.value : f;
  };
  const str = (key: string): string | null => {
    const v = valueOf(key);
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') {
      problems.push(`${key} is not text (${JSON.stringify(v)?.slice(0, 40)}); left out`);
      return null;
    }
    return v.trim() === '' ? null : v.trim();
  };
  const dec = valueOf('decimals');
  let decimals: number | null = null;
  if (typeof dec === 'number' && Number.isInteger(dec) && dec >= 0 && dec <= 255) decimals = dec;
  else if (dec !== undefined && dec !== null)
    problems.push(`decimals ${JSON.stringify(dec)?.slice(0, 40)} is not an integer from 0 to 255; left out`);
  let logo: LogoDoc | null = null;
  const logoB64 = str('logo');
  if (logoB64 && logoB64.length > MAX_LOGO_BASE64_CHARS)
    problems.push(`logo is ${logoB64.length} base64 characters, over the registry's ${MAX_LOGO_BASE64_CHARS}; left out`);
  else if (logoB64) {
    const bytes = Buffer.from(logoB64, 'base64');
    const contentType = imageType(bytes);
    if (contentType) logo = { _id: subject, contentType, base64: bytes.toString('base64'), etag: sha256Hex(bytes) };
    else problems.push('logo is not a base64 PNG (nor JPEG, GIF, WebP or SVG) image; left out');
  }
  const meta: TokenMetaDoc = {
    _id: subject,
    name: str('name'),
    ticker: str('ticker'),
    decimals,
    description: str('description'),
    url: str('url'),
    hasLogo: logo !== null,
    ...(logo ? { logoVersion: logoVersion(logo) } : {}),
  };
  return { meta, logo, problems };
}

const sameMeta = (a: TokenMetaDoc | null, b: TokenMetaDoc) =>
  a !== null &&
  a.name === b.name &&
  a.ticker === b.ticker &&
  a.decimals === b.decimals &&
  a.description === b.description &&
  a.url === b.url &&
  a.hasLogo === b.hasLogo &&
  a.logoVersion === b.logoVersion;

/**
 * Reads `<dir>/mappings/*.json` and brings TOKEN_META and LOGOS in line with it. A missing folder imports nothing;
 * so does one that cannot be listed (TOKEN_REGISTRY_DIR naming a file, a folder without read permission), with the
 * reason in `unreadable`: it is the same operator's mistake as a typo, and throwing it stopped the worker at every
 * start (npm start's crash loop).
 */
export async function importRegistry(store: Store, dir: string): Promise<RegistryImportResult> {
  const result: RegistryImportResult = { files: 0, written: 0, unchanged: 0, removed: 0, skipped: [], invalid: [] };
  const mappings = path.join(dir, 'mappings');
  let files: string[];
  try {
    files = (await readdir(mappings)).filter((f) => f.endsWith('.json')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return result;
    return { ...result, unreadable: e instanceof Error ? e.message : String(e) };
  }
  const metas = store.collection(TOKEN_META);
  const logos = store.collection(LOGOS);
  const seen = new Set<string>();
  let ops: WriteOp[] = [];
  const flush = async () => {
    if (ops.length) await store.write(ops);
    ops = [];
  };

  for (const file of files) {
    result.files++;
    let parsed: ReturnType<typeof parseRegistryEntry>;
    try {
      parsed = parseRegistryEntry(JSON.parse(await readFile(path.join(mappings, file), 'utf8')));
    } catch (e) {
      let reason = e instanceof Error ? e.message : String(e);
      // A file named after its subject that cannot be read (cut short by a copy, a bad edit) keeps the token's
      // last good import: dropping it would show the token's amounts in base units until the file is fixed.
      const subject = file.slice(0, -'.json'.length).toLowerCase();
      if (SUBJECT.test(subject) && (await metas.get(subject))) {
        seen.add(subject);
        reason += '; the entry imported before is kept';
      }
      result.skipped.push({ file, reason });
      continue;
    }
    const { meta, logo, problems } = parsed;
    if (problems.length) result.invalid.push({ file, problems });
    seen.add(meta._id);
    const [oldMeta, oldLogo] = await Promise.all([metas.get(meta._id), logos.get(meta._id)]);
    let changed = false;
    if (!sameMeta(oldMeta, meta)) {
      ops.push(put(TOKEN_META, meta));
      changed = true;
    }
    if (logo && (oldLogo?.etag !== logo.etag || oldLogo.contentType !== logo.contentType)) {
      ops.push(put(LOGOS, logo));
      changed = true;
    } else if (!logo && oldLogo) {
      ops.push(del(LOGOS, meta._id));
      changed = true;
    }
    if (changed) result.written++;
    else result.unchanged++;
    if (ops.length >= BATCH) await flush();
  }

  // Entries whose file is gone. An empty folder removes nothing (more likely a bad mount than an empty registry).
  if (seen.size > 0) {
    for await (const m of metas.scan()) {
      if (seen.has(m._id)) continue;
      ops.push(del(TOKEN_META, m._id), del(LOGOS, m._id));
      result.removed++;
      if (ops.length >= BATCH) await flush();
    }
  }
  await flush();
  return result;
}

/**
 * The start's log line of an import: info with its counts, or a warning when TOKEN_REGISTRY_DIR held no mapping (a
 * mistyped or unmounted folder): tokens then go without registry names, tickers, decimals and logos, and amounts
 * of a token with decimals read as base units, which an operator must not find out from the answers.
 */
export function logRegistryImport(log: Logger, dir: string, r: RegistryImportResult): void {
  if (r.files > 0) {
    log.info({ dir, ...r }, 'token registry imported');
    if (r.skipped.length || r.invalid.length) {
      // Each one named, so the operator can fix the file: a left-out decimals shows the token's amounts in base units.
      const each = [
        ...r.skipped.map((s) => `${s.file}: skipped (${s.reason})`),
        ...r.invalid.map((i) => `${i.file}: ${i.problems.join('; ')}`),
      ];
      log.warn(
        { dir, skipped: r.skipped, invalid: r.invalid },
        `token registry: ${r.skipped.length} of ${r.files} mapping files skipped, ${r.invalid.length} imported ` +
          `with unusable fields left out under TOKEN_REGISTRY_DIR=${dir}: ${each.slice(0, 20).join(' | ')}` +
          (each.length > 20 ? ` | … ${each.length - 20} more` : ''),
      );
    }
    return;
  }
  log.warn(
    { dir, ...r },
    `token registry: no mappings/*.json under TOKEN_REGISTRY_DIR=${dir}${r.unreadable ? ` (${r.unreadable})` : ''}; ` +
      'tokens get no registry names, tickers, ' +
      'decimals or logos (set it to the folder of a CIP-26 snapshot)',
  );
}

/**
 * Schemas shared by every resource: the error bodies of the spec and the amount conventions.
 *
 * Amount convention: an ADA amount is a JSON number of whole ADA (lovelace / 1e6, scaled exactly from the stored
 * integer); the exact integer is kept as a string beside it, in a field named `lovelace` inside value objects and
 * `<field>Lovelace` at the top level (`fee` + `feeLovelace`). Token quantities are decimal-adjusted numbers with
 * the raw integer string in `quantityRaw`.
 */
import { component, type JsonSchema } from '../schema.js';

/**
 * A list's `q` search text, the same rule on every list that has one: 1 to `max` characters, one of them not a space.
 * An empty or blank `q` is a caller's mistake (a search for nothing), answered 400 rather than ignored: the caller
 * leaves `q` out to list everything. Spaces around the text are not part of it (the reads trim it).
 */
export const searchText = (max: number, description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  pattern: '\\S',
  'x-expected': `a search text of 1 to ${max} characters, not only spaces (leave q out to list everything)`,
  description,
});

export const ErrorBody = component('Error', {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', description: 'What went wrong, for a human.' } },
});

export const RateLimitErrorBody = component('RateLimitError', {
  type: 'object',
  required: ['error', 'hint', 'docs', 'retryAfter'],
  properties: {
    error: { type: 'string' },
    hint: { type: 'string', description: 'What to do: wait, or send an API key for higher limits.' },
    docs: { type: 'string', description: 'Link to the limits documentation.' },
    retryAfter: { type: 'integer', minimum: 0, description: 'Seconds to wait (same as the Retry-After header).' },
  },
});

/**
 * Bounds of numbers a caller may send, from what can exist on chain: ADA's maximum supply is 45 billion ADA
 * (45 × 10^15 lovelace, the ledger's maxLovelaceSupply), and a token quantity in an output is at most 2^64 − 1 base
 * units (the ledger's word64 quantities). A filter or amount beyond them selects nothing real and is refused (400).
 */
export const MAX_ADA_SUPPLY = 45_000_000_000;
export const MAX_ASSET_QUANTITY = 18_446_744_073_709_551_615n;
/**
 * A holder holds an output, and every output carries at least the minimum UTxO value (≥ ~1 ADA with a token), so
 * no token can have more holders than there are ADA: 45 billion.
 */
export const MAX_HOLDERS = MAX_ADA_SUPPLY;

/**
 * The Bech32 part of an address pattern (addr1…, stake1…, their _test forms), in either case. Addresses are lowercase
 * everywhere (keys, answers, the index); a capitalised one passes this pattern so that the read refuses it with a 400
 * saying to write it in lowercase (api/read/explorer.ts parseForNetwork), not as "not a Cardano address": in
 * capitals most addresses hold a 0, which no base58 (Byron) text does, so they matched no pattern at all.
 */
export const BECH32_ADDRESS_PATTERN =
  '([Aa][Dd][Dd][Rr]|[Ss][Tt][Aa][Kk][Ee])(_[Tt][Ee][Ss][Tt])?1[02-9ac-hj-np-zAC-HJ-NP-Z]{6,}';

/** Handle characters (cardano/handles.ts): a-z 0-9 _ - . (case-insensitive: the service lowercases). */
const HANDLE_CHARS = '[A-Za-z0-9_.-]';
const HANDLE_EXPECTED = '$name, name (1-28 of a-z 0-9 _ - .) or sub@root (3-28 characters)';
/**
 * An ADA Handle as a parameter: `$name` or `name` (a root of 1-28 characters) or `sub@root` (3-28 characters in
 * all, `$` allowed before it). Exactly the service's rule, so a client that follows it is never refused.
 */
export const handleSchemas = (withBareRoot: boolean): JsonSchema[] => [
  {
    pattern: withBareRoot ? `^\\$?${HANDLE_CHARS}{1,28}$` : `^\\$${HANDLE_CHARS}{1,28}$`,
    'x-expected': HANDLE_EXPECTED,
  },
  {
    pattern: `^${HANDLE_CHARS}+@${HANDLE_CHARS}+$`,
    minLength: 3,
    maxLength: 28,
    'x-expected': HANDLE_EXPECTED,
  },
  {
    pattern: `^\\$${HANDLE_CHARS}+@${HANDLE_CHARS}+$`,
    minLength: 4,
    maxLength: 29,
    'x-expected': HANDLE_EXPECTED,
  },
];

/** Whole ADA, converted exactly from lovelace. */
export const Ada: JsonSchema = { type: 'number', description: 'Whole ADA (not lovelace).' };
/** The exact amount in lovelace, as a decimal integer string (may exceed 2^53). */
export const Lovelace: JsonSchema = {
  type: 'string',
  pattern: '^-?[0-9]+$',
  description: 'Exact amount in lovelace (integer string).',
};

export const Hash64: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$' };

export const AssetAmount = component('AssetAmount', {
  type: 'object',
  required: ['unit', 'policyId', 'nameHex', 'name', 'quantity', 'quantityRaw', 'decimals'],
  properties: {
    unit: { type: 'string', description: 'Policy id + asset name hex.' },
    policyId: { type: 'string', pattern: '^[0-9a-f]{56}$' },
    nameHex: { type: 'string', pattern: '^([0-9a-f]{2}){0,32}$' },
    name: {
      type: ['string', 'null'],
      description: 'The asset name as UTF-8 text (after a CIP-67 label) when printable, else null.',
    },
    quantity: { type: 'number', description: 'Decimal-adjusted quantity (negative for burns in mint).' },
    quantityRaw: { type: 'string', pattern: '^-?[0-9]+$', description: 'Exact on-chain quantity.' },
    decimals: { type: 'integer', minimum: 0 },
  },
});

export const AssetList: JsonSchema = { type: 'array', items: AssetAmount };

/** A point of activity: the slot and time of a transaction. */
export const Activity = component('Activity', {
  type: 'object',
  required: ['slot', 'time', 'txHash'],
  properties: {
    slot: { type: 'integer', minimum: 0 },
    time: { type: ['string', 'null'], format: 'date-time' },
    txHash: { type: ['string', 'null'] },
  },
});

/**
 * Deepest page of a paged list: far beyond any list the service holds, and small enough that the offset
 * (page - 1) × pageSize stays an exact integer that every store accepts as a skip.
 */
export const MAX_PAGE = 1_000_000;

/** Query parameters of paged lists (spec: REST conventions): `page` from 1, `pageSize` at most 200. */
export const PageQueryProperties = {
  page: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
    'x-expected': `an integer from 1 to ${MAX_PAGE}`,
    description: 'Page, from 1.',
  },
  pageSize: {
    type: 'integer',
    minimum: 1,
    maximum: 200,
    default: 50,
    'x-expected': 'an integer from 1 to 200',
    description: 'Items per page (max 200).',
  },
} satisfies Record<string, JsonSchema>;

/** Query parameters of cursor lists: `limit` 1-200 (default 50) and the previous page's `nextCursor`. */
export const CursorQueryProperties = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: 200,
    default: 50,
    'x-expected': 'an integer from 1 to 200',
    description: 'Items per page (1-200, default 50).',
  },
  cursor: {
    type: 'string',
    minLength: 1,
    maxLength: 512,
    pattern: '^[A-Za-z0-9_-]+$',
    'x-expected': 'the nextCursor of a previous page of this list',
    description:
      'Opaque: the nextCursor of the previous page of this same list, sent back unchanged. A cursor of another list, or an altered one, is refused (400).',
  },
} satisfies Record<string, JsonSchema>;

/** `asOf` of every JSON answer (api/route.ts adds it to each object answer; api/read/freshness.ts fills it). */
export const AsOf: JsonSchema = {
  type: ['string', 'null'],
  format: 'date-time',
  description: 'Time of the indexed tip block this answer reflects (UTC); null before the first block.',
};

/** `coverageFrom` of an answer whose figures count only the indexed history (api/read/freshness.ts withCoverage). */
export const IndexedFrom: JsonSchema = {
  type: ['string', 'null'],
  format: 'date-time',
  description:
    'Start of the indexed history (time of the first indexed block): counts, totals and first times in this answer are of the history since then. Null before the first block.',
};

/**
 * Markdown building blocks of the views: compact tables, numbers with their units, links, and the as-of line every
 * view carries. Pure: no clock (times come from the data), no I/O.
 */
import { decimalText } from '../../cardano/units.js';
import type { AssetRef, Freshness, ViewContext } from './types.js';

/** A table cell: pipes and line breaks would break the row. */
export const cell = (v: string) => v.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function table(headers: string[], rows: string[][]): string {
  if (!rows.length) return '_none_';
  const line = (r: string[]) => `| ${r.map(cell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/**
 * Thousands separators, at most `digits` decimals; 4 significant digits for small magnitudes, trailing zeros dropped;
 * `—` for null. Always in plain decimals: JavaScript writes a number under 10^-6 with an exponent (HOSKY's ADA price
 * 6.83616e-8), which a reader scanning a column of prices takes for 6.8.
 */
export function num(n: number | null | undefined, digits = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const abs = Math.abs(n);
  if (abs !== 0 && abs < 1) return significant(4).format(n);
  return enUs(abs >= 1000 ? 0 : digits).format(n);
}

/** An exact ADA amount (balances): every lovelace digit kept, thousands separated. */
export function adaExact(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return enUs(6).format(n);
}

/**
 * An exact token quantity (balances) from its base-unit integer and the token's decimals: every digit kept, thousands
 * separated, trailing fractional zeros dropped. A double cannot hold it: quantities reach 2^64 − 1 (beyond 2^53 a
 * double drops the last digits) and a token may have more decimals than a rounded figure shows.
 */
export function tokenExact(raw: string, decimals: number): string {
  if (!/^-?[0-9]+$/.test(raw)) return '—';
  // The whole part's digits grouped by three; the sign and the fraction untouched.
  return decimalText(BigInt(raw), decimals).replace(/(?<!\.\d*)\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * en-US number formats by maximum fraction digits, built once: `toLocaleString` with options builds a new
 * Intl.NumberFormat on every call, the largest cost of rendering a view.
 */
const formats = new Map<string, Intl.NumberFormat>();
function format(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let f = formats.get(key);
  // `negative`: no sign on a value that rounds to zero (−0.001 to 2 decimals, a −0 of float arithmetic): "-0".
  if (!f) formats.set(key, (f = new Intl.NumberFormat('en-US', { ...options, signDisplay: 'negative' })));
  return f;
}
const enUs = (maximumFractionDigits: number) => format(`f${maximumFractionDigits}`, { maximumFractionDigits });
/** Up to `digits` significant digits, in plain decimals whatever the magnitude (never an exponent). */
const significant = (digits: number) => format(`s${digits}`, { maximumSignificantDigits: digits });

/** A price (ADA or USD per token): significant digits, as prices span many magnitudes. */
export function price(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  if (Math.abs(n) >= 1000) return num(n, 0);
  return significant(6).format(n);
}

/**
 * `v` to exactly `digits` decimals (no grouping, no exponent: toFixed writes one from 10^21 on), without the sign of a
 * value that rounds to zero: a stablecoin's USD change is float noise such as −1.1e-16 (its ADA change times the
 * ADA/USD move its own pools set), which toFixed wrote as "-0.00" where the tool server's percent fields show 0.
 */
const fixed = (v: number, digits: number): string =>
  format(`x${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(v);

/** A REST fraction (0.05 = +5 %) as a signed percent. */
export function pct(f: number | null | undefined, digits = 2): string {
  if (f === null || f === undefined || !Number.isFinite(f)) return '—';
  const text = fixed(f * 100, digits);
  return `${Number(text) > 0 ? '+' : ''}${text}`;
}

/** A value already in percent (fees, saturation shown as percent). */
export const percent = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : fixed(v, digits);

/** ISO time → `2026-11-25 12:00 UTC` (minutes: views are snapshots, not logs). */
export function utc(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * A creation time that may be only the first time the index saw the thing (a pool first seen by a swap, in a history
 * synced from a later start point): then it was created before that, and `why` says so.
 */
export const createdAt = (iso: string | null | undefined, exact: boolean, why: string) =>
  exact || !iso ? utc(iso) : `before ${utc(iso)} (${why})`;

/**
 * One line of chain text (token, collection and pool names, descriptions: anyone who mints writes them): a line
 * break in a heading, summary or link text would start Markdown of its own (a heading, a list of links) inside the
 * view. Control characters other than a tab and the bidirectional overrides and isolates are shown as U+FFFD: a
 * CIP-68 name is whatever bytes its datum holds (JSON escapes them, `\u001b`; Markdown is the text itself), so a
 * name `ESC [2J` cleared the terminal of whoever read the view with curl, and `U+202E KENS` read as SNEK.
 */
export const oneLine = (s: string) =>
  s.replace(/\s*[\r\n]+\s*/g, ' ').replace(/(?!\t)[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '\ufffd');

/**
 * Chain text shown as text (names, tickers, descriptions, URLs: whoever mints or registers writes them): one line, with
 * Markdown's inline syntax escaped, so a name never turns into a link or image (`[Claim](https://…)`), raw HTML
 * (`<img src=… onerror=…>`), code or emphasis in the view. An underscore inside a word (`MY_TOKEN`) opens no emphasis
 * and is left as it is; so is an `&` that starts no entity (`AT&T`), while one that does (`&lt;`, `&#124;`) is escaped,
 * or the name would read as the character it encodes. Pipes are the table cell's to escape (`cell`).
 */
export const text = (s: string) =>
  oneLine(s).replace(/[\\`*[\]<>~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|&(?=#?\w+;)/gu, (c) => `\\${c}`);

/**
 * A Markdown link. Brackets leave the text and the rest of its Markdown is escaped (`text`); a label of nothing but
 * brackets and blanks (a ticker `[]`) keeps them, escaped, so the link is not an invisible `[](…)`. In the URL (a
 * feed's link is the feed's text) a parenthesis, angle bracket or space would end the link early and let the rest read
 * as Markdown.
 */
const linkText = (label: string) => {
  const bare = label.replace(/[[\]]/g, '');
  return text(bare.trim() ? bare : label);
};
export const link = (label: string, url: string) =>
  `[${linkText(label)}](${url.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
export const md = (ctx: ViewContext, path: string) => `${ctx.site}/api/md${path}`;
export const rest = (ctx: ViewContext, path: string) => `${ctx.site}/api/v1${path}`;
export const enc = encodeURIComponent;

/** Short form of a long identifier (hash, address) for table cells; the link carries the full value. */
export const short = (s: string, keep = 8) => (s.length > keep * 2 + 1 ? `${s.slice(0, keep)}…${s.slice(-keep)}` : s);

export const tokenLink = (ctx: ViewContext, a: AssetRef) =>
  a.unit === 'lovelace' ? 'ADA' : link(a.displayName, md(ctx, `/token/${a.unit}`));

export function asOfLine(fresh: Freshness): string {
  const lag = fresh.lagSeconds === null ? 'unknown' : `${fresh.lagSeconds} s`;
  const block =
    fresh.height === null
      ? ''
      : ` · indexed block ${fresh.height}${fresh.tipHeight === null ? '' : ` of ${fresh.tipHeight}`}`;
  return `As of ${utc(fresh.asOf)} (indexed tip) · sync lag ${lag}${block}`;
}

/**
 * When a recompute computed the figures that follow (prices, changes, volumes: the market recompute, every 20 s).
 * The as-of line names the indexed tip; figures of a recompute that stopped succeeding no longer follow it.
 */
export const computedLine = (what: string, iso: string | null | undefined) => `_${what} computed ${utc(iso)}_`;

/**
 * A line of its own that opens no block: a summary (a token's or stake pool's description, written by whoever minted
 * or registered it) starting with `# `, `- `, `+ `, `> `, `1. ` or four spaces would make itself a heading, a list, a
 * quote or a code block at the top of the view. The leading marker is escaped (a backslash before ASCII punctuation
 * shows the character itself) and leading blanks are dropped.
 */
export const paragraph = (s: string) =>
  oneLine(s)
    .trimStart()
    .replace(/^[#+\-=>]/, (c) => `\\${c}`)
    .replace(/^(\d{1,9})([.)])/, '$1\\$2');

/**
 * The head of every view: title, as-of line, and a one-line summary. A run of `#` closing the title (a name such as
 * `Punks #`, or a token whose name is `#` alone: the token view's title is its name) is escaped: CommonMark drops it
 * as the heading's closing sequence, which left the view of a token named `#` under an empty heading.
 */
export function head(ctx: ViewContext, title: string, summary?: string): string {
  const heading = oneLine(title).replace(/(^|\s)(#+)\s*$/, '$1\\$2');
  return [`# ${heading}`, '', `_${asOfLine(ctx.fresh)}_`, ...(summary ? ['', paragraph(summary)] : [])].join('\n');
}

/** The links section closing every view. */
export function links(items: [string, string][]): string {
  return ['## Links', '', ...items.map(([text, url]) => `- ${link(text, url)}`)].join('\n');
}

export const join = (...parts: (string | false | null | undefined)[]) =>
  parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join('\n\n') + '\n';

/**
 * A short Markdown error answer (400/404/503): what was wrong and where to go next. The message is shown as text, as
 * chain text is: it may name what the caller sent (the 404 of an unknown view names its path, the wallet view's 404
 * the handle), so `/api/md/[Claim](https://evil.example)` must not put a link of the caller's making in the service's
 * own answer.
 */
export function errorView(site: string, status: number, message: string): string {
  const title =
    status === 404
      ? 'Not found'
      : status === 400
        ? 'Bad request'
        : status === 503
          ? 'Not ready yet'
          : `Error ${status}`;
  return `# ${title} (HTTP ${status})\n\n${paragraph(text(message))}\n\nSee ${site}/llms.txt for the views and their parameters.\n`;
}

/** Approximate LLM tokens of a text (~4 characters a token), for the `x-markdown-tokens` header. */
export const approxTokens = (text: string) => Math.ceil(text.length / 4);

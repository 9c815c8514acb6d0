/**
 * Keeps a tool result small enough for an agent's context. Agents' hosts refuse or cut a tool result above about
 * 25,000 tokens (≈ 4 characters a token), and a cut they make is silent and may leave invalid JSON. The list tools
 * stay under it by their `limit` maxima (api/mcp/tools.ts); an answer about one subject has lists the chain sizes:
 * a transaction spending 40 UTxOs of an NFT collector lists every token each one held (a UTxO holds up to the
 * protocol's max value size, ~5 KB, some hundred assets), an address may hold thousands of tokens. Such a result
 * is cut here, its longest lists to their first items, and says so in `truncated`: where, how many kept of how many.
 * A list in time order with its newest item last (a wallet's cumulative PnL series) keeps its last items instead:
 * its first ones are the oldest, and an agent reading a cut series would take its first months for the whole.
 */

/** The most characters a result's JSON text takes: ~20,000 tokens, leaving room under 25,000 for the envelope. */
export const RESULT_MAX_CHARS = 80_000;

/**
 * One cut list: its path in the result (`inputs[3].assets`), the items kept (the first ones, or the last ones when
 * `kept` is 'last') and the total.
 */
export interface Cut {
  path: string;
  shown: number;
  total: number;
  /** Only on a list kept from its end (newest last): its latest `shown` items are the ones kept. */
  kept?: 'last';
}

interface ListNode {
  path: string;
  list: unknown[];
  /** Characters of the list's JSON outside the cuttable lists nested in it: what cutting this list itself saves. */
  own: number;
  /** Whether cuttable lists are nested in it (its items' asset lists, say). */
  outer: boolean;
}

interface Walked {
  /** Characters of the value's JSON. */
  chars: number;
  /** Of them, the characters inside cuttable lists (the outermost ones). */
  listed: number;
}

const size = (v: unknown): number => JSON.stringify(v)?.length ?? 0;

/** Collects every list of `v` (`paths`) and the cuttable ones, of two or more items (`lists`). */
function walk(v: unknown, path: string, lists: ListNode[], paths: Set<string>): Walked {
  if (Array.isArray(v)) {
    paths.add(path);
    let chars = 2 + Math.max(0, v.length - 1);
    let listed = 0;
    for (const [i, item] of v.entries()) {
      const w = walk(item, `${path}[${i}]`, lists, paths);
      chars += w.chars;
      listed += w.listed;
    }
    if (v.length < 2) return { chars, listed };
    lists.push({ path, list: v, own: chars - listed, outer: listed > 0 });
    return { chars, listed: chars };
  }
  if (v !== null && typeof v === 'object') {
    let chars = 1;
    let listed = 0;
    for (const [k, item] of Object.entries(v)) {
      if (item === undefined) continue;
      const w = walk(item, path ? `${path}.${k}` : k, lists, paths);
      chars += JSON.stringify(k).length + 2 + w.chars;
      listed += w.listed;
    }
    return { chars: Math.max(2, chars), listed };
  }
  return { chars: size(v), listed: 0 };
}

/** Items of `l` kept when it may take `cap` characters: at least one. */
const keptOf = (l: ListNode, cap: number) => Math.max(1, Math.floor(cap / (l.own / l.list.length)));

/** Characters saved by cutting every list to `cap` characters. */
const savedAt = (lists: readonly ListNode[], cap: number) =>
  lists.reduce((s, l) => s + Math.max(0, l.own - (keptOf(l, cap) * l.own) / l.list.length), 0);

/**
 * The most characters each of `lists` may keep so that cutting them to it saves `excess`: the longest lists are cut
 * to the same length in characters, the shorter ones stay whole. 0 (one item each) when even that does not save it.
 */
function capFor(lists: readonly ListNode[], excess: number): number {
  let lo = 0;
  let hi = Math.max(...lists.map((l) => l.own));
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (savedAt(lists, mid) >= excess) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * `result` with its JSON text under `maxChars` when cutting lists gets it there. The innermost lists are cut first
 * (the asset lists of a transaction's inputs and outputs before the inputs and outputs themselves, so every input
 * and output stays listed), the longest of them to the same length in characters, each to at least one item; a
 * list holding lists is cut only when its inner ones are down to one item. Lists keep their order, so what is kept
 * is what each list puts first, except the lists at `newestLast` (paths, e.g. `series`): in time order with the
 * newest item last, they keep their last items.
 */
export function fitResult<T extends Record<string, unknown>>(
  result: T,
  maxChars = RESULT_MAX_CHARS,
  newestLast: ReadonlySet<string> = new Set(),
): { result: T; cuts: Cut[] } {
  let chars = size(result);
  if (chars <= maxChars) return { result, cuts: [] };
  const out = structuredClone(result);
  const cuts = new Map<string, Cut>();
  let paths = new Set<string>();
  // Each round cuts at least one list of two or more items (the innermost ones always have some), so rounds end.
  for (;;) {
    const lists: ListNode[] = [];
    paths = new Set();
    // The `truncated` field the cuts add counts too.
    chars = walk(out, '', lists, paths).chars + (cuts.size ? size([...cuts.values()]) + 14 : 0);
    if (chars <= maxChars || lists.length === 0) break;
    const inner = lists.filter((l) => !l.outer);
    const cap = capFor(inner, chars - maxChars);
    for (const l of inner) {
      const keep = keptOf(l, cap);
      if (keep >= l.list.length) continue;
      const total = cuts.get(l.path)?.total ?? l.list.length;
      if (newestLast.has(l.path)) {
        cuts.set(l.path, { path: l.path, shown: keep, total, kept: 'last' });
        l.list.splice(0, l.list.length - keep);
      } else {
        cuts.set(l.path, { path: l.path, shown: keep, total });
        l.list.length = keep;
      }
    }
  }
  // A list cut inside an item a later round cut away is gone with it.
  return { result: out, cuts: [...cuts.values()].filter((c) => paths.has(c.path)) };
}

/**
 * A digest over whole collections: sha-256 of every document in `_id` order, with object keys sorted so the
 * digest depends on content only (not on the order in which fields happened to be written).
 */
import { createHash } from 'node:crypto';
import type { CollectionSpec, Store } from './store.js';

export function canonicalJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(',')}]`;
  if (x !== null && typeof x === 'object') {
    const keys = Object.keys(x).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((x as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(x) ?? 'null';
}

export async function storeDigest(
  store: Store,
  specs: readonly CollectionSpec<{ _id: string }>[],
): Promise<{ digest: string; counts: Record<string, number>; perCollection: Record<string, string> }> {
  const all = createHash('sha256');
  const counts: Record<string, number> = {};
  const perCollection: Record<string, string> = {};
  for (const spec of specs) {
    const h = createHash('sha256');
    let n = 0;
    for await (const doc of store.collection(spec).scan()) {
      h.update(canonicalJson(doc));
      h.update('\n');
      n++;
    }
    counts[spec.name] = n;
    perCollection[spec.name] = h.digest('hex');
    all.update(`${spec.name}:${perCollection[spec.name]}\n`);
  }
  return { digest: all.digest('hex'), counts, perCollection };
}

/**
 * What a read function needs: the store, the few settings that shape an answer (site URL for links, the address
 * network) and a clock. An `ApiDeps` is a `ReadDeps`, so REST, MCP and Markdown pass theirs as is.
 */
import type { ApiDeps } from '../deps.js';
import type { RouteSpec } from '../route.js';

export type ReadDeps = Pick<ApiDeps, 'store' | 'config' | 'now' | 'tokenDecimals'>;

/** The validated input of a REST operation as one object: its path parameters and query parameters merged. */
export type RouteInput<S> = S extends RouteSpec<infer P, infer Q> ? (string extends keyof P ? Q : P & Q) : never;

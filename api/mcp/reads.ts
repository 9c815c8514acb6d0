/**
 * The read functions the tools present, by REST operationId: `read(deps, operationId, input)` validates and
 * defaults `input` (the route's path and query parameters in one object) with the route's own parser, exactly as
 * REST does, then calls the operation's read function (api/read/*, READ-LAYER.md). The answer is the REST 200 body
 * with its `asOf`; a caller mistake throws the REST error (BadRequestError / NotFoundError).
 *
 * Logos are always asked as URLs (`logos=url`): inline images would cost a tool caller thousands of tokens each.
 */
import type { ApiDeps } from '../deps.js';
import * as explorer from '../read/explorer.js';
import * as governance from '../read/governance.js';
import * as handles from '../read/handles.js';
import * as holders from '../read/holders.js';
import * as market from '../read/market.js';
import * as news from '../read/news.js';
import * as nft from '../read/nft.js';
import * as pools from '../read/pools.js';
import * as staking from '../read/staking.js';
import * as swap from '../read/swap.js';
import * as tokens from '../read/tokens.js';
import * as wallet from '../read/wallet.js';
import type { AnyRouteSpec } from '../route.js';
import { restRoutes } from '../routes/index.js';

export type ReadInput = Record<string, string | number | boolean | undefined | null>;
type ReadFn = (deps: ApiDeps, input: object) => Promise<unknown>;

const SPECS = new Map<string, AnyRouteSpec>(restRoutes().map((r) => [r.operationId, r]));

/** Every read function named after a REST operation (the modules also export helpers, which are left out). */
const READS = new Map<string, ReadFn>(
  [explorer, governance, handles, holders, market, news, nft, pools, staking, swap, tokens, wallet].flatMap((m) =>
    Object.entries(m).flatMap(([name, fn]) =>
      SPECS.has(name) && typeof fn === 'function' ? [[name, fn as ReadFn]] : [],
    ),
  ),
);

/** The route spec of an operation (schemas of its parameters and of its 200 body). */
export function routeSpec(operationId: string): AnyRouteSpec {
  const spec = SPECS.get(operationId);
  if (!spec) throw new Error(`no REST operation ${operationId}`);
  return spec;
}

/**
 * The REST body of `operationId` for `input` (path and query parameters in one object). `extra`: options of the
 * read function that are not REST parameters (list_tokens hideHighRisk), passed after the parameters are checked.
 */
export async function read<T = Record<string, unknown>>(
  deps: ApiDeps,
  operationId: string,
  input: ReadInput,
  extra: Record<string, unknown> = {},
): Promise<T> {
  const spec = routeSpec(operationId);
  const fn = READS.get(operationId);
  if (!fn) throw new Error(`no read function ${operationId}`);
  const pathNames = new Set(Object.keys(spec.params?.properties ?? {}));
  const params: Record<string, string | undefined> = {};
  const query: Record<string, unknown> = { logos: 'url' };
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null) continue;
    if (pathNames.has(k)) params[k] = String(v);
    else query[k] = typeof v === 'string' ? v : String(v);
  }
  const parsed = spec.parse(params, query);
  return (await fn(deps, { ...parsed.params, ...parsed.query, ...extra })) as T;
}

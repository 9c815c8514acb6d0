/**
 * The read functions the tools present, by REST operationId: `read(deps, operationId, input)` answers exactly the
 * REST 200 body for the route's path and query parameters merged into `input` (raw values: the route validates
 * and defaults them as REST does), or throws the REST error as BadRequestError / NotFoundError.
 *
 * Until the read layer (api/read/*, READ-LAYER.md) lands, the answer is the REST route's own, dispatched in
 * process through the /api/v1 router (no socket, no access layer, no micro-cache): the same code and the same
 * body the REST caller gets. Logos are always asked as URLs (`logos=url`): inline images would cost a tool
 * caller thousands of tokens per token.
 */
import Koa from 'koa';
import { inject } from 'light-my-request';
import type { ApiDeps } from '../deps.js';
import { AppError, BadRequestError, NotFoundError } from '../errors.js';
import { errorAnswers } from '../middleware.js';
import type { AnyRouteSpec } from '../route.js';
import { API_PREFIX, restRouter, restRoutes } from '../routes/index.js';

export type ReadInput = Record<string, string | number | boolean | undefined | null>;

const SPECS = new Map<string, AnyRouteSpec>(restRoutes().map((r) => [r.operationId, r]));

/** The route spec of an operation (schemas of its parameters and of its 200 body). */
export function routeSpec(operationId: string): AnyRouteSpec {
  const spec = SPECS.get(operationId);
  if (!spec) throw new Error(`no REST operation ${operationId}`);
  return spec;
}

type Dispatch = ReturnType<Koa['callback']>;
const apps = new WeakMap<ApiDeps, Dispatch>();

function dispatcher(deps: ApiDeps): Dispatch {
  let d = apps.get(deps);
  if (!d) {
    const app = new Koa();
    app.use(errorAnswers(deps.log));
    const v1 = restRouter({ ...deps, cacheMs: 0 });
    app.use(v1.routes()).use(v1.allowedMethods());
    d = app.callback();
    apps.set(deps, d);
  }
  return d;
}

/** The REST body of `operationId` for `input` (path and query parameters in one object). */
export async function read<T = Record<string, unknown>>(
  deps: ApiDeps,
  operationId: string,
  input: ReadInput,
): Promise<T> {
  const spec = routeSpec(operationId);
  const query = new URLSearchParams({ logos: 'url' });
  let path = spec.path;
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null) continue;
    if (path.includes(`{${k}}`)) path = path.replace(`{${k}}`, encodeURIComponent(String(v)));
    else query.set(k, String(v));
  }
  if (/\{\w+\}/.test(path)) throw new BadRequestError(`missing parameter ${/\{(\w+)\}/.exec(path)?.[1]}`);
  const res = await inject(dispatcher(deps), { method: 'GET', url: `${API_PREFIX}${path}?${query}` });
  const body = res.body ? (JSON.parse(res.body) as unknown) : null;
  if (res.statusCode === 200) return body as T;
  const message = (body as { error?: string } | null)?.error ?? `status ${res.statusCode}`;
  if (res.statusCode === 400) throw new BadRequestError(message);
  if (res.statusCode === 404) throw new NotFoundError(message);
  throw new AppError(res.statusCode, message);
}

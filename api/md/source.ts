/**
 * Where the Markdown views get their data: the REST operations' own answers (the same bodies the JSON API serves),
 * fetched in process. Each function takes the operation's validated input (path and query parameters merged) and
 * throws the REST errors (BadRequestError 400, NotFoundError 404) unchanged.
 *
 * Interim: until the read layer (api/read/*) is on main, an operation is answered by dispatching a synthetic GET
 * through the REST router (no socket, no access layer, no cache); then each function becomes its read function.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import type { ApiDeps } from '../deps.js';
import { restRouter, API_PREFIX } from '../routes/index.js';

type Query = Record<string, string | number | boolean | undefined>;

export interface MdSource {
  get<T>(path: string, query?: Query): Promise<T>;
}

export function restSource(deps: ApiDeps): MdSource {
  const app = new Koa();
  const routes = restRouter(deps).routes();
  return {
    async get<T>(path: string, query: Query = {}): Promise<T> {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
      const req = new IncomingMessage(new Socket());
      req.method = 'GET';
      req.url = `${API_PREFIX}${path}${qs.size ? `?${qs.toString()}` : ''}`;
      req.headers = { accept: 'application/json' };
      const ctx = app.createContext(req, new ServerResponse(req));
      await routes(ctx as Parameters<typeof routes>[0], async () => {});
      if (ctx.status !== 200 || ctx.body === undefined || ctx.body === null)
        throw new Error(`internal REST call ${req.url} answered ${ctx.status}`);
      return ctx.body as T;
    },
  };
}

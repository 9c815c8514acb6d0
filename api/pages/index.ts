/**
 * Routers at the site root owned by the pages layer: the swap page. Mounted by api/app.ts after the probes.
 */
import type Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { swapRouter } from './swap/routes.js';

export const PAGE_ROUTERS: readonly ((deps: ApiDeps) => Router)[] = [() => swapRouter()];

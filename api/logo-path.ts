/**
 * The logo image route, `/api/v1/assets/{unit}/logo`: served to <img> tags in bulk, so never rate limited (spec:
 * Limits 6; a key sent with it is checked, never counted) and never micro-cached (it has its own cache headers).
 * Matched as @koa/router matches it — in any case, with or without a trailing slash — so every part of the API
 * (the limits, the micro-cache, the replay fast path) agrees on which requests it is. Takes a path or a request
 * URL (a query string is ignored).
 */
const LOGO_PATH = /^\/api\/v1\/assets\/[^/?#]+\/logo\/*(?:[?#]|$)/i;

export const isLogoPath = (pathOrUrl: string): boolean => LOGO_PATH.test(pathOrUrl);

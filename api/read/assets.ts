/**
 * A token's logo image: the registry's (stored decoded, with its hash as ETag) or the CIP-68 inline data URI.
 */
import { parseDataUri } from '../../cardano/token-metadata.js';
import { LOGOS, TOKENS } from '../../mongo/collections/market.js';
import { NotFoundError } from '../errors.js';
import { createHash } from 'node:crypto';
import type { assetRoutes } from '../routes/assets.js';
import type { ReadDeps, RouteInput } from './deps.js';

export interface LogoImage {
  contentType: string;
  bytes: Buffer;
  etag: string;
}

export async function getAssetLogo(deps: ReadDeps, input: RouteInput<typeof assetRoutes.logo>): Promise<LogoImage> {
  const { store } = deps;
  const unit = input.unit.toLowerCase();
  let image: LogoImage | null = null;
  const logo = await store.collection(LOGOS).get(unit);
  if (logo) image = { contentType: logo.contentType, bytes: Buffer.from(logo.base64, 'base64'), etag: logo.etag };
  else {
    const inline = parseDataUri((await store.collection(TOKENS).get(unit))?.cip68?.logo ?? null);
    if (inline) image = { ...inline, etag: createHash('sha256').update(inline.bytes).digest('hex') };
  }
  if (!image) throw new NotFoundError(`token ${unit} has no logo`);
  return image;
}

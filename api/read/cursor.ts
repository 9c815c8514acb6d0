/**
 * Cursors of the newest-first lists: the position of the previous page's last item, sealed to the list it came
 * from. The seal is a digest of the list's identity and the position, so a cursor of another list (another token,
 * pool, wallet or collection), or a position edited by hand, is refused with 400 instead of paging from a place
 * the list never handed out. It is a check against mistakes, not a secret: no key is involved.
 */
import { createHash } from 'node:crypto';
import { BadRequestError } from '../errors.js';

const SEAL_CHARS = 12;

const sealOf = (list: string, position: string): string =>
  createHash('sha256').update(list).update('\u0000').update(position).digest('base64url').slice(0, SEAL_CHARS);

/** The cursor of `position` (text without `~`) in the list named `list`. */
export const sealCursor = (list: string, position: string): string =>
  Buffer.from(`${position}~${sealOf(list, position)}`, 'utf8').toString('base64url');

/** The position a cursor of `list` holds; 400 when it is not one this list handed out. */
export function openCursor(list: string, cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const cut = text.lastIndexOf('~');
  const position = text.slice(0, cut);
  // Node's base64 decoding skips characters outside the alphabet and a trailing partial byte: a cursor with text
  // appended or inserted decoded to the position it was made from. Only the exact text handed out is one.
  const exact = Buffer.from(text, 'utf8').toString('base64url') === cursor;
  if (!exact || cut < 0 || text.slice(cut + 1) !== sealOf(list, position))
    throw new BadRequestError(
      'invalid parameter cursor: not a cursor of this list (pass the nextCursor of the previous page unchanged)',
    );
  return position;
}

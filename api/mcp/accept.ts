/**
 * The Accept header of a tool-server request of the older revisions (2025-11-25, 2025-06-18, 2025-03-26), whose
 * answers are event streams (or JSON) from the SDK's legacy transport. That transport answers 406 unless the header's
 * text holds the literal strings `application/json` and `text/event-stream`, but by HTTP's rules (RFC 9110 12.5.1)
 * media types are case-insensitive and ranges (every type; every subtype of a type) accept what they cover: an
 * every-type Accept (curl's default) or `APPLICATION/JSON, TEXT/EVENT-STREAM` accepts both, and was refused. Such a
 * header is handed to the SDK as the two types it accepts. A header that does not accept both (one missing, or
 * refused with q=0) is left as it is, for the SDK's 406; so is a missing one (the revisions require it).
 */
import accepts from 'accepts';

/** The two media types the older revisions' transport answers with, as it requires them listed. */
export const LEGACY_ACCEPT = 'application/json, text/event-stream';

/** The Accept to hand the SDK for `value` (a legacy request's header): LEGACY_ACCEPT when it accepts both, else null. */
export function legacyAccept(value: string | undefined): string | null {
  if (!value || value === LEGACY_ACCEPT) return null;
  const negotiator = accepts({ headers: { accept: value } } as Parameters<typeof accepts>[0]);
  return negotiator.types('application/json') && negotiator.types('text/event-stream') ? LEGACY_ACCEPT : null;
}

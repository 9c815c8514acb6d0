/**
 * negotiator 1.x, of which the service uses the encoding choice. Its `preferred` order breaks a tie in q (RFC 9110
 * 12.5.3 leaves that to the server); @types/negotiator describes 0.6, which has no such option.
 */
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /** The coding of `available` the client takes most, `preferred`'s order breaking ties; undefined: none. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
  export = Negotiator;
}

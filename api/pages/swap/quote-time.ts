/**
 * When the swap page's quote is from: the time of the pool states it was computed on, the quote's `asOf` (the
 * indexed chain tip's block time), not the moment the page fetched it. While the index is behind the chain (a
 * catch-up, a stalled sync) those differ by minutes or hours, and "as of" the fetch time told the trader a quote on
 * old pool states was current. Bundled into the page with swap.js (routes.ts).
 */

/** `as of HH:MM:SS UTC`, with the date when it is not `nowMs`'s (UTC) day; '' when the quote names no time. */
export function quoteTimeText(asOf: string | null | undefined, nowMs: number): string {
  const t = asOf ? Date.parse(asOf) : NaN;
  if (Number.isNaN(t)) return '';
  const iso = new Date(t).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(nowMs).toISOString().slice(0, 10);
  return `as of ${sameDay ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`} UTC`;
}

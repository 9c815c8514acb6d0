/**
 * V8 flags of the service's processes.
 *
 * The API process (`npm start`: package.json runs `node --max-old-space-size=320 …`) caps V8's old generation at
 * 320 MB. Its live heap is 60-110 MB under load (every answer cache is bounded; answer bytes live outside the V8
 * heap), but without a cap V8 sizes the heap by its allocation rate: under the bench's REST and tool-server load
 * (a fresh tool server per `tools/call`) it reserved 320-400 MB of heap that was mostly garbage, and RssAnon
 * reached 394-460 MB. With a cap V8 collects sooner: RssAnon peaked at 191-217 MB with 256 or 320 (side by side
 * with uncapped runs), at a cost of more collections: `tools/call` at saturation 7,700-8,600 req/s capped against
 * 9,300-11,800 uncapped, still well over its 3,000 budget. 192 MB was too tight (req/s halved). 320 leaves the live
 * heap three times its size.
 */
export const API_HEAP_FLAG = '--max-old-space-size=320';

/**
 * The flags for a child process that does other work (the embedded worker's sync holds far more live data; the
 * devnet its whole ledger): the parent's loader flags (tsx), without the API's heap cap.
 */
export function childExecArgv(): string[] {
  return process.execArgv.filter((a) => !a.startsWith('--max-old-space-size'));
}

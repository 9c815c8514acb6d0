/**
 * An in-memory ChainSource over a fixed event stream (what an Ogmios follower would receive from origin), for
 * sync tests that need exact control over forks. Intersection follows Ogmios: the best listed point that is on
 * the stream's final chain; the first event after it is a RollBackward to it.
 */
import type { ChainSource } from '../../activities/chain/source.js';
import type { Block, ChainEvent, NetworkTime, Point, Tip } from '../../cardano/chain/types.js';

export const TEST_TIME: NetworkTime = {
  startTimeMs: Date.UTC(2026, 0, 1),
  startSlot: 0,
  slotLengthMs: 1000,
  epochLength: 86_400,
  startEpoch: 0,
};

export function memoryChain(stream: readonly ChainEvent[]): ChainSource & { position(): number } {
  // Final chain = forward blocks minus those rolled back.
  const chain: Block[] = [];
  for (const ev of stream) {
    if (ev.direction === 'forward') chain.push(ev.block);
    else {
      const p = ev.point;
      const keep = p === 'origin' ? 0 : chain.findIndex((b) => b.id === p.id) + 1;
      chain.length = keep;
    }
  }
  const last = chain[chain.length - 1];
  const tip: Tip = last ? { slot: last.slot ?? 0, id: last.id, height: last.height } : 'origin';
  let pos = 0;
  let pending: ChainEvent | null = null;
  return {
    position: () => pos,
    async findIntersection(points: readonly Point[]) {
      for (const p of points) {
        if (p === 'origin') {
          pos = 0;
          pending = { direction: 'backward', point: 'origin', tip };
          return { intersection: 'origin', tip };
        }
        // Resume after the LAST occurrence of the block in the stream (it is on the final chain).
        const i = stream.findLastIndex((e) => e.direction === 'forward' && e.block.id === p.id);
        if (i >= 0 && chain.some((b) => b.id === p.id)) {
          pos = i + 1;
          pending = { direction: 'backward', point: p, tip };
          return { intersection: p, tip };
        }
      }
      throw new Error('No intersection found.');
    },
    async nextEvents(max: number) {
      const out: ChainEvent[] = [];
      if (pending) {
        out.push(pending);
        pending = null;
      }
      while (out.length < max && pos < stream.length) out.push(stream[pos++] as ChainEvent);
      return out;
    },
    async query() {
      throw new Error('memoryChain answers no queries');
    },
    async networkTime() {
      return TEST_TIME;
    },
    async close() {},
  };
}

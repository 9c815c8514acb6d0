/** Collections and documents shared by the embedded-store tests and their child process. */
import { createHash } from 'node:crypto';
import { defineCollection } from '../../mongo/store.js';

export interface ChildOutputDoc {
  _id: string;
  batch: number;
  address: string;
  lovelace: string;
}
export const CHILD_OUTPUTS = defineCollection<ChildOutputDoc>({
  name: 'child_outputs',
  indexes: [
    { name: 'byBatch', fields: ['batch'] },
    { name: 'byAddress', fields: ['address', 'batch'] },
  ],
});

export interface ChildBatchDoc {
  _id: string;
  n: number;
  size: number;
}
export const CHILD_BATCHES = defineCollection<ChildBatchDoc>({ name: 'child_batches' });

/** Output `i` of batch `n`: a transaction-output-shaped id and one of a few addresses. */
export function childOutput(n: number, i: number): ChildOutputDoc {
  const tx = createHash('sha256')
    .update(`batch ${n} tx ${Math.floor(i / 2)}`)
    .digest('hex');
  return {
    _id: `${tx}#${i % 2}`,
    batch: n,
    address: `addr1q${'xyz'[i % 3]}${tx.slice(0, 50)}`,
    lovelace: `${n}${i}000000`,
  };
}

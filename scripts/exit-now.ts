/**
 * Ends this process at once, also while an lmdb write batch is part-way: process.exit() (and Node's own exit on an
 * uncaught exception) first joins libuv's thread pool, and lmdb-js's writer thread, waiting in that pool for this
 * thread to run a transaction callback (the embedded store's every write is one), never returns, so the process
 * hangs asleep for good (kriszyp/lmdb-js#336; seen in CI: the embedded worker of a SIGKILLed `npm start` outlived
 * it). A SIGKILL of itself is the kill -9 the store already survives: every write is one atomic lmdb transaction,
 * so the one in flight is either committed whole or not at all.
 */
export function exitNow(): never {
  process.kill(process.pid, 'SIGKILL');
  // A signal a process sends itself is delivered before kill() returns (POSIX); this line is never reached.
  throw new Error('unreachable: SIGKILL of itself returned');
}

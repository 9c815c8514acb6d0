/**
 * For a child process `npm start` forks (the embedded worker, the devnet): calls `gone` once when the parent is
 * gone, even after a SIGKILL. The IPC channel's close is the usual sign, but a copy of the parent's end of it held by
 * another process keeps it open (seen in CI: a worker outlived a SIGKILLed npm start, asleep); so the parent's pid is
 * watched too, each second: once reparented, the parent is gone.
 */
export function onParentGone(gone: () => void): void {
  // A parent that went while this child was still starting (npm start stopped by SIGTERM in its first seconds,
  // before its own handlers exist) closed the channel before anyone listened, and the child was reparented before
  // `parent` below was read: neither sign would ever come, and the devnet served on, orphaned, until killed.
  if (process.send && !process.connected) {
    setImmediate(gone);
    return;
  }
  const parent = process.ppid;
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    clearInterval(watch);
    gone();
  };
  const watch = setInterval(() => process.ppid !== parent && once(), 1_000);
  watch.unref();
  process.once('disconnect', once);
}

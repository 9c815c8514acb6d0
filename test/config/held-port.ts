/**
 * A loopback port another listener holds, and a temporary folder for the process under test's DATA_DIR: what the
 * tests of an entry point refusing a port it cannot listen on share. Taken in the suite's `before`, released (and the
 * folder removed) in its `after`; read `port` and `dir` inside the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function heldPort(prefix: string): { port: number; dir: string } {
  const held = { port: 0, dir: '' };
  let taken: Server;
  before(async () => {
    held.dir = mkdtempSync(join(tmpdir(), prefix));
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    held.port = (taken.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(held.dir, { recursive: true, force: true });
  });
  return held;
}

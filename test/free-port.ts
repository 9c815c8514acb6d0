/** A TCP port free on 127.0.0.1 right now, for a server a test starts in another process. */
import { createServer } from 'node:net';

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

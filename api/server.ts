/**
 * Listening: builds the app and binds it to a port. The process (scripts/start.ts) owns signals and decides when
 * to call `close()`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import type { ApiDeps } from './deps.js';

export interface RunningApi {
  /** Base URL of the listener (localhost when bound to every interface). */
  url: string;
  server: http.Server;
  /** Stops accepting connections, ends idle keep-alive sockets, and resolves when in-flight requests finish. */
  close(): Promise<void>;
}

/** Open connections still busy this long after close() are cut (a streaming client must not block shutdown). */
const CLOSE_GRACE_MS = 5_000;

export async function startApi(deps: ApiDeps, opts: { port: number; host: string }): Promise<RunningApi> {
  const app = createApp(deps);
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  const anyInterface = address === '0.0.0.0' || address === '::';
  const host = anyInterface ? 'localhost' : family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        cut.unref();
        server.close((err) => {
          clearTimeout(cut);
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

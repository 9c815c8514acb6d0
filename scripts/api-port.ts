/**
 * PORT and HOST as `npm start` needs them: a port this process can listen on. A port taken (another service, a
 * second `npm start`), one below 1024 without the right, or a HOST that is no address of this machine stopped
 * `npm start` with `fatal:` and a stack trace, after its devnet and worker had started (the worker then printed
 * its own EPIPE stack). Checked before any child starts, and the listen itself reports the same way.
 */
import { createServer, type AddressInfo } from 'node:net';
import { StartupError } from '../config/index.js';

const LISTEN_CODES = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * A listen error as one line naming the port's key (PORT, or DEVNET_PORT for `npm run devnet`) and HOST
 * (StartupError: exit 1, no stack); other errors as they are.
 */
export function listenError(e: unknown, port: number, host: string, key = 'PORT'): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (!code || !LISTEN_CODES.has(code)) return e;
  const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'not permitted' : 'no such address';
  return new StartupError(
    `${key}=${port} HOST=${host}: cannot listen there (${why}): ${e instanceof Error ? e.message : String(e)}`,
  );
}

/** Resolves when `port` on `host` can be listened on (bound and released at once); rejects with listenError. */
export function checkListen(port: number, host: string, key = 'PORT'): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e) => reject(listenError(e, port, host, key)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * A port on `host` the OS hands out as free (PORT=0): bound and released at once, so the API can be built with the
 * port it will listen on. Another process taking it in between is reported by the listen as a port in use.
 */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e) => reject(listenError(e, 0, host)));
    probe.listen({ port: 0, host, exclusive: true }, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

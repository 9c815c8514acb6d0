/**
 * HTTP load measurement: autocannon against a URL, and a bare `node:http` server (in its own process) that
 * returns the same bytes, so every figure is a ratio against a baseline measured in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  opts: { seconds: number; connections?: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const r = await autocannon({
    url,
    duration: opts.seconds,
    connections: opts.connections ?? 32,
    pipelining: 1,
    headers: opts.headers ?? {},
  });
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, errors: r.errors, non2xx: r.non2xx };
}

/** Start a bare node:http server in a child process answering every request with `body` (JSON unless `type`). */
export async function startBareServer(
  dir: string,
  body: Buffer,
  type = 'application/json; charset=utf-8',
): Promise<{ url: string; stop: () => void }> {
  const file = join(dir, 'bare-body.json');
  writeFileSync(file, body);
  const src = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': ${JSON.stringify(type)}, 'content-length': body.length }); res.end(body); });
    s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await firstLine(child);
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const i = buf.indexOf('\n');
      if (i >= 0) resolve(buf.slice(0, i).trim());
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

/** Resident memory of a process in MB: total, anonymous (heap, stacks: the process's own) and file-backed (lmdb's memory map, code). */
export function rssMb(pid: number): { total: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

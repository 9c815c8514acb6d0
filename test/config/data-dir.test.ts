/**
 * A DATA_DIR the service cannot write (a read-only mount, a path under a file, no permission), as an operator meets
 * it: `npm start` on the embedded defaults and `npm run devnet` stop with exit code 1 and one line naming DATA_DIR
 * and the reason, before any child process starts; no stack trace (each of npm start's three processes printed its
 * own: the devnet's EROFS on devnet.json, the API's lmdb 'Attempting to setup locks', the worker's pid file).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('a DATA_DIR that cannot be written', function () {
  this.timeout(120_000);
  let dir: string;
  let dataDir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-data-dir-'));
    // Under a regular file a folder cannot be created, even by root (who may write to any folder of a writable mount).
    writeFileSync(join(dir, 'a-file'), '');
    dataDir = join(dir, 'a-file', 'data');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const entryPoints: [string, string[]][] = [
    ['npm start', ['scripts/start.ts']],
    ['npm run devnet', ['scripts/devnet.ts']],
  ];
  /** `args` run with DATA_DIR=`dir`: its exit status and its output's non-empty lines. */
  const run = (args: string[], dir: string) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        PORT: '0',
        DEVNET_PORT: '0',
        OGMIOS_URL: '',
        MONGODB_URI: '',
        TEMPORAL_ADDRESS: '',
        LOG_LEVEL: 'warn',
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    return { status: r.status, out, lines: out.split('\n').filter((l) => l.trim() !== '') };
  };

  for (const [what, args] of entryPoints) {
    it(`${what}: exit 1, one line naming DATA_DIR and the reason`, () => {
      const { status, out, lines } = run(args, dataDir);
      assert.equal(status, 1, out);
      assert.equal(lines.length, 1, out);
      assert.match(lines[0] as string, new RegExp(`^DATA_DIR=${dataDir}: cannot write there: ENOTDIR`));
    });

    // A file passes the write check a folder needs: the devnet, the store and the worker each stopped with a stack.
    it(`${what}: a DATA_DIR that is a file: exit 1, one line`, () => {
      const file = join(dir, 'a-file');
      const { status, out, lines } = run(args, file);
      assert.equal(status, 1, out);
      assert.deepEqual(lines, [`DATA_DIR=${file}: cannot write there: ENOTDIR: it is a file, not a folder`], out);
    });

    // procfs answers ENOENT to a mkdir under a folder that exists: Node's recursive mkdir retried it without end at
    // 100 % of a core, and the process never printed a line nor exited (killed here after 90 s: status null).
    it(`${what}: a DATA_DIR under /proc, where no folder can be made: exit 1, one line`, function () {
      if (!existsSync('/proc/self')) this.skip();
      const procDir = '/proc/cds-data-dir/data';
      const { status, out, lines } = run(args, procDir);
      assert.equal(status, 1, out);
      assert.equal(lines.length, 1, out);
      assert.match(lines[0] as string, new RegExp(`^DATA_DIR=${procDir}: cannot write there: ENOENT`));
    });
  }
});

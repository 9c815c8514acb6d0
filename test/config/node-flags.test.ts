import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { API_HEAP_FLAG } from '../../config/node-flags.js';

describe('V8 flags of the service processes', () => {
  it('npm start runs the API process with the heap cap the bench measures', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.match(pkg.scripts.start ?? '', new RegExp(`^exec node ${API_HEAP_FLAG} `));
  });

  it("the worker and devnet children get the parent's loader flags but not the API's heap cap", () => {
    // A child process started the way npm start starts: its childExecArgv() and its own heap limit.
    const out = execFileSync(
      process.execPath,
      [
        API_HEAP_FLAG,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { childExecArgv } from './config/node-flags.ts';
         import v8 from 'node:v8';
         console.log(JSON.stringify({ argv: childExecArgv(), limitMb: v8.getHeapStatistics().heap_size_limit / 2 ** 20 }));`,
      ],
      { encoding: 'utf8' },
    );
    const { argv, limitMb } = JSON.parse(out) as { argv: string[]; limitMb: number };
    assert.ok(limitMb < 512, `the API process's heap limit is capped (${limitMb} MB)`);
    assert.ok(argv.includes('tsx'), `the children keep the loader: ${argv.join(' ')}`);
    assert.ok(!argv.some((a) => a.startsWith('--max-old-space-size')), `the children drop the cap: ${argv.join(' ')}`);
  });
});

/**
 * A mistake on the `ops` command line exits with code 2 and one line (README, Operating: "Mistakes exit with code 2,
 * … each with one line"). `ops resync` without `--from` printed its reason and then the whole usage text (12 more
 * lines), and `ops keys create` without an account printed the keys usage and no reason at all.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KeysCommandError, parseKeysArgs } from '../../api/access/ops-keys.js';
import { OpsError, parseOpsArgs } from '../../temporal/ops.js';

const OPS = join(import.meta.dirname, '../../scripts/ops.ts');

/** The message a parse mistake carries (what ops prints on stderr). */
function mistake(parse: () => unknown, type: new (...a: never[]) => Error): string {
  try {
    parse();
  } catch (e) {
    assert.ok(e instanceof type, String(e));
    return e.message;
  }
  assert.fail('no mistake reported');
}

describe('ops: a command-line mistake is one line', () => {
  it('every mistake of the ops commands and of keys is one line naming what is wrong', () => {
    const ops: [string[], RegExp][] = [
      [['resync'], /^resync needs --from origin \(usage: npm run ops -- help\)$/],
      [['resync', '--from'], /^resync needs --from origin/],
      [['status', 'now'], /^status takes no arguments/],
      [['jobs', 'x'], /^jobs takes no arguments/],
      [['runs', '--all'], /^unknown option for runs: --all/],
      [['retry'], /^retry takes exactly one run id/],
      [['trigger'], /^trigger takes exactly one job name/],
      [['sync'], /^sync takes one subcommand: restart/],
      [
        ['frobnicate'],
        /^unknown command: frobnicate \(commands: status, runs, retry, trigger, jobs, resync, sync restart, keys;/,
      ],
    ];
    for (const [argv, want] of ops) {
      const m = mistake(() => parseOpsArgs(argv), OpsError);
      assert.match(m, want, argv.join(' '));
      assert.ok(!m.includes('\n'), `${argv.join(' ')}: ${m}`);
    }
    const keys: [string[], RegExp][] = [
      [['create'], /^keys create takes <account> \[--name N\] \(usage: npm run ops -- keys help\)$/],
      [['list'], /^keys list takes <account>/],
      [['revoke'], /^keys revoke takes <keyId>/],
      [['plan', 'a'.repeat(56)], /^keys plan takes <account> <free\|plus\|pro>/],
      [['rotate', 'x'], /^unknown keys command: rotate/],
    ];
    for (const [argv, want] of keys) {
      const m = mistake(() => parseKeysArgs(argv), KeysCommandError);
      assert.match(m, want, argv.join(' '));
      assert.ok(!m.includes('\n'), `keys ${argv.join(' ')}: ${m}`);
    }
  });

  it('`ops resync` without --from: exit code 2 and one line on stderr', async () => {
    const r = await promisify(execFile)(process.execPath, ['--import', 'tsx', OPS, 'resync'], {
      env: { ...process.env, DATA_DIR: '/nonexistent', TEMPORAL_ADDRESS: '', MONGODB_URI: '', LOG_LEVEL: 'silent' },
    }).then(
      () => assert.fail('exit code 0'),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'resync needs --from origin (usage: npm run ops -- help)\n');
  });
});

/**
 * The bench's output: every line is printed as it is measured and kept, and the whole run is written as Markdown
 * to a results file (bench/results/latest.md by default) with the date, the machine (cores, load average at start
 * and end) and the settings, so a figure is never quoted without its baseline and conditions.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { LoadResult } from './http.js';
import { mainnetTxSample, type TxSample } from './mainnet-weight.js';

/** The checked-out commit (short hash; `+changes` when the tracked files differ from it), 'unknown' outside git. */
function headCommit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${hash}+changes` : hash;
  } catch {
    return 'unknown';
  }
}

export class Report {
  private readonly lines: string[] = [];
  private readonly startLoad = loadavg();
  private readonly started = new Date();
  /** The code measured: read when the run starts (its children load the tree as it is then). */
  private readonly commit = headCommit();

  constructor(
    readonly title: string,
    private readonly settings: Record<string, string | number>,
  ) {}

  /** Print and keep one or more lines (Markdown). */
  line(text = ''): void {
    console.log(text);
    this.lines.push(text);
  }

  /** Runs `f`, keeping what it prints with console.log (bench/mcp.ts prints its own rows). */
  async capture<T>(f: () => Promise<T>): Promise<T> {
    const log = console.log;
    console.log = (...args: unknown[]) => {
      log(...args);
      this.lines.push(...args.map(String).join(' ').split('\n'));
    };
    try {
      return await f();
    } finally {
      console.log = log;
    }
  }

  /** A table header: `| a | b |` and its rule. */
  header(...cols: string[]): void {
    this.line();
    this.line(`| ${cols.join(' | ')} |`);
    this.line(`|${cols.map(() => '---').join('|')}|`);
  }

  row(...cells: (string | number)[]): void {
    this.line(`| ${cells.join(' | ')} |`);
  }

  /** Writes the results file; returns its path. */
  write(path: string): string {
    const end = loadavg();
    const cpu = cpus();
    const now = headCommit();
    // Children started later in the run (an API per size or route table) loaded the tree as it was then.
    const commit = now === this.commit ? now : `${this.commit} (the tree changed to ${now} during the run)`;
    const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
    const head = [
      `# ${this.title}`,
      '',
      `- date: ${this.started.toISOString()} → ${new Date().toISOString()} (UTC)`,
      `- machine: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM, ` +
        `Node ${process.version}, ${process.platform}`,
      `- load average (1/5/15 min) at start ${la(this.startLoad)}, at end ${la(end)} — the machine is shared; ` +
        'ratios are measured side by side in the same run, absolute figures move with the load',
      `- commit: ${commit}`,
      `- settings: ${Object.entries(this.settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
      '',
    ];
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${[...head, ...this.lines].join('\n')}\n`);
    return path;
  }
}

export const fmt = {
  rps: (r: LoadResult) => String(Math.round(r.rps)),
  ratio: (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—'),
  kb: (bytes: number) =>
    bytes >= 1024 * 1024 ? `${(bytes / 2 ** 20).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`,
  mb: (n: number) => n.toFixed(0),
  /** `ok` or `MISS (x)`: whether a figure meets its budget. */
  budget: (ok: boolean, by = '') => (ok ? 'ok' : `**miss**${by ? ` (${by})` : ''}`),
  errors: (r: LoadResult) => r.non2xx + r.errors,
};

/** Blocks of mainnet DEX history to replay: from the Alonzo hard fork (Plutus, Sept 2021) to now, ~3.8 M. */
export const MAINNET_ALONZO_BLOCKS = 3_800_000;

/**
 * The replay projection, printed by every run that measures blocks/s: per block as measured, and, given the
 * transactions the run indexed, weighted by transactions per block against the recorded mainnet blocks.
 */
export function replayProjection(blocksPerSecond: number, devnet?: TxSample): string {
  const hours = (bps: number) => MAINNET_ALONZO_BLOCKS / bps / 3600;
  const when = (bps: number) => `**${hours(bps).toFixed(1)} h** (${(hours(bps) / 24).toFixed(1)} days)`;
  const perBlock =
    `projected mainnet replay from the Alonzo era (~${(MAINNET_ALONZO_BLOCKS / 1e6).toFixed(1)} M blocks) at ` +
    `${Math.round(blocksPerSecond)} blocks/s: ${when(blocksPerSecond)} if a mainnet block cost what a devnet block costs`;
  const mainnet = mainnetTxSample();
  if (!devnet?.txs || !devnet.blocks || !mainnet)
    return `${perBlock} (a lower bound: mainnet blocks carry more transactions)`;
  const devnetTxs = devnet.txs / devnet.blocks;
  const mainnetTxs = mainnet.txs / mainnet.blocks;
  const weight = mainnetTxs / devnetTxs;
  const byTxs =
    `${perBlock}; weighted by transactions, ${when(blocksPerSecond / weight)}: a mainnet block of the sample ` +
    `(${mainnet.blocks} recorded Alonzo-era-or-later mainnet blocks, fixtures/chain/ogmios/real) carries ` +
    `${mainnetTxs.toFixed(1)} transactions, a devnet block of this run ${devnetTxs.toFixed(1)} (${weight.toFixed(1)} ×)`;
  if (!devnet.bytes || !mainnet.bytes)
    return `${byTxs}; this assumes a mainnet transaction costs what a devnet transaction costs, and the sample is small`;
  // Block bytes: a mainnet transaction is larger than a devnet one (more inputs, outputs, assets, scripts).
  const devnetBytes = devnet.bytes / devnet.blocks;
  const mainnetBytes = mainnet.bytes / mainnet.blocks;
  const byteWeight = mainnetBytes / devnetBytes;
  return (
    `${byTxs}; weighted by block bytes, ${when(blocksPerSecond / byteWeight)}: ${fmt.kb(mainnetBytes)} per ` +
    `mainnet block of the sample against ${fmt.kb(devnetBytes)} (${byteWeight.toFixed(1)} ×). These assume a ` +
    'mainnet transaction (or byte) costs what a devnet one costs, and the sample is small'
  );
}

// Lint rules that keep the layering of ARCHITECTURE.md honest: imports flow one way, workflows stay sandbox-safe,
// and only mongo/adapters/ may touch the database engines.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'child_process',
  'worker_threads',
  'stream',
  'events',
  'util',
  'url',
  'zlib',
  'timers',
];
const engines = [
  { name: 'mongodb', message: 'Only mongo/adapters/ may import the MongoDB driver; use the Store port.' },
  { name: 'lmdb', message: 'Only mongo/adapters/ may import the embedded engine; use the Store port.' },
];

/** Import patterns of a top-level folder from anywhere below the root (`../x/…`, `../../x/…`). */
const UP = (folder) => [`../${folder}/**`, `../../${folder}/**`, `../../../${folder}/**`];
const FENCE_MESSAGE = 'Imports flow one way (ARCHITECTURE.md layout table): pass dependencies in instead.';
/** One no-restricted-imports rule for `files`: the engines and the listed folders are off limits. */
function fence(files, folders, paths, ignores = [], extra = []) {
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths, patterns: [...folders.map((group) => ({ group, message: FENCE_MESSAGE })), ...extra] },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-restricted-imports': ['error', { paths: engines }],
    },
  },
  {
    files: ['mongo/adapters/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...engines,
            ...[...nodeBuiltins, ...nodeBuiltins.map((m) => `node:${m}`)].map((name) => ({
              name,
              message: 'Workflows run in the Temporal sandbox: no Node built-ins. Put I/O in an activity.',
            })),
          ],
          patterns: [
            {
              group: [...UP('activities'), ...UP('mongo'), ...UP('api'), ...UP('temporal'), ...UP('devnet')],
              allowTypeImports: true,
              message: 'Workflows import only types from activities/.',
            },
          ],
        },
      ],
    },
  },
  // One flat config object per folder: a later block's no-restricted-imports replaces an earlier one's for the same
  // file, so each folder lists every fence it needs in exactly one block (check with `npx eslint --print-config`).
  fence(['activities/**/*.ts', 'devnet/**/*.ts'], [UP('api'), UP('temporal'), UP('workflows')], engines),
  fence(['mongo/**/*.ts'], [UP('api'), UP('temporal'), UP('workflows'), UP('activities'), UP('devnet')], engines, [
    'mongo/adapters/**',
  ]),
  fence(['api/**/*.ts'], [UP('activities'), UP('temporal'), UP('workflows'), UP('devnet')], engines),
  fence(
    ['views/**/*.ts'],
    [UP('activities'), UP('temporal'), UP('workflows'), UP('devnet'), UP('mongo'), UP('api')],
    engines,
  ),
  // cardano/ is the pure bottom layer: chain formats and math. It may name store document types, nothing at runtime.
  fence(
    ['cardano/**/*.ts'],
    [UP('activities'), UP('temporal'), UP('workflows'), UP('devnet'), UP('api')],
    engines,
    [],
    [{ group: UP('mongo'), allowTypeImports: true, message: 'cardano/ is pure: only types from mongo/.' }],
  ),
);

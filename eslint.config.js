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
          paths: [...nodeBuiltins, ...nodeBuiltins.map((m) => `node:${m}`)].map((name) => ({
            name,
            message: 'Workflows run in the Temporal sandbox: no Node built-ins. Put I/O in an activity.',
          })),
          patterns: [
            {
              group: ['../activities/*', '../mongo/*', '../api/*', '../temporal/*'],
              allowTypeImports: true,
              message: 'Workflows import only types from activities/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts', 'mongo/**/*.ts', 'views/**/*.ts', 'workflows/**/*.ts', 'devnet/**/*.ts'],
    ignores: ['mongo/adapters/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: engines,
          patterns: [
            {
              group: ['../api/*', '../../api/*', '../temporal/*', '../../temporal/*'],
              message: 'Nothing imports api/ or temporal/: pass dependencies in.',
            },
          ],
        },
      ],
    },
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Module boundaries: core/ is isomorphic and imports nothing from client/ or server/;
// the client never imports server code; only server/db and domain data.ts/mutations.ts
// (plus the job queue and test support) talk to the database.
const dbImport = {
  group: ['**/db/client', '**/db/schema', 'drizzle-orm', 'drizzle-orm/*'],
  allowTypeImports: true,
  message: 'Only server/db and domain data.ts/mutations.ts touch the database.',
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'server/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/server/**', 'node:*'], message: 'The client cannot import server code.' }],
        },
      ],
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'core/ is isomorphic: configuration comes in as arguments.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/**', '**/server/**', '@client/*'],
              message: 'core/ is isomorphic: no client or server imports.',
            },
            {
              group: ['node:*', 'fs', 'path', 'react', 'react-dom'],
              message: 'core/ has no Node or DOM dependencies.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: [
      'server/app.ts',
      'server/db/**',
      'server/domain/**/data.ts',
      'server/domain/**/mutations.ts',
      'server/jobs/queue.ts',
      // A provider that keeps its own table (the outbox mailer).
      'server/providers/mailer/outbox-store.ts',
      'server/test-support/**',
      'server/**/*.test.ts',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [dbImport] }] },
  },
  {
    // Arrows run one way: domain services use provider interfaces; providers use core/ and server
    // utilities, never the domain or the HTTP layer (docs/ARCHITECTURE.md, "Directions").
    files: ['server/providers/**/*.ts'],
    ignores: ['server/providers/**/*.test.ts', 'server/providers/mailer/outbox-store.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            dbImport,
            {
              group: ['**/domain/**', '**/http/**'],
              message: 'Providers depend on core/ and server utilities, never on domain/ or http/.',
            },
          ],
        },
      ],
    },
  },
);

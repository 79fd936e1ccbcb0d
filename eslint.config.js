import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

// Module boundaries: core/ is isomorphic and imports nothing from client/ or server/;
// the client never imports server code; only server/db and domain data.ts/mutations.ts
// (plus the job queue and test support) talk to the database.
// Every Node built-in, with and without the node: prefix (fs, os, crypto, child_process...).
// Bare names are exact paths: as patterns, 'constants' would also match './constants'.
const nodeOnly = 'core/ has no Node or DOM dependencies.';
const nodeBuiltinPaths = builtinModules.map((name) => ({ name, message: nodeOnly }));

// Arrows run one way: providers never reach up into the domain or the HTTP layer.
const upwardImport = {
  group: ['**/domain', '**/domain/**', '**/http', '**/http/**', '**/transcription/**', '**/voice/**'],
  message:
    'Providers depend on core/ and server utilities, never on domain/, http/ or the pipelines that use them.',
};

const dbImport = {
  group: ['**/db/client', '**/db/schema', 'drizzle-orm', 'drizzle-orm/*'],
  allowTypeImports: true,
  message: 'Only server/db and domain data.ts/mutations.ts touch the database.',
};

// The layers below the domain (docs/ARCHITECTURE.md, "Directions"), each barred from the ones above.
const notTestSupport = {
  group: ['**/test-support', '**/test-support/**'],
  message: 'Production code never imports test support.',
};
const aboveProviders = ['**/domain', '**/domain/**', '**/http', '**/http/**', '**/voice', '**/voice/**'];
const aboveTranscription = {
  group: aboveProviders,
  message: 'server/transcription is used by the domain, never the other way.',
};
const aboveAudio = {
  group: [...aboveProviders, '**/providers/**', '**/transcription/**', '**/workers/**'],
  message:
    'server/audio is signal utilities beneath the engines: it imports no engine, runner or layer above.',
};
const aboveWorkers = {
  group: [...aboveProviders, '**/providers/**', '**/transcription/**', '**/pdf/**'],
  message: 'server/workers is the runner beneath whatever runs on it: each user owns its worker file.',
};
const aboveObservability = {
  group: aboveProviders,
  message: 'server/observability records what happens; the routes that serve it live in server/http.',
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
      // Not process.env, nor process or Buffer in any other form: core/ runs in the browser too.
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'core/ is isomorphic: configuration comes in as arguments.' },
        { name: 'Buffer', message: 'core/ is isomorphic: use Uint8Array.' },
        { name: '__dirname', message: 'core/ is isomorphic: no file paths.' },
        { name: '__filename', message: 'core/ is isomorphic: no file paths.' },
      ],
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
              group: ['node:*', 'react', 'react-dom'],
              message: nodeOnly,
            },
          ],
          paths: nodeBuiltinPaths,
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
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [dbImport, notTestSupport] }],
    },
  },
  ...[
    ['server/transcription/**/*.ts', aboveTranscription],
    ['server/audio/**/*.ts', aboveAudio],
    ['server/workers/**/*.ts', aboveWorkers],
    ['server/observability/**/*.ts', aboveObservability],
  ].map(([files, upward]) => ({
    files: [files],
    ignores: ['server/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [dbImport, notTestSupport, upward] }],
    },
  })),
  {
    // Arrows run one way: domain services use provider interfaces; providers use core/ and server
    // utilities, never the domain or the HTTP layer (docs/ARCHITECTURE.md, "Directions").
    files: ['server/providers/**/*.ts'],
    ignores: ['server/providers/**/*.test.ts', 'server/providers/mailer/outbox-store.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [dbImport, notTestSupport, upwardImport],
        },
      ],
    },
  },
  {
    // The outbox store may touch its own table, but it is a provider all the same.
    files: ['server/providers/mailer/outbox-store.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [upwardImport] }] },
  },
  // One reading of conversation text: the homeowner and the coach read through server/understanding/
  // (docs/ARCHITECTURE.md, "The shared reading") and hold no pattern of their own.
  ...[
    [
      'server/providers/brain',
      'The homeowner reads text through server/understanding/, not its own patterns.',
    ],
    ['server/providers/coach', 'The coach reads text through server/understanding/, not its own patterns.'],
  ].map(([dir, message]) => ({
    files: [`${dir}/**/*.ts`],
    ignores: [`${dir}/**/*.test.ts`],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[regex]', message },
        {
          selector: "NewExpression[callee.name='RegExp'], CallExpression[callee.name='RegExp']",
          message,
        },
      ],
    },
  })),
);

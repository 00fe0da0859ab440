// Lint: eslint's recommended rules plus typescript-eslint's, on every source folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.tools/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // labld's own code fetches through the undici it pins, never Node's global fetch: that is
    // Node's bundled undici (24.x bundles 7.x, with the paused-parser crash of nodejs/undici#5360).
    // Tests and benches are clients of labld and may use any fetch.
    files: ['lib/**', 'gateways/**/*.ts', 'consumers/**', 'app/**', 'bin/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'fetch',
          message: "import { fetch } from 'undici' (pinned), or guardedFetch for a client's URL",
        },
      ],
    },
  },
  {
    // The catalogue's scripts run in the browser, not in Node.
    files: ['gateways/catalogue/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', XMLHttpRequest: 'readonly', FormData: 'readonly' },
    },
  },
);

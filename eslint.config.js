import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist-alt', 'data', 'node_modules', 'coverage', 'test-results', 'server/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Layering: the database layer (connection, schema, migrations) knows no domain module, and the
  // contract shared by the SPA and the API depends on neither of them.
  {
    files: ['server/db/**/*.{ts,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.{1,2}/(.*/)?modules(/|$)', message: 'server/db/ must not import server/modules/: move what it needs to server/lib/.' }] },
      ],
    },
  },
  {
    files: ['contract/**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(server|src)(/|$)', message: 'contract/ is shared by the SPA and the API: it must not import server/ or src/.' }] },
      ],
    },
  },
  // The layout (shell) knows no resource: their screens and API clients belong to the resources,
  // and the shell reads the modules through src/modules.ts (only the module's shape is allowed).
  {
    files: ['src/layout/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+resources/(?!module$)',
              message: 'src/layout/ must not import a resource (its screens, its API): read the modules through src/modules.ts.',
            },
          ],
        },
      ],
    },
  },
  // No browser dialog: a question is the product's own dialog (src/components/useConfirm.tsx), and a
  // change that can be undone is undone from its toast («Скасувати»), not asked about first.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['confirm', 'alert'].map((name) => ({ name, message: "Use the product's dialog (useConfirm) or an undoable toast." })),
      ],
      'no-restricted-properties': [
        'error',
        ...['confirm', 'alert'].map((property) => ({ object: 'window', property, message: "Use the product's dialog (useConfirm) or an undoable toast." })),
      ],
    },
  },
  // Prettier wraps code at 160 columns but leaves long strings, template literals, comments and
  // regexes alone: this keeps them within the same width (deprecated in core ESLint, still working).
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'max-len': ['error', { code: 160, ignoreUrls: true }],
    },
  },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
);

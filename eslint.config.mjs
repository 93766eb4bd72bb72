import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Module boundaries. A module is a folder holding a `*.module.ts`: a feature under src/modules, or
// a module nested in one (agents/knowledge-bases). Inside its folder a module imports its own files
// by relative path; any other module is imported as `@/modules/...`, and only from its public
// surface: the `*.module`, `*.service` and `*.decorator` files at its root, and its `dto/` and
// `entities/`. Platform code (common, database, config) never imports a module.
const MODULES = join(import.meta.dirname, 'src/modules');
const moduleDirs = [
  ...new Set(
    readdirSync(MODULES, { recursive: true })
      .map((file) => file.split('\\').join('/'))
      .filter((file) => file.endsWith('.module.ts'))
      .map((file) => dirname(file)),
  ),
];
const MAX_DEPTH = 6;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = (paths) => `(?:${paths.map(escape).join('|')})`;

const notPublic = {
  regex: `^@/modules/(?!${alternatives(moduleDirs)}/(?:[\\w-]+\\.(?:module|service|decorator)|dto/[\\w.-]+|entities/[\\w.-]+)$)`,
  message:
    "Another module's internals: import its root *.module, *.service or *.decorator, or its dto/ or entities/.",
};

/** The modules nested in `dir` (not those nested in them), relative to it. */
function nestedIn(dir) {
  const inside = moduleDirs.filter((other) => other.startsWith(`${dir}/`));
  return inside
    .filter((other) => !inside.some((outer) => other.startsWith(`${outer}/`)))
    .map((other) => other.slice(dir.length + 1));
}

/** For the files `depth` folders below a module's folder: relative imports stay inside it. */
function boundaryOf(dir, depth) {
  const nested = nestedIn(dir);
  const up = depth === 0 ? '\\./' : `(?:\\.\\./){${depth}}`;
  return {
    files: [`src/modules/${dir}/${'*/'.repeat(depth)}*.ts`],
    ignores: nested.map((inner) => `src/modules/${dir}/${inner}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notPublic,
            {
              regex: `^(?:\\.\\./){${depth + 1}}`,
              message: 'Outside this module: import it as @/modules/..., from its public surface.',
            },
            ...(nested.length > 0
              ? [
                  {
                    regex: `^${up}${alternatives(nested)}/`,
                    message:
                      'A nested module: import it as @/modules/..., from its public surface.',
                  },
                ]
              : []),
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'data/', 'node_modules/', 'eslint.config.mjs', 'jest.config.js'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['src/common/**/*.ts', 'src/database/**/*.ts', 'src/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?:@/|(?:\\.\\./)+)modules(?:/|$)',
              message: 'Platform code does not depend on the features: move what is shared here.',
            },
          ],
        },
      ],
    },
  },
  ...moduleDirs.flatMap((dir) =>
    Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => boundaryOf(dir, depth)),
  ),
);

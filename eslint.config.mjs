import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Module boundaries. A module is a folder of src/modules holding a `*.module.ts`. Inside its
// folder a module imports its own files by relative path; any other module is imported as
// `@/modules/...`, only from its public surface (the `*.module`, `*.service` and `*.decorator`
// files at its root, its `<module>.public` file of what else it offers others, and its `dto/`:
// its `entities/` are its own), and only from a lower floor.
// Platform code (config, database, common) never imports a module.
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

/** A module's `<name>.public` file, named after its folder: `integrations/integrations.public`. */
const publicFiles = moduleDirs.map((dir) => `${dir}/${dir.split('/').pop()}.public`);

const notPublic = {
  regex: `^@/modules/(?!${alternatives(moduleDirs)}/(?:[\\w-]+\\.(?:module|service|decorator)|dto/[\\w.-]+|entities/[\\w.-]+)$|${alternatives(publicFiles)}$)`,
  message:
    "Another module's internals: import its root *.module, *.service, *.decorator or <module>.public, or its dto/.",
};

/** Another module's records may be named as types; their tables are that module's to query. */
const entitiesPrivate = {
  regex: '^@/modules/[\\w-]+/entities/',
  allowTypeImports: true,
  message: "Another module's entities are its own: `import type` their shape, or ask its service.",
};

// The floors of the modules, bottom to top: a module imports only modules on the floors below its
// own, so no two modules can import each other, directly or around a circle.
const FLOORS = [
  ['auth', 'health'],
  ['model-settings'],
  ['webhooks', 'workflows', 'calls'],
  ['agents'],
  ['usage'],
  ['knowledge', 'integrations', 'conversations', 'phone-numbers'],
  ['agent-profile', 'replies', 'widget', 'channels'],
];
const floorOf = (dir) => FLOORS.findIndex((floor) => floor.includes(dir.split('/')[0]));
const unplaced = moduleDirs.filter((dir) => floorOf(dir) < 0);
if (unplaced.length > 0) {
  throw new Error(`eslint.config.mjs: place ${unplaced.join(', ')} on a floor of FLOORS`);
}

/** Modules on `dir`'s floor or above it (itself aside): it must not import them. */
function notBelow(dir) {
  const own = floorOf(dir);
  const above = FLOORS.slice(own)
    .flat()
    .filter((other) => other !== dir);
  return {
    regex: `^@/modules/${alternatives(above)}(?:/|$)`,
    message: `Not on a floor below ${dir}'s (FLOORS in eslint.config.mjs): depend downwards only.`,
  };
}

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
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['forwardRef'],
              message: 'No forwardRef: a circle between providers means a floor is wrong.',
            },
          ],
          patterns: [
            notPublic,
            entitiesPrivate,
            notBelow(dir),
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
  {
    ignores: [
      'dist/',
      'coverage/',
      'data/',
      'node_modules/',
      'eslint.config.mjs',
      'jest.config.js',
    ],
  },
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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
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

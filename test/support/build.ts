import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Options, transformFileSync } from '@swc/core';
import { buildWidgetIfStale } from '../../scripts/build-widget';

const ROOT = join(__dirname, '..', '..');
const SOURCES = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const BUILT_ENTRY = join(DIST, 'main.js');

/** What `nest build` compiles: every source file but the unit specs. */
function sourceFiles(directory = SOURCES): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** As tsc compiles them (tsconfig.json): legacy decorators with metadata, `@/` made relative. */
const SWC_OPTIONS: Options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
    baseUrl: ROOT,
    paths: { '@/*': ['src/*'] },
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
  swcrc: false,
};

/**
 * Builds dist/ from src/ for the suites that run the built application and CLI as their own
 * processes, unless it is newer than every source file (as `npm run build` leaves it), and
 * dist/widget/widget.js (served as `GET /widget.js`) unless it is newer than widget/src. swc
 * compiles without type checking (`npm run typecheck` does that) in about a second, where
 * `nest build` takes tens.
 */
export function buildDistIfStale(): void {
  buildServerIfStale();
  buildWidgetIfStale();
}

function buildServerIfStale(): void {
  const files = sourceFiles();
  const builtAt = (() => {
    try {
      return statSync(BUILT_ENTRY).mtimeMs;
    } catch {
      return 0;
    }
  })();
  if (files.every((file) => statSync(file).mtimeMs < builtAt)) {
    return;
  }
  rmSync(DIST, { recursive: true, force: true });
  // The entry last: a build cut short leaves no dist/main.js to pass for a whole one.
  const entrySource = join(SOURCES, 'main.ts');
  const ordered = [...files.filter((file) => file !== entrySource), entrySource];
  for (const file of ordered) {
    const target = join(DIST, relative(SOURCES, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, transformFileSync(file, SWC_OPTIONS).code);
  }
}

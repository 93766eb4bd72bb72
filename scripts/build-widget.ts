import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..');
const SOURCES = join(ROOT, 'widget', 'src');

/** Where the build leaves widget.js: what the server answers `GET /widget.js` with. */
export const WIDGET_BUNDLE = join(ROOT, 'dist', 'widget', 'widget.js');

/** docs/api.md §7a: widget.js is under 40 KB gzipped. */
export const MAX_GZIPPED_BYTES = 40 * 1024;

export interface WidgetBuild {
  path: string;
  bytes: number;
  gzippedBytes: number;
}

function widgetSources(): string[] {
  return readdirSync(SOURCES)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))
    .map((name) => join(SOURCES, name));
}

/**
 * Bundles widget/src/main.ts into one minified IIFE for browsers, and fails when it is over the
 * size the contract allows.
 */
export function buildWidget(outfile = WIDGET_BUNDLE): WidgetBuild {
  buildSync({
    entryPoints: [join(SOURCES, 'main.ts')],
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    tsconfig: join(ROOT, 'widget', 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'warning',
  });
  const code = readFileSync(outfile);
  const size = { path: outfile, bytes: code.length, gzippedBytes: gzipSync(code).length };
  if (size.gzippedBytes > MAX_GZIPPED_BYTES) {
    throw new Error(
      `widget.js is ${size.gzippedBytes} bytes gzipped, over the ${MAX_GZIPPED_BYTES} allowed`,
    );
  }
  return size;
}

/** Builds widget.js unless it is newer than every widget source (the test setup calls this). */
export function buildWidgetIfStale(outfile = WIDGET_BUNDLE): void {
  const builtAt = (() => {
    try {
      return statSync(outfile).mtimeMs;
    } catch {
      return 0;
    }
  })();
  if (widgetSources().some((file) => statSync(file).mtimeMs >= builtAt)) {
    buildWidget(outfile);
  }
}

if (require.main === module) {
  const built = buildWidget();
  console.log(`${built.path}: ${built.bytes} bytes, ${built.gzippedBytes} gzipped`);
}

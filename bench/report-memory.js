/* global require, process, global */
'use strict';
// Preloaded into the server under test (NODE_OPTIONS=--require …): on SIGUSR2 it writes the
// server's own process.memoryUsage(), after a full collection, to $BENCH_MEMORY_FILE.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renameSync, writeFileSync } = require('node:fs');

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    if (typeof global.gc === 'function') {
      global.gc();
    }
    // Written aside then renamed, so the suite never reads a half-written file.
    writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.tmp`, file);
  });
}

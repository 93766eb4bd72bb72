import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/** Debian's chromium package; CHROMIUM_PATH points elsewhere when needed. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Headless Chromium from the system, driven by playwright-core (which never downloads a browser).
 * A missing browser fails the test: browser tests are not optional where they are run.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. Install Debian's package first: ` +
        '`apt-get update && apt-get install -y chromium` (.ci/run does), ' +
        'or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 20_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

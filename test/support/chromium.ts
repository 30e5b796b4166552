import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, for the browser tests (part of the default suite; CI installs it, .ci/run).
 * Without it the test fails on purpose, saying how to install it. Background traffic is off, so a test that
 * watches every request sees only the page's own.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (.ci/run does).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Records what a page does that a test checks: every URL it requests, and its problems (uncaught errors and
 * console errors, where CSP and Trusted Types violations are reported). Failed loads are left to the test,
 * which checks statuses itself.
 */
export function watchPage(page: Page): { requests: string[]; problems: string[] } {
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  return { requests, problems };
}

import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { startTestService } from './service.ts';
import type { TestService } from './service.ts';

/** What a browser test runs against: the service, a sandbox key and Chromium; `stop` ends both. */
export interface BrowserTest {
  service: TestService;
  key: string;
  browser: Browser;
  stop(): Promise<void>;
}

/** The whole service over sandbox databases without generated records, holding only what `seed` writes. */
export async function startBrowserTest(seed: (service: TestService) => Promise<unknown>): Promise<BrowserTest> {
  const service = await startTestService({ sandboxScale: 0 });
  try {
    const { key } = await service.createKey({ mode: 'sandbox' });
    await seed(service);
    const browser = await launchChromium();
    const stop = async () => {
      await browser.close();
      await service.stop();
    };
    return { service, key, browser, stop };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

/**
 * Debian's Chromium driven by `playwright-core` for the dashboard's browser tests: one browser
 * per test file, a fresh page per test, axe-core run inside the page, screenshots saved as test
 * artifacts. Playwright cannot download its own browsers here, so it is pointed at the system
 * executable (`CHROMIUM_PATH`, default `/usr/bin/chromium`, installed by `.ci/run`).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { REPO_ROOT } from '../../apps/support/worker-process.js';

/** Where the screenshots of each view go (git-ignored; copies live in `docs/dashboard/`). */
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'dashboard');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags the machine needs: no sandbox as root, no background traffic to a closed network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserFixture {
  /** A new page (laptop-sized viewport) that records page errors and CSP violations. */
  newPage(): Promise<DashboardPage>;
}

export interface DashboardPage {
  readonly page: Page;
  /** Uncaught errors and console errors the page reported (not the browser's notes on HTTP errors). */
  readonly errors: string[];
}

export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH))
      throw new Error(
        `No Chromium at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` (.ci/run does) or set CHROMIUM_PATH.`,
      );
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 60_000 });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async newPage() {
      if (!browser) throw new Error('useBrowser() is ready inside tests only');
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        // The browser logs every non-2xx answer itself; the app shows those (a 401, a 503 under
        // load) in the page. What counts here is the app's own errors.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
          errors.push(`console: ${message.text()}`);
      });
      return { page, errors };
    },
  };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A violation axe-core reports. */
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core in the page (evaluated through DevTools, so the page's CSP, which forbids
 * inline scripts, stays as it is) and fails on any serious or critical violation.
 */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // Runs in the page (this file has no DOM types).
    const page = globalThis as unknown as {
      axe: { run(context: unknown, options: object): Promise<{ violations: AxeViolation[] }> };
      document: unknown;
    };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
  const serious = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(serious, `axe-core on the ${view} view: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/** Saves a full-page screenshot as `test-artifacts/dashboard/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Signs in through the login form with `token` and waits for the runs view. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/ui/`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Runs' }).waitFor();
}

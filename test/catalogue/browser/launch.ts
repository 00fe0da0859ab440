// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot work
// here). A browser that does not start throws: the browser suite fails, it never skips.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'labld-chromium-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return {
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login form, as a person does; on the dataset list after. */
/** Console errors and uncaught page errors of `page`, gathered into `problems` (the tests assert none). */
export function collectProblems(page: Page, problems: string[]): void {
  // With where it happened: a failure in CI is read from its log alone.
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${m.text()} (${m.location().url || page.url()})`);
  });
  page.on('pageerror', (e) => problems.push(`${e.message} (on ${page.url()})`));
}

export async function signIn(page: Page, base: string, name: string, password: string): Promise<void> {
  await page.goto(`${base}/user/login`);
  await page.getByLabel('User name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/`);
}

/** Clicks the link `link` in the list labelled `list` (a step of the query page's sentence builder). */
export async function choose(page: Page, list: string, link: string): Promise<void> {
  await page.getByRole('list', { name: list }).getByRole('link', { name: link, exact: true }).click();
}

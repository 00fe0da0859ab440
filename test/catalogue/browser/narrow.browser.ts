// Every main page holds at a phone's width (issue 28: at 390 px the dataset page was 608 px
// wide): in Chromium at 390 px, signed in, each page's document is no wider than the window,
// and the widest element is named when one is not. Screenshots at 390 and 1280 px, of these
// pages and of the resource page of each real machine export (../shared/fixtures/real-exports).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSeededLabld, type SeededLabld } from '../support/seed.ts';
import { SCREENSHOTS, launchChromium, signIn, type Browser } from './launch.ts';
import { api } from '../actions/support.ts';
import { sharedDir } from '../../support/shared.ts';
import { sleep } from '../../support/wait.ts';

const PASSWORD = 'ada has a long password';
const NARROW = 390;
const REAL = `${sharedDir}fixtures/real-exports/`;
let catalogue: SeededLabld;
let browser: Browser;

/** The pages a person reads most, by a short name for the screenshots. */
function pages(): [string, string][] {
  const run = `/dataset/plate-reader-01/resource/${catalogue.runId}`;
  return [
    ['list', '/dataset'],
    ['dataset', '/dataset/plate-reader-01'],
    ['resource', run],
    ['resource-sorted', `${run}?sort=temperature&order=desc`],
    ['upload', '/dataset/plate-reader-01/upload'],
    ['edit', '/dataset/plate-reader-01/edit'],
    ['resource-edit', `${run}/edit`],
    ['new-dataset', '/dataset/new'],
    ['query', '/dataset/plate-reader-01/query'],
    ['tokens', '/user/tokens'],
    ['group', '/group/mappings'],
  ];
}

/** The document's width, and the elements that reach beyond the window (the outermost few). */
async function widths(): Promise<{ width: number; wide: string[] }> {
  return (await browser.page.evaluate(`(() => {
    const limit = ${NARROW} + 0.5;
    const wide = [];
    for (const element of document.querySelectorAll('body *')) {
      if (element.getBoundingClientRect().right <= limit) continue;
      const parent = element.parentElement;
      if (parent && parent.getBoundingClientRect().right > limit) continue;
      wide.push(element.tagName.toLowerCase() + '.' + element.className + ' (' + Math.round(element.getBoundingClientRect().right) + ' px)');
    }
    return { width: document.documentElement.scrollWidth, wide: wide.slice(0, 5) };
  })()`)) as { width: number; wide: string[] };
}

/** Screenshots of `path` at 1280 and 390 px; at 390, what reaches beyond the window, if anything. */
async function shoot(name: string, path: string): Promise<string | undefined> {
  const { page } = browser;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${catalogue.url}${path}`);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: NARROW, height: 844 });
  await page.goto(`${catalogue.url}${path}`);
  await page.waitForLoadState('load');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-390.png`), fullPage: true });
  const { width, wide } = await widths();
  return width > NARROW ? `${name} (${path}): ${width} px wide; ${wide.join(', ')}` : undefined;
}

/** Uploads a real export as ada and waits until its import is done or failed; its id. */
async function uploadReal(file: string): Promise<string> {
  const headers = { authorization: catalogue.tokens['ada']! };
  const form = new FormData();
  form.set('package_id', 'plate-reader-01');
  // `.dat` does not start the chain by its extension; its format says what it is.
  if (file.endsWith('.dat')) form.set('format', 'TSV');
  form.set('upload', new Blob([readFileSync(REAL + file)]), file);
  const made = await api(catalogue.url, 'resource_create', { form, headers });
  assert.equal(made.status, 200, `${file}: ${JSON.stringify(made.body)}`);
  const id = made.body.result.id as string;
  const until = Date.now() + 180_000;
  for (;;) {
    const status = await api(catalogue.url, 'labld_status_show', { body: { resource_id: id }, headers });
    const steps = (status.body.result?.resources ?? []).find(
      (r: { resource_id: string }) => r.resource_id === id,
    )?.steps as { step: string; state: string }[] | undefined;
    const settled = (step: string) =>
      ['done', 'failed'].includes(steps?.find((s) => s.step === step)?.state ?? '');
    if (settled('import') || steps?.find((s) => s.step === 'annotate')?.state === 'failed') return id;
    if (Date.now() > until) throw new Error(`${file}: import did not settle: ${JSON.stringify(steps)}`);
    await sleep(200);
  }
}

describe('the pages at 390 px', () => {
  before(async () => {
    catalogue = await startSeededLabld({ users: { ada: PASSWORD } });
    browser = await launchChromium();
    await signIn(browser.page, catalogue.url, 'ada', PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await catalogue?.stop();
  });

  test('no page is wider than the window', async () => {
    const overflowing: string[] = [];
    for (const [name, path] of pages()) {
      const wide = await shoot(`narrow-${name}`, path);
      if (wide) overflowing.push(wide);
    }
    assert.deepEqual(overflowing, []);
  });

  test('the resource page of each real machine export holds at 390 px (Japanese headers, wide tables)', async () => {
    const files = readdirSync(REAL, { withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && entry.name !== 'README.md')
      .map((entry) => entry.name);
    assert.equal(files.length, 12);
    const overflowing: string[] = [];
    for (const file of files) {
      const id = await uploadReal(file);
      const slug = file.replace(/[^\w.-]+/g, '_');
      const wide = await shoot(`real-${slug}`, `/dataset/plate-reader-01/resource/${id}`);
      if (wide) overflowing.push(wide);
    }
    assert.deepEqual(overflowing, []);
  });
});

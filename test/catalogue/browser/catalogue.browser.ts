// The catalogue's pages in a real Chromium on a whole labld, seeded through the store and the
// Action API (test/catalogue/support/seed.ts), signed in as ada: list, search, dataset, table
// preview (sort, filter, page), upload with its progress bar, keyboard-only use.
// Screenshots of each page go to test/catalogue/browser/screenshots/ (CI artefacts, not committed).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { api } from '../actions/support.ts';
import { csrfOf, getPage, logIn } from '../support/login.ts';
import {
  CALORIMETRY_RUNS,
  PLATE_READER_RUNS,
  RUN_ROWS,
  seededDatasets,
  startSeededLabld,
  type SeededLabld,
} from '../support/seed.ts';
import { SCREENSHOTS, launchChromium, collectProblems, signIn, type Browser } from './launch.ts';

const PASSWORD = 'ada has a long password';
const DATASETS = PLATE_READER_RUNS + CALORIMETRY_RUNS;
let catalogue: SeededLabld;
let browser: Browser;
/** Console errors and CSP violations seen on any page: there must be none. */
const problems: string[] = [];

async function shot(name: string): Promise<void> {
  await browser.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function column(index: number): Promise<string[]> {
  return browser.page.locator(`#preview tbody tr td:nth-child(${index})`).allInnerTexts();
}

async function caption(): Promise<string> {
  return browser.page.locator('#preview caption').innerText();
}

describe('catalogue pages in Chromium', () => {
  before(async () => {
    catalogue = await startSeededLabld({ users: { ada: PASSWORD } });
    browser = await launchChromium();
    collectProblems(browser.page, problems);
    await signIn(browser.page, catalogue.url, 'ada', PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await catalogue?.stop();
  });

  test('the dataset list pages through every dataset', async () => {
    const { page } = browser;
    await page.goto(`${catalogue.url}/`);
    assert.equal(await page.locator('h1').innerText(), 'Datasets');
    assert.equal(await page.locator('.count').innerText(), `${DATASETS} datasets`);
    assert.equal(await page.locator('.dataset-item').count(), 20);
    await shot('dataset-list');
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/page=2/);
    assert.equal(await page.locator('.pager span').innerText(), 'Page 2 of 3');
  });

  test('search narrows the list', async () => {
    const { page } = browser;
    await page.getByLabel('Search datasets').fill('plate');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=plate/);
    const titles: string[] = await page.locator('.dataset-item h2').allInnerTexts();
    assert.equal(titles.length, PLATE_READER_RUNS);
    for (const title of titles) assert.match(title, /Plate reader/);
    await shot('search');
  });

  test('a dataset shows its resources and who made each', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Plate reader run 1', exact: true }).click();
    await page.waitForURL(/\/dataset\/plate-reader-01$/);
    const rows: string[] = await page.locator('table.data tbody tr').allInnerTexts();
    assert.match(rows[0]!, /plate-run\.csv\s+CSV\s+.*uploaded by ada/);
    // The automation chain's descriptor of the upload (waited for by the seed), and who made it.
    assert.ok(
      rows.some((row) => /plate-run-metadata\.jsonld[\s\S]*made by step annotate/.test(row)),
      rows.join('\n'),
    );
    const href = await page.getByRole('link', { name: 'Download plate-run.csv' }).getAttribute('href');
    assert.equal(href, `/dataset/plate-reader-01/resource/${catalogue.runId}/download`);
    const download = await page.request.get(`${catalogue.url}${href}`);
    assert.equal(download.status(), 200);
    assert.match(await download.text(), /^sample,temperature,yield,operator\n/);
    await shot('dataset');
  });

  test('the table preview sorts numerically, both ways', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'plate-run.csv', exact: true }).click();
    await page.waitForURL(new RegExp(`resource/${catalogue.runId}$`));
    assert.equal(await caption(), `Rows 1–25 of ${RUN_ROWS}`);
    await page.locator('#preview thead a', { hasText: 'temperature' }).click();
    await page.waitForURL(/sort=temperature&order=asc/);
    const ascending = (await column(2)).map(Number);
    assert.equal(ascending.length, 25);
    assert.deepEqual(
      ascending,
      [...ascending].sort((a, b) => a - b),
    );
    // As text, 10 would come before 2: the values span both, so the check above is numeric.
    assert.ok(ascending.some((v) => v < 10) && ascending.some((v) => v >= 10));
    assert.match(await page.locator('th[aria-sort="ascending"]').innerText(), /^temperature ▲/);
    await page.locator('#preview thead a', { hasText: 'temperature' }).click();
    await page.waitForURL(/order=desc/);
    const descending = (await column(2)).map(Number);
    assert.deepEqual(
      descending,
      [...descending].sort((a, b) => b - a),
    );
    assert.ok(descending[0]! > ascending[24]!);
    await shot('table-preview');
  });

  test('a column filter keeps the sort; paging keeps both', async () => {
    const { page } = browser;
    await page.getByLabel('Filter operator').fill('grace');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/f\.operator=grace/);
    assert.match(page.url(), /sort=temperature&order=desc/);
    assert.equal(await caption(), 'Rows 1–15 of 15');
    assert.deepEqual(new Set(await column(4)), new Set(['grace']));
    await shot('table-filtered');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL((url) => !url.search.includes('f.operator'));
    await page.getByRole('navigation', { name: 'Table pages' }).getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/page=2/);
    assert.equal(await caption(), `Rows 26–${RUN_ROWS} of ${RUN_ROWS}`);
    assert.match(page.url(), /sort=temperature&order=desc/);
    const second = (await column(2)).map(Number);
    assert.deepEqual(
      second,
      [...second].sort((a, b) => b - a),
    );
  });

  test('an upload shows its progress up to 100%', async () => {
    const { page } = browser;
    await page.goto(`${catalogue.url}/dataset/plate-reader-01/upload`);
    const line = 'S-001,21.5,3.2,ada\n';
    const bytes = Buffer.from('sample,temperature,yield,operator\n' + line.repeat(200_000));
    await page
      .getByLabel(/^File/)
      .setInputFiles({ name: 'big-run.csv', mimeType: 'text/csv', buffer: bytes });
    // Every value the bar takes, from the page itself.
    await page.evaluate(`{
      const bar = document.getElementById('upload-progress');
      window.seen = [];
      new MutationObserver(() => window.seen.push(bar.value)).observe(bar, { attributes: true, childList: true });
    }`);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('#upload-status', { hasText: 'Upload complete.' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.evaluate(`document.getElementById('upload-progress').value`), 100);
    const seen: number[] = await page.evaluate('window.seen');
    assert.equal(seen.at(-1), 100);
    const stored = await api(catalogue.url, 'package_show', { query: { id: 'plate-reader-01' } });
    const big = (stored.body.result.resources as { name: string; size: number }[]).filter(
      (r) => r.name === 'big-run.csv',
    );
    assert.deepEqual(
      big.map((r) => r.size),
      [bytes.length],
    );
    await shot('upload');
    await page.getByRole('link', { name: 'Open the new resource' }).click();
    assert.equal(await page.locator('h1').innerText(), 'big-run.csv');
  });

  test('without JavaScript the upload form posts and redirects', async () => {
    const { jar } = await logIn(catalogue.url, 'ada', PASSWORD);
    const upload = await getPage(`${catalogue.url}/dataset/plate-reader-01/upload`, jar);
    const form = new FormData();
    form.set('_csrf', csrfOf(upload.html));
    form.set('file', new Blob(['a,b\n1,2\n']), 'small.csv');
    const response = await fetch(`${catalogue.url}/dataset/plate-reader-01/upload`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: jar.header(), origin: catalogue.url },
    });
    assert.equal(response.status, 303);
    assert.match(response.headers.get('location')!, /^\/dataset\/plate-reader-01\/resource\/[0-9a-f-]{36}$/);
  });

  test('the keyboard alone reaches the main controls', async () => {
    const { page } = browser;
    await page.goto(`${catalogue.url}/dataset`);
    const reached: string[] = [];
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(`{
          const el = document.activeElement;
          el.tagName.toLowerCase() + ':' + ((el.getAttribute('aria-label') ?? el.innerText ?? '').trim() || el.id);
        }`),
      );
    }
    assert.equal(reached[0], 'a:Skip to content');
    for (const control of [
      'a:labld',
      'a:Datasets',
      'a:Mappings',
      'a:API tokens',
      'button:Log out',
      'input:q',
      'button:Search',
      // The newest dataset heads the list.
      `a:${seededDatasets().at(-1)!.title}`,
    ]) {
      assert.ok(reached.includes(control), `${control} not reached by Tab: ${reached.join(' | ')}`);
    }
    // The skip link moves focus past the header: to main's first control (a signed-in user's
    // "New dataset"), then the search field.
    await page.goto(`${catalogue.url}/dataset`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(`document.activeElement.closest('main')?.id`), 'main');
    assert.equal(await page.evaluate('document.activeElement.innerText'), 'New dataset');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.id'), 'q');
    // Focus is visible: the focused control has an outline.
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    assert.equal(outline, 'solid');
  });

  test('group, login and token pages render and their inputs have labels', async () => {
    const { page } = browser;
    for (const [path, name] of [
      ['/group/mappings', 'group-mappings'],
      ['/user/login', 'login'],
      ['/user/tokens', 'tokens'],
    ] as const) {
      await page.goto(`${catalogue.url}${path}`);
      const unlabelled: string[] = await page.evaluate(
        `[...document.querySelectorAll('input:not([type=hidden])')].filter((i) => i.labels.length === 0).map((i) => i.outerHTML)`,
      );
      assert.deepEqual(unlabelled, [], path);
      await shot(name);
    }
    assert.match(await page.locator('h1').innerText(), /API tokens/);
  });

  test('no page logged an error or a Content-Security-Policy violation', () => {
    assert.deepEqual(problems, []);
  });

  // After the check above: the browser logs the 404 of the page itself as a console error.
  test('a dataset that does not exist is a page saying so', async () => {
    const { page } = browser;
    const response = await page.goto(`${catalogue.url}/dataset/no-such-dataset`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.locator('h1').innerText(), 'Not found');
    assert.match(await page.locator('.error').innerText(), /dataset not found: no-such-dataset/);
    await shot('not-found');
  });
});

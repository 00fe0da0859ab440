// The edit verbs in Chromium, as a person uses them (issue 28, item 6): ada edits her dataset's
// title and tags, replaces the uploaded CSV with a longer run (the chain imports it again), and
// deletes it. Screenshots of each page at 1280 px.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RUN_ROWS, runCsv, startSeededLabld, type SeededLabld } from '../support/seed.ts';
import { SCREENSHOTS, launchChromium, collectProblems, signIn, type Browser } from './launch.ts';

const PASSWORD = 'ada has a long password';
let catalogue: SeededLabld;
let browser: Browser;
const problems: string[] = [];

const shot = (name: string) =>
  browser.page.screenshot({ path: join(SCREENSHOTS, `verbs-${name}.png`), fullPage: true });

describe('edit, replace, delete in Chromium', () => {
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

  test('ada edits the dataset, replaces its CSV and deletes it', async () => {
    const { page } = browser;
    const dataset = `${catalogue.url}/dataset/plate-reader-01`;
    await page.goto(dataset);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(`${dataset}/edit`);
    await shot('dataset-edit');
    await page.getByLabel('Title').fill('Plate reader run 1, checked');
    await page.getByLabel(/^Tags/).fill('plate reader, absorbance');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(dataset);
    assert.equal(await page.locator('h1').innerText(), 'Plate reader run 1, checked');

    const resource = `${dataset}/resource/${catalogue.runId}`;
    await page.goto(resource);
    await page.getByRole('link', { name: 'Edit, replace or delete' }).click();
    await page.waitForURL(`${resource}/edit`);
    await shot('resource-edit');
    // The same run twice over: twice the rows once the chain has imported it again.
    const longer = runCsv() + runCsv().split('\n').slice(1).join('\n');
    await page.getByLabel('New file').setInputFiles({
      name: 'plate-run-2.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(longer),
    });
    await page.getByRole('button', { name: 'Replace' }).click();
    await page.waitForURL(resource);
    const until = Date.now() + 60_000;
    let caption = '';
    while (Date.now() < until) {
      await page.goto(resource);
      caption = await page
        .locator('#preview caption')
        .innerText()
        .catch(() => '');
      if (caption.endsWith(`of ${2 * RUN_ROWS}`)) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    assert.equal(caption, `Rows 1–25 of ${2 * RUN_ROWS}`);
    await shot('resource-replaced');

    await page.getByRole('link', { name: 'Edit, replace or delete' }).click();
    // The browser asks for the tick first: nothing is deleted by the button alone.
    await page.getByRole('button', { name: 'Delete this resource' }).click();
    assert.equal(page.url(), `${resource}/edit`);
    await page.getByLabel('Yes, delete this resource').check();
    await page.getByRole('button', { name: 'Delete this resource' }).click();
    await page.waitForURL(dataset);
    assert.equal(await page.locator(`a[href$="/resource/${catalogue.runId}"]`).count(), 0);
    await shot('resource-deleted');
    assert.deepEqual(problems, []);
  });
});

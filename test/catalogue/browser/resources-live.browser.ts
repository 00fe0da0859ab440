// The dataset page's Resources table follows the chain in Chromium, on a whole labld: with the
// page open, an upload made elsewhere (the Action API) shows up in the table, then the
// descriptor, the Turtle and the joined graph as their steps store them, and deleting the CSV
// takes them all off again — without a reload (automation.js fetches the section again
// whenever the Automation section changed). Screenshots go to test/catalogue/browser/screenshots/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { api } from '../actions/support.ts';
import { seedFixture } from '../../support/shared.ts';
import { startLibraryLabld, type LibraryLabld } from '../../chain/library-labld.ts';
import { SCREENSHOTS, collectProblems, launchChromium, type Browser } from './launch.ts';

const PASSWORD = 'a browser needs a long password';
let running: LibraryLabld;
let browser: Browser;
/** Page loads after the dataset page was opened: following the chain must not need one. */
let navigations = 0;
const problems: string[] = [];

/** The names in the Resources table, in its order. */
async function resourceNames(): Promise<string[]> {
  return browser.page.locator('#resources tbody th[scope="row"]').allInnerTexts();
}

/** The Resources table's row of `name`. */
const row = (name: string) =>
  browser.page.locator('#resources tbody tr').filter({
    has: browser.page.getByRole('link', { name, exact: true }),
  });

describe("the dataset page's Resources table follows the chain in Chromium", () => {
  before(async () => {
    running = await startLibraryLabld();
    const store = await openCatalogueStore({ dataDir: running.labld.dataDir });
    await store.updateUser('root', { password_hash: await hashPassword(PASSWORD) });
    await store.close();
    await running.call('package_create', { name: 'tensile', title: 'Tensile tests' });
    browser = await launchChromium();
    const { page } = browser;
    collectProblems(page, problems);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.goto(`${running.labld.url}/user/login`);
    await page.getByLabel('User name').fill('root');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${running.labld.url}/`);
  });
  after(async () => {
    await browser?.close();
    await running?.stop();
  });

  test('an upload made elsewhere and what its steps make appear in the table as they are stored', async () => {
    const { page } = browser;
    await page.goto(`${running.labld.url}/dataset/tensile`);
    await page.locator('#resources').getByText('This dataset has no resources yet.').waitFor();
    navigations = 0;
    const form = new FormData();
    form.set('package_id', 'tensile');
    form.set('upload', new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]), 'example.csv');
    const made = await api(running.labld.url, 'resource_create', {
      form,
      headers: { authorization: running.root.token },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body.error));
    await row('example.csv').waitFor({ timeout: 30_000 });
    await row('example-joined.ttl').waitFor({ timeout: 60_000 });
    assert.equal(navigations, 0, 'the table changed on the page as loaded');
    // The dataset ends with exactly its four resources, each derived one made by its step.
    assert.deepEqual([...(await resourceNames())].sort(), [
      'example-joined.ttl',
      'example-metadata.jsonld',
      'example.csv',
      'example.ttl',
    ]);
    assert.match(await row('example.csv').innerText(), /uploaded by root/);
    assert.match(await row('example-metadata.jsonld').innerText(), /made by step annotate,/);
    assert.match(await row('example.ttl').innerText(), /made by step describe,/);
    assert.match(await row('example-joined.ttl').innerText(), /made by step convert,/);
    await page.screenshot({ path: join(SCREENSHOTS, 'resources-live-derived.png'), fullPage: true });
    // A row put in by the script links as one rendered with the page does.
    await row('example-joined.ttl').getByRole('link', { name: 'example-joined.ttl', exact: true }).click();
    await page.waitForURL(/\/dataset\/tensile\/resource\/[0-9a-f-]{36}$/);
    assert.equal(await page.locator('h1').innerText(), 'example-joined.ttl');
  });

  test('deleting the CSV takes it and its outputs off the table', async () => {
    const { page } = browser;
    await page.goto(`${running.labld.url}/dataset/tensile`);
    assert.equal((await resourceNames()).length, 4);
    // The page's own reads (the plot's points of example.csv, ~0.1 s after load) are done before
    // the CSV goes: one still on its way would rightly get a 404 for a resource just deleted.
    await page.waitForLoadState('networkidle');
    navigations = 0;
    const csv = (await running.call('package_show', { id: 'tensile' })).resources as {
      id: string;
      name: string;
    }[];
    await running.call('resource_delete', { id: csv.find((r) => r.name === 'example.csv')!.id });
    await page
      .locator('#resources')
      .getByText('This dataset has no resources yet.')
      .waitFor({ timeout: 30_000 });
    assert.equal(navigations, 0);
    await page.screenshot({ path: join(SCREENSHOTS, 'resources-live-deleted.png'), fullPage: true });
    assert.deepEqual(problems, []);
  });
});

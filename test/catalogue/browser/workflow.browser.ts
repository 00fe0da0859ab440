// The issue's browser workflow on a whole labld in Chromium (no test double): log in, make a
// dataset, upload a CSV watching the progress bar, see it listed, open its table preview, sort
// it and filter it. Screenshots of each page go to test/catalogue/browser/screenshots/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { api, importedTable } from '../actions/support.ts';
import { SCREENSHOTS, collectProblems, launchChromium, type Browser } from './launch.ts';

const PASSWORD = 'a browser needs a long password';
let labld: Running & { dataDir: string };
let browser: Browser;
const problems: string[] = [];

async function shot(name: string): Promise<void> {
  await browser.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Rows of 20 runs: forces that sort differently as numbers (9 < 10 < 100) and as text. */
function csv(): { text: string; rows: { Probe: string; Kraft: number }[] } {
  const rows = Array.from({ length: 30 }, (_, i) => ({
    Probe: `P${String(i + 1).padStart(2, '0')}`,
    Kraft: ((i * 37) % 101) + 0.5,
  }));
  return { text: `Probe,Kraft\n${rows.map((r) => `${r.Probe},${r.Kraft}`).join('\n')}\n`, rows };
}

describe('the catalogue workflow in Chromium on a whole labld', () => {
  before(async () => {
    labld = await startLabld();
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    await store.createUser({ name: 'ada', password_hash: await hashPassword(PASSWORD) });
    await store.close();
    browser = await launchChromium();
    collectProblems(browser.page, problems);
  });
  after(async () => {
    await browser?.close();
    await labld?.stop();
  });

  test('log in and make a dataset through the form', async () => {
    const { page } = browser;
    await page.goto(`${labld.url}/user/login`);
    await shot('workflow-login');
    await page.getByLabel('User name').fill('ada');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${labld.url}/`);
    await page.getByRole('link', { name: 'New dataset' }).click();
    await page.getByLabel('Title').fill('Tensile tests 2026');
    await page.getByLabel(/^Name/).fill('tensile-2026');
    await page.getByLabel(/^Description/).fill('Probes of the November campaign');
    await shot('workflow-new-dataset');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.waitForURL(`${labld.url}/dataset/tensile-2026`);
    assert.equal(await page.locator('h1').innerText(), 'Tensile tests 2026');
  });

  test('upload a CSV with the progress bar; it is listed on the dataset page', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Add a resource' }).click();
    await page.getByLabel(/^File/).setInputFiles({
      name: 'forces.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv().text),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    // upload.js sends the form with XMLHttpRequest, follows it on the bar, then links the resource.
    await page.getByText('Upload complete.').waitFor();
    assert.equal(await page.evaluate(`document.getElementById('upload-progress').value`), 100);
    await shot('workflow-uploaded');
    await page.getByRole('link', { name: 'Open the new resource' }).click();
    await page.waitForURL(/\/dataset\/tensile-2026\/resource\/[0-9a-f-]{36}$/);
    await page.goto(`${labld.url}/dataset/tensile-2026`);
    await shot('workflow-dataset');
    const row = page.getByRole('row', { name: /forces\.csv/ });
    assert.match(await row.innerText(), /CSV[\s\S]*uploaded by ada/);
    // The upload, and what the automation chain has derived from it so far.
    await page.goto(`${labld.url}/dataset`);
    assert.match(
      await page.locator('.dataset-list').innerText(),
      /Tensile tests 2026[\s\S]*\d+ resources? ·/,
    );
  });

  test('open the table preview, sort it numerically and filter it', async () => {
    const { page } = browser;
    const pkg = await api(labld.url, 'package_show', { query: { id: 'tensile-2026' } });
    const resourceId = pkg.body.result.resources[0].id as string;
    // The automation chain's import step fills the table after the upload (typed by the descriptor).
    assert.equal((await importedTable(labld.url, resourceId)).total, csv().rows.length);
    await page.goto(`${labld.url}/dataset/tensile-2026`);
    await page.getByRole('link', { name: 'forces.csv', exact: true }).click();
    await page.getByRole('link', { name: /Kraft/ }).click();
    await page.waitForURL(/sort=Kraft/);
    const forces = async () =>
      (await page.locator('table.data tbody tr td:nth-child(2)').allInnerTexts()).map(Number);
    const ascending = await forces();
    assert.deepEqual(
      ascending,
      [...ascending].sort((a, b) => a - b),
      'numeric order',
    );
    assert.equal(ascending[0], 0.5);
    await shot('workflow-table-sorted');
    await page.getByLabel('Filter Probe').fill('P1');
    await page.getByLabel('Filter Probe').press('Enter');
    await page.waitForURL(/f\.Probe=P1/);
    const probes = await page.locator('table.data tbody tr td:nth-child(1)').allInnerTexts();
    assert.ok(probes.length > 0 && probes.every((p) => p.includes('P1')), probes.join(', '));
    await shot('workflow-table-filtered');
    assert.deepEqual(problems, []);
  });
});

// The automation chain on the dataset page in Chromium, on a whole labld (issue 14, item 3):
// an editor uploads the seed example.csv and watches its steps complete in the Automation
// section without a reload, opens the descriptor and the joined Turtle from it; a convert that
// fails (the mapping's template host is down) is retried with the Retry button once the host
// is back; an admin sees the dead letter of another such failure and replays it. Screenshots go
// to test/catalogue/browser/screenshots/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { seedFixture } from '../../support/shared.ts';
import { startLibraryLabld, type LibraryLabld } from '../../chain/library-labld.ts';
import { SCREENSHOTS, collectProblems, launchChromium, type Browser } from './launch.ts';

const PASSWORD = 'a browser needs a long password';
const STEPS = ['annotate', 'import', 'describe', 'select-mapping', 'convert'];
let running: LibraryLabld;
let labld: LibraryLabld['labld'];
let browser: Browser;
/** Page loads after the dataset page was opened: watching the steps must not need one. */
let navigations = 0;
const problems: string[] = [];

async function shot(name: string): Promise<void> {
  await browser.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function logIn(name: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${labld.url}/user/login`);
  await page.getByLabel('User name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${labld.url}/`);
}

/** Uploads `name` (the seed example.csv's bytes) through the upload form, then opens the dataset page. */
async function uploadExample(name: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${labld.url}/dataset/tensile`);
  await page.getByRole('link', { name: 'Add a resource' }).click();
  await page.getByLabel(/^File/).setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: readFileSync(seedFixture('csvtocsvw/example.csv')),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByText('Upload complete.').waitFor();
  await page.goto(`${labld.url}/dataset/tensile`);
  navigations = 0;
}

/** The resource page's download link, absolute. */
async function downloadHref(): Promise<string> {
  const href = await browser.page
    .getByRole('link', { name: /^Download/ })
    .first()
    .getAttribute('href');
  return new URL(href!, browser.page.url()).href;
}

/** The Automation line of `source`'s `step`. */
const line = (source: string, step: string) =>
  browser.page.locator('#automation li').filter({ hasText: `${source}: ${step} ` });

/** Waits, without reloading, until the line shows `state`. */
async function until(source: string, step: string, state: string, timeout = 60_000): Promise<void> {
  await line(source, step)
    .locator(`.status-${state.replace(/[^a-z]/g, '')}`)
    .waitFor({ timeout });
}

describe('the automation chain on the dataset page in Chromium', () => {
  before(async () => {
    running = await startLibraryLabld();
    labld = running.labld;
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    const hash = await hashPassword(PASSWORD);
    await store.updateUser('root', { password_hash: hash });
    await store.createUser({ name: 'eve', password_hash: hash });
    await store.close();
    await running.call('package_create', { name: 'tensile', title: 'Tensile tests' });
    await running.call('package_collaborator_create', { id: 'tensile', user_id: 'eve', capacity: 'editor' });
    browser = await launchChromium();
    collectProblems(browser.page, problems);
    browser.page.on('framenavigated', (frame) => {
      if (frame === browser.page.mainFrame()) navigations += 1;
    });
  });
  after(async () => {
    await browser?.close();
    await running?.stop();
  });

  test('an editor uploads example.csv and watches its steps complete without a reload', async () => {
    const { page } = browser;
    await logIn('eve');
    await uploadExample('example.csv');
    // Right after the upload the first steps are queued or running.
    assert.ok((await page.locator('#automation li').count()) >= 1);
    await shot('chain-steps-running');
    for (const step of STEPS) await until('example.csv', step, 'done');
    assert.equal(navigations, 0, 'the steps completed on the page as loaded');
    const text = await page.locator('#automation').innerText();
    assert.match(text, /example\.csv: import done — \d+ column\(s\); \d+ rows; \d+ ms/);
    assert.match(text, /mapping "csvw-template-map\.yaml" selected/);
    // An editor is not the dataset's admin: no dead letters for them.
    assert.equal(await page.getByRole('heading', { name: 'Dead letters' }).count(), 0);
    await shot('chain-steps-done');
  });

  test('the descriptor and the joined Turtle open from their steps', async () => {
    const { page } = browser;
    await line('example.csv', 'annotate').getByRole('link', { name: 'example-metadata.jsonld' }).click();
    await page.waitForURL(/\/dataset\/tensile\/resource\/[0-9a-f-]{36}$/);
    assert.equal(await page.locator('h1').innerText(), 'example-metadata.jsonld');
    await shot('chain-descriptor');
    const descriptor = await page.request.get(await downloadHref());
    assert.equal(descriptor.status(), 200);
    assert.match(await descriptor.text(), /"@context"[\s\S]*csvw/);

    await page.goto(`${labld.url}/dataset/tensile`);
    await line('example.csv', 'convert').getByRole('link', { name: 'example-joined.ttl' }).click();
    await page.waitForURL(/\/dataset\/tensile\/resource\/[0-9a-f-]{36}$/);
    assert.equal(await page.locator('h1').innerText(), 'example-joined.ttl');
    await shot('chain-joined');
    const joined = await page.request.get(await downloadHref());
    assert.equal(joined.status(), 200);
    assert.match(await joined.text(), /@prefix[\s\S]*DIN_EN_ISO_527-3/);
  });

  test('a failed convert is run again with Retry once its cause is fixed', async () => {
    running.template.up = false;
    await uploadExample('example-2.csv');
    await until('example-2.csv', 'convert', 'failed');
    const failed = await line('example-2.csv', 'convert').innerText();
    assert.match(failed, /DIN_EN_ISO_527-3/, 'the error names what was missing');
    await shot('chain-step-failed');
    running.template.up = true;
    await line('example-2.csv', 'convert')
      .getByRole('button', { name: /^Retry/ })
      .click();
    await until('example-2.csv', 'convert', 'done');
    assert.equal(navigations, 0, 'Retry and the re-run on the page as loaded');
    await shot('chain-step-retried');
  });

  test('an admin sees a dead letter with its error and replays it; it leaves the list', async () => {
    const { page } = browser;
    running.template.up = false;
    await uploadExample('example-3.csv');
    await until('example-3.csv', 'convert', 'failed');
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn('root');
    await page.goto(`${labld.url}/dataset/tensile`);
    navigations = 0;
    const letters = page.locator('table.dead-letters tbody tr');
    await letters.first().waitFor({ timeout: 20_000 });
    assert.equal(await letters.count(), 1);
    assert.match(await letters.first().innerText(), /example-3\.csv: convert[\s\S]*DIN_EN_ISO_527-3/);
    await shot('chain-dead-letters');
    running.template.up = true;
    await letters
      .first()
      .getByRole('button', { name: /^Replay/ })
      .click();
    await page.getByText("No message of this dataset's chain has failed for good.").waitFor();
    await until('example-3.csv', 'convert', 'done');
    assert.equal(navigations, 0);
    await shot('chain-replayed');
    assert.deepEqual(problems, []);
  });
});

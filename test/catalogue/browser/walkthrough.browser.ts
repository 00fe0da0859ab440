// The README's five-minute walkthrough in Chromium, on a fresh data folder with the network
// fetch switched off (LABLD_FETCH_OFFLINE): the first user made with the command line, a
// dataset made in the browser, the seed CSV and three public machine exports uploaded, the
// seed converted by the starter library's mapping, a mapping made in the browser for an export
// that had none, the dataset loaded with its rows, and a numeric question answered by the
// sentence builder and by YASGUI — the answer counted here from the CSV itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { startLabld, type Running } from '../../support/labld.ts';
import { setEnv } from '../../support/env.ts';
import { seedFixture, sharedDir } from '../../support/shared.ts';
import { SCREENSHOTS, choose, collectProblems, launchChromium, signIn, type Browser } from './launch.ts';

const PASSWORD = 'five minutes with labld, offline';
const DATASET = 'walkthrough';
const EXPORTS = [
  'instron-bh2-Specimen_RawData_6.csv',
  'instron-bhq-Specimen_RawData_1.csv',
  'mtsts-it-5D.txt',
];
/** The export a mapping is made for in the browser. */
const MAPPED_EXPORT = EXPORTS[0]!;
const FORCE_ABOVE = 85;
let labld: Running & { dataDir: string };
let browser: Browser;
let restore: () => void;
const problems: string[] = [];

const shot = (name: string) =>
  browser.page.screenshot({ path: join(SCREENSHOTS, `walkthrough-${name}.png`), fullPage: true });

/**
 * The force columns in newtons, read off the files by hand: the line of units names the column's
 * unit; the data rows follow it. (mtsts-it-5D's load is in kN: not counted.)
 */
const FORCE_COLUMNS = [
  {
    file: seedFixture('csvtocsvw/example.csv'),
    separator: '\t',
    units: '"s"\t"mm"\t"N"\t"%"\t"mm"',
    column: 2,
  },
  {
    file: join(sharedDir, 'fixtures/real-exports', EXPORTS[0]!),
    separator: ',',
    units: '(sec),(mm),(N),,',
    column: 2,
  },
  {
    file: join(sharedDir, 'fixtures/real-exports', EXPORTS[1]!),
    separator: ',',
    units: '(s),(mm),(N),(%),(MPa)',
    column: 2,
  },
];

/** A separator not inside "…" (Instron quotes its numbers, "1,234.5" with a thousands comma). */
const outsideQuotes = (separator: string) => new RegExp(`${separator}(?=(?:[^"]*"[^"]*")*[^"]*$)`);
const number = (cell: string | undefined) => Number((cell ?? '').replace(/[",]/g, ''));

/** Data rows of the uploaded files whose force is above `limit` newtons, counted from the files. */
function forcesAbove(limit: number): number {
  let count = 0;
  for (const { file, separator, units, column } of FORCE_COLUMNS) {
    const lines = readFileSync(file, 'latin1').split(/\r?\n/);
    const at = lines.indexOf(units);
    assert.ok(at > 0, `the units row of ${file}`);
    count += lines
      .slice(at + 1)
      .filter((line) => line.trim() !== '')
      .filter((line) => number(line.split(outsideQuotes(separator))[column]) > limit).length;
  }
  return count;
}

/** Reloads the dataset page until `link` (a resource's name) is listed, for up to two minutes. */
async function waitForResource(name: string): Promise<void> {
  const { page } = browser;
  const until = Date.now() + 120_000;
  for (;;) {
    await browser.page.goto(`${labld.url}/dataset/${DATASET}`);
    if ((await page.getByRole('link', { name, exact: true }).count()) > 0) return;
    if (Date.now() > until) assert.fail(`${name} never appeared on the dataset page`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Reloads the dataset page until no step of the chain and no load is queued or running. */
async function atRest(): Promise<void> {
  const { page } = browser;
  const until = Date.now() + 120_000;
  for (;;) {
    await browser.page.goto(`${labld.url}/dataset/${DATASET}`);
    const steps = await page.locator('#automation [data-active]').getAttribute('data-active');
    const load = await page.locator('#triplestore').getAttribute('data-state');
    if (steps !== 'true' && load !== 'queued' && load !== 'running') return;
    if (Date.now() > until) assert.fail(`the chain never came to rest (steps active ${steps}, load ${load})`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe('the walkthrough, offline, in Chromium', () => {
  before(async () => {
    restore = setEnv({ LABLD_FETCH_OFFLINE: 'true' });
    labld = await startLabld({ starterMappings: true });
    browser = await launchChromium();
    // The chain runs beside the pages on a loaded machine: pages get more time than elsewhere.
    browser.page.setDefaultTimeout(30_000);
    collectProblems(browser.page, problems);
  });
  // Each step answers for the console errors made during it.
  afterEach(() => assert.deepEqual(problems.splice(0), []));
  after(async () => {
    await browser?.close();
    await labld?.stop();
    restore?.();
  });

  test('the first user, made with the command line as the README says, logs in', async () => {
    const made = spawnSync(
      process.execPath,
      [
        new URL('../../../bin/labld.js', import.meta.url).pathname,
        'user',
        'add',
        'ada',
        '--admin',
        '--password-stdin',
      ],
      { env: { ...process.env, LABLD_DATA: labld.dataDir }, input: `${PASSWORD}\n`, encoding: 'utf8' },
    );
    assert.equal(made.status, 0, made.stderr);
    await signIn(browser.page, labld.url, 'ada', PASSWORD);
  });

  test('a dataset, the seed CSV and three machine exports uploaded through the pages', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'New dataset' }).click();
    await page.getByLabel('Title').fill('Walkthrough');
    await page.getByLabel(/^Name/).fill(DATASET);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.waitForURL(`${labld.url}/dataset/${DATASET}`);
    const files = [
      { name: 'example.csv', buffer: readFileSync(seedFixture('csvtocsvw/example.csv')) },
      ...EXPORTS.map((name) => ({
        name,
        buffer: readFileSync(join(sharedDir, 'fixtures/real-exports', name)),
      })),
    ];
    for (const file of files) {
      await browser.page.goto(`${labld.url}/dataset/${DATASET}`);
      await page.getByRole('link', { name: 'Add a resource' }).click();
      await page.getByLabel(/^File/).setInputFiles({ ...file, mimeType: 'text/csv' });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('Upload complete.').waitFor({ timeout: 60_000 });
    }
    await browser.page.goto(`${labld.url}/dataset/${DATASET}`);
    for (const file of files)
      assert.equal(await page.getByRole('link', { name: file.name, exact: true }).count(), 1);
    await shot('uploaded');
  });

  test("the starter library's mapping converts the seed CSV: its joined graph, with no network", async () => {
    await waitForResource('example-joined.ttl');
    await shot('seed-converted');
  });

  test('a mapping made in the browser for an export that had none; the export is converted', async () => {
    const { page } = browser;
    const stem = MAPPED_EXPORT.replace(/\.csv$/, '');
    // Its select-mapping step waits for a mapping, with the link to make one.
    const until = Date.now() + 120_000;
    let link = page.locator(`#automation li:has-text("${MAPPED_EXPORT}")`).getByRole('link', {
      name: 'make a mapping for it',
    });
    for (;;) {
      await browser.page.goto(`${labld.url}/dataset/${DATASET}`);
      link = page.locator(`#automation li:has-text("${MAPPED_EXPORT}")`).getByRole('link', {
        name: 'make a mapping for it',
      });
      if ((await link.count()) > 0) break;
      if (Date.now() > until) assert.fail(`${MAPPED_EXPORT} never waited for a mapping`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await link.first().click();
    await page.waitForURL(/\/group\/mappings\/mapping\/new\?/);
    await page.locator('input[type=radio][name=template]').first().check();
    await page.getByRole('button', { name: 'Use this template' }).click();
    await page.getByRole('heading', { name: '3. Map each column' }).waitFor();
    // The first column takes the first individual the template offers.
    const first = page.locator('select').first();
    const offered = await first.locator('option').allInnerTexts();
    assert.ok(offered.length > 1, 'the template offers individuals');
    await first.selectOption({ index: 1 });
    await shot('mapping-made');
    await page.getByRole('button', { name: 'Save the mapping' }).click();
    await waitForResource(`${stem}-joined.ttl`);
    await shot('export-converted');
  });

  test('Load with the rows, then the numeric question by the sentence builder and by YASGUI', async () => {
    const { page } = browser;
    const expected = forcesAbove(FORCE_ABOVE);
    assert.ok(expected > 0);
    // The chain's own loads of the joined graphs first: while one runs, the section is replaced
    // when it changes (unticking the box) and the Load button is disabled.
    await atRest();
    await page.getByLabel(/^with the measurements \(rows\)/).check();
    // The form posts and is sent back to the dataset page.
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: /^Load/ }).click()]);
    // The rows of four files are about a million triples: the dataset page says when they are in.
    const until = Date.now() + 300_000;
    for (;;) {
      await browser.page.goto(`${labld.url}/dataset/${DATASET}`);
      // Loaded, and with the rows: the box is ticked again only when the last load took them.
      const loaded = (await page.locator('#triplestore .status-done', { hasText: 'loaded' }).count()) > 0;
      if (loaded && (await page.getByLabel(/^with the measurements \(rows\)/).isChecked())) break;
      if ((await page.locator('.status-failed', { hasText: 'loading failed' }).count()) > 0) {
        assert.fail(await page.locator('.status-failed').locator('..').innerText());
      }
      if (Date.now() > until) assert.fail('the dataset was never loaded');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    await shot('loaded');
    // Each step of the builder asks the store about a million triples: more time on a busy machine.
    page.setDefaultTimeout(90_000);
    await page.goto(`${labld.url}/dataset/${DATASET}/query`);
    await choose(page, 'Start from a class', 'QuantityValue');
    await page.locator('#sentence', { hasText: 'Every QuantityValue' }).waitFor();
    await choose(page, 'Add a property', 'unit');
    await choose(page, 'Pick a value of unit', 'N');
    await page.locator('#sentence', { hasText: 'whose unit is N' }).waitFor();
    await choose(page, 'Add a property', 'value');
    await page.getByLabel('Compare value').selectOption('gt');
    await page.getByLabel('Number').fill(String(FORCE_ABOVE));
    await page.getByLabel('Number').press('Enter');
    await page.locator('#sentence', { hasText: `whose value is greater than ${FORCE_ABOVE}` }).waitFor();
    // The builder shows the first page of the rows and says how many there are.
    assert.match(await page.locator('#results-count').innerText(), new RegExp(`^${expected} rows\\b`));
    await shot('sentence');

    await page.locator('#yasgui .CodeMirror').waitFor();
    await page.evaluate(
      `document.querySelector('#yasgui .CodeMirror').CodeMirror.setValue(${JSON.stringify(
        `PREFIX qudt: <http://qudt.org/schema/qudt/>
SELECT (COUNT(*) AS ?forces) WHERE {
  ?q a qudt:QuantityValue ; qudt:unit <http://qudt.org/vocab/unit/N> ; qudt:value ?v .
  FILTER (?v > ${FORCE_ABOVE})
}`,
      )})`,
    );
    await page.locator('#yasgui .yasqe_queryButton').click();
    const cell = page.locator('#yasgui .yasr tbody tr td:nth-child(2)');
    await cell.waitFor();
    // YASR shows the literal with its datatype ("1945"^^xsd:integer, or 1945 alone).
    assert.equal(Number(/\d+/.exec(await cell.innerText())?.[0]), expected, await cell.innerText());
    await shot('yasgui');
  });
});

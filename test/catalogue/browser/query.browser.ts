// The query page in Chromium on a whole labld: a dataset holding the seed's joined graph
// (createrdf of the seed example, uploaded and loaded through triplestore_load and the
// load-triplestore consumer). A three-step sentence built with the keyboard and the mouse
// gives the rows counted independently from the fixture (n3, by hand); YASGUI runs a query on
// the endpoint; nothing is fetched from anywhere but labld. Screenshots go to screenshots/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Parser, Store } from 'n3';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { createRdf } from '../../../lib/converter/index.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { CSVW_MAPPING_URL, seedLoader } from '../../converter/support.ts';
import { loadAndWait, uploadTurtle } from '../../triplestore/endpoint-support.ts';
import { api, type Person } from '../actions/support.ts';
import { SCREENSHOTS, choose, collectProblems, launchChromium, type Browser } from './launch.ts';

const PASSWORD = 'a query needs a long password';
const QUDT = 'http://qudt.org/schema/qudt/';
const MILLIMETRE = 'http://qudt.org/vocab/unit/MilliM';
let labld: Running & { dataDir: string };
let browser: Browser;
let joined: string;
const problems: string[] = [];
const elsewhere: string[] = [];

async function shot(name: string): Promise<void> {
  await browser.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The values of quantity values in millimetres greater than 1, read from the graph by hand. */
function expectedValues(turtle: string): number[] {
  const store = new Store(new Parser({ baseIRI: 'https://labld.test/g' }).parse(turtle));
  const type = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
  return store
    .getSubjects(type, `${QUDT}QuantityValue`, null)
    .filter((q) => store.getObjects(q, `${QUDT}unit`, null).some((u) => u.value === MILLIMETRE))
    .flatMap((q) => store.getObjects(q, `${QUDT}value`, null).map((v) => Number(v.value)))
    .filter((v) => v > 1)
    .sort((a, b) => a - b);
}

describe('the query page in Chromium on a loaded seed graph', () => {
  before(async () => {
    labld = await startLabld();
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    const user = await store.createUser({ name: 'ada', password_hash: await hashPassword(PASSWORD) });
    const token = createToken();
    await store.createToken({ user_id: user.id, name: 'test', token_hash: token.hash });
    await store.close();
    const ada: Person = { user, token: token.token, tokenHash: token.hash };
    const made = await api(labld.url, 'package_create', {
      body: { name: 'tensile', title: 'Tensile test' },
      headers: { authorization: ada.token },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const rdf = await createRdf(
      { mappingUrl: CSVW_MAPPING_URL, activity: 'https://labld.test/api/createrdf', now: new Date() },
      seedLoader(),
    );
    joined = rdf.graph;
    await uploadTurtle(labld.url, ada, 'tensile', rdf.filename, joined);
    await loadAndWait(labld.url, ada, 'tensile');
    // A second dataset with the same graph, not loaded: its page offers the Load button.
    const fresh = await api(labld.url, 'package_create', {
      body: { name: 'fresh', title: 'Fresh tensile test' },
      headers: { authorization: ada.token },
    });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    await uploadTurtle(labld.url, ada, 'fresh', rdf.filename, joined);
    browser = await launchChromium();
    const origin = new URL(labld.url).origin;
    collectProblems(browser.page, problems);
    browser.page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.protocol !== 'data:' && url.origin !== origin) elsewhere.push(r.url());
    });
    await browser.page.goto(`${labld.url}/user/login`);
    await browser.page.getByLabel('User name').fill('ada');
    await browser.page.getByLabel('Password').fill(PASSWORD);
    await browser.page.getByRole('button', { name: 'Log in' }).click();
    await browser.page.waitForURL(`${labld.url}/`);
  });
  after(async () => {
    await browser?.close();
    await labld?.stop();
  });

  test('a dataset not loaded yet says so; its editor presses Load and gets the builder', async () => {
    const { page } = browser;
    await page.goto(`${labld.url}/dataset/fresh/query`);
    await page.getByRole('heading', { name: 'Not loaded yet' }).waitFor();
    assert.equal(await page.locator('#builder').count(), 0);
    await shot('query-not-loaded');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.waitForURL(`${labld.url}/dataset/fresh/query?loading=1`);
    // The load may be done before the page is: then the builder shows at once.
    await page.locator('#builder, .notice:has-text("Load requested")').first().waitFor();
    const end = Date.now() + 15_000;
    while ((await page.locator('#builder').count()) === 0 && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.reload();
    }
    assert.match(
      await page.getByRole('list', { name: 'Start from a class' }).innerText(),
      /QuantityValue\s+5/,
    );
  });

  test('the dataset page leads to the query page, which starts from the classes with counts', async () => {
    const { page } = browser;
    await page.goto(`${labld.url}/dataset/tensile`);
    await page.getByRole('link', { name: 'Query', exact: true }).click();
    await page.waitForURL(`${labld.url}/dataset/tensile/query`);
    assert.equal(await page.locator('h1').innerText(), 'Query Tensile test');
    assert.equal(await page.locator('#sentence').innerText(), 'Everything');
    const classes = page.getByRole('list', { name: 'Start from a class' });
    assert.match(await classes.innerText(), /QuantityValue\s+5/);
    // YASGUI replaced the plain form once its script ran.
    await page.locator('#yasgui .CodeMirror').waitFor();
    assert.equal(await page.locator('#sparql-form').isHidden(), true);
  });

  test('a three-step sentence: QuantityValue, unit MilliM, value greater than 1', async () => {
    const { page } = browser;
    const expected = expectedValues(joined);
    assert.ok(expected.length > 0, 'the fixture has such values');
    await choose(page, 'Start from a class', 'QuantityValue');
    await page.locator('#sentence', { hasText: 'Every QuantityValue' }).waitFor();
    await choose(page, 'Add a property', 'unit');
    await page.locator('#sentence', { hasText: 'with a unit' }).waitFor();
    await choose(page, 'Pick a value of unit', 'MilliM');
    await page.locator('#sentence', { hasText: 'whose unit is MilliM' }).waitFor();
    // The last step with the keyboard only: focus the link, press Enter, then the form.
    const valueLink = page
      .getByRole('list', { name: 'Add a property' })
      .getByRole('link', { name: 'value', exact: true });
    await valueLink.focus();
    await page.keyboard.press('Enter');
    await page.locator('#sentence', { hasText: 'with a value' }).waitFor();
    assert.equal(await page.evaluate('document.activeElement.id'), 'sentence');
    await page.getByLabel('Compare value').selectOption('gt');
    await page.getByLabel('Number').fill('1');
    await page.getByLabel('Number').press('Enter');
    const sentence = 'Every QuantityValue whose unit is MilliM and whose value is greater than 1';
    await page.locator('#sentence', { hasText: sentence }).waitFor();
    assert.match(
      page.url(),
      /\/dataset\/tensile\/query\?class=.*&p1=.*&f1=is&v1=.*&p2=.*&f2=gt&v2=1#builder$/,
    );
    const values = (await page.locator('#builder table.data tbody tr td:nth-child(3)').allInnerTexts()).map(
      Number,
    );
    assert.deepEqual(
      values.sort((a, b) => a - b),
      expected,
    );
    assert.equal(
      await page.locator('#results-count').innerText(),
      `${expected.length} row${expected.length === 1 ? '' : 's'}`,
    );
    // Every control of the builder has a label.
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('#builder input:not([type=hidden]), #builder select')]
        .filter((c) => c.labels.length === 0).map((c) => c.name)`,
    );
    assert.deepEqual(unlabelled, []);
    await shot('query-builder');
    // The address is the sentence: reloading shows the same page, made by the server.
    await page.reload();
    assert.equal(await page.locator('#sentence').innerText(), sentence);
  });

  test('YASGUI runs a query on the endpoint, and the sentence opens in it', async () => {
    const { page } = browser;
    await page.locator('#yasgui .CodeMirror').waitFor();
    await page.locator('#yasgui .yasqe_queryButton').click();
    const table = page.locator('#yasgui .yasr table');
    await table.waitFor();
    assert.match(await table.innerText(), /QuantityValue/);
    await page.getByRole('button', { name: 'Open this query in YASGUI' }).click();
    await page.waitForFunction(
      `/MilliM/.test(document.querySelector('#yasgui .yasr tbody')?.textContent ?? '')`,
    );
    const rows = await page.locator('#yasgui .yasr tbody tr').count();
    assert.equal(rows, expectedValues(joined).length);
    await shot('query-yasgui');
    assert.deepEqual(elsewhere, [], 'nothing fetched from outside labld');
    assert.deepEqual(problems, []);
  });

  test('YASGUI says "a blank node" as the builder does, the id in its tooltip', async () => {
    const { page } = browser;
    await page.evaluate(
      `document.querySelector('#yasgui .CodeMirror').CodeMirror.setValue('SELECT (BNODE() AS ?b) ("x" AS ?s) WHERE {}')`,
    );
    await page.locator('#yasgui .yasqe_queryButton').click();
    const cell = page.locator('#yasgui .yasr tbody td span.bnode');
    await cell.waitFor();
    assert.equal(await cell.innerText(), 'a blank node');
    assert.match((await cell.getAttribute('title')) ?? '', /^_:\S+$/);
    // Other values are drawn by YASR's own table as before.
    assert.equal(await page.locator('#yasgui .yasr tbody td:nth-child(3)').innerText(), 'x');
    await shot('query-yasgui-blank-node');
    assert.deepEqual(problems, []);
  });
});

// Issue 25, item 9: YASGUI's table put result literals into an HTML sink, so a literal holding
// markup made the page's CSP report inline handlers. In Chromium on a whole labld, a dataset
// whose literals are markup is queried in YASGUI: every literal shows as its own text (and the
// table's filter finds it as such), no element of it reaches the page, no handler runs and the
// CSP reports nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { loadAndWait, uploadTurtle } from '../../triplestore/endpoint-support.ts';
import { api, person } from '../actions/support.ts';
import { launchChromium, type Browser } from './launch.ts';

const MARKUP = ['<img src=x onerror=alert(1)>', '<svg onload=alert(2)></svg>', '<b>bold</b> & <i>more</i>'];

let labld: Running & { dataDir: string };
let browser: Browser;

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const ada = await person(store, 'ada');
  await store.close();
  const made = await api(labld.url, 'package_create', {
    body: { name: 'markup', title: 'Markup in literals' },
    headers: { authorization: ada.token },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const turtle = MARKUP.map((text, i) => `<urn:x:${i}> <urn:p:note> ${JSON.stringify(text)} .`).join('\n');
  await uploadTurtle(labld.url, ada, 'markup', 'markup-joined.ttl', `${turtle}\n`);
  await loadAndWait(labld.url, ada, 'markup');
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await labld?.stop();
});

test('YASGUI shows literals holding markup as text: no element, no handler, no CSP report', async () => {
  const { page } = browser;
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // Collected from the first script on, before YASGUI draws anything.
  await page.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations.push(e.violatedDirective + ': ' + (e.sample || e.blockedURI)));
  `);
  await page.goto(`${labld.url}/dataset/markup/query`);
  await page.locator('#yasgui .CodeMirror').waitFor();
  await page.evaluate(
    `document.querySelector('#yasgui .CodeMirror').CodeMirror.setValue('SELECT ?s ?note WHERE { ?s <urn:p:note> ?note } ORDER BY ?s')`,
  );
  await page.locator('#yasgui .yasqe_queryButton').click();
  await page
    .locator('#yasgui .yasr tbody tr')
    .nth(MARKUP.length - 1)
    .waitFor();
  const cells = await page.locator('#yasgui .yasr tbody td:nth-child(3)').allInnerTexts();
  assert.deepEqual(
    cells.map((text) => text.trim()),
    MARKUP,
  );
  assert.equal(await page.locator('#yasgui .yasr tbody :is(img, svg:not(.svgImg svg), b, i)').count(), 0);
  // The table's filter searches the text as shown: markup is matched as the characters it is.
  await page.locator('#yasgui .yasr input.tableFilter').pressSequentially('<b>bold');
  await page.waitForFunction(`document.querySelectorAll('#yasgui .yasr tbody tr').length === 1`);
  assert.equal((await page.locator('#yasgui .yasr tbody td:nth-child(3)').innerText()).trim(), MARKUP[2]);
  // Let anything an element would have fetched or fired come in before judging.
  await page.waitForTimeout(500);
  assert.deepEqual(await page.evaluate('window.cspViolations'), []);
  assert.deepEqual(dialogs, []);
});

// Loading and plots in Chromium on a whole labld (issue 15): an editor opens a dataset whose
// seed example.csv went through the chain, sees "not loaded yet", presses Load and sees the
// SPARQL endpoint appear; a reader sees the state but no button; the plot draws Standardkraft
// over Dehnung with the descriptor's units on its axes, and the column pickers work without
// JavaScript too. Screenshots go to test/catalogue/browser/screenshots/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import {
  countOnEndpoint,
  joinedTriples,
  seededLabld,
  type SeededLabld,
} from '../../triplestore/chain-support.ts';
import { SCREENSHOTS, launchChromium, type Browser } from './launch.ts';

const PASSWORD = 'a browser needs a long password';
let seeded: SeededLabld;
let browser: Browser;
let csvId: string;
const problems: string[] = [];

async function shot(name: string): Promise<void> {
  await browser.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function logIn(name: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${seeded.labld.url}/user/login`);
  await page.getByLabel('User name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${seeded.labld.url}/`);
}

async function logOut(): Promise<void> {
  await browser.page.getByRole('button', { name: 'Log out' }).click();
  await browser.page.waitForURL(`${seeded.labld.url}/`);
}

describe('Load and plot in Chromium on a whole labld', () => {
  before(async () => {
    seeded = await seededLabld();
    const store = await openCatalogueStore({ dataDir: seeded.labld.dataDir });
    for (const name of ['eda', 'rudi']) {
      await store.createUser({ name, password_hash: await hashPassword(PASSWORD) });
    }
    await store.close();
    csvId = await seeded.uploadExample('tensile');
    await seeded.call('package_collaborator_create', { id: 'tensile', user_id: 'eda', capacity: 'editor' });
    await seeded.call('package_collaborator_create', { id: 'tensile', user_id: 'rudi', capacity: 'member' });
    await seeded.converted(csvId);
    browser = await launchChromium();
    browser.page.on('pageerror', (e) => problems.push(e.message));
    browser.page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
  });
  after(async () => {
    await browser?.close();
    await seeded?.stop();
  });

  test('an editor sees "not loaded yet", presses Load and sees the endpoint appear', async () => {
    const { page } = browser;
    await logIn('eda');
    await page.goto(`${seeded.labld.url}/dataset/tensile`);
    const section = page.locator('#triplestore');
    assert.match(await section.innerText(), /not loaded yet/);
    await shot('load-before');
    await page.getByRole('button', { name: 'Load into the triple store' }).click();
    await page.waitForURL(`${seeded.labld.url}/dataset/tensile#triplestore`);
    // triplestore.js looks again every two seconds while the load is queued or running and
    // replaces the section's content in place: a mark set on the page now is still there at the
    // end, and the status line is the same element (a screen reader announces its new text).
    await page.evaluate(`window.labldStatus = document.querySelector('#triplestore [role="status"]')`);
    await page.locator('#triplestore[data-state="done"]').waitFor({ timeout: 30_000 });
    assert.equal(
      await page.evaluate(`window.labldStatus === document.querySelector('#triplestore [role="status"]')`),
      true,
      'the page was reloaded or the status line put in anew',
    );
    const link = section.getByRole('link', { name: /triplestore\/sparql$/ });
    const endpoint = await link.getAttribute('href');
    assert.match(endpoint ?? '', /\/dataset\/[0-9a-f-]{36}\/triplestore\/sparql$/);
    const expected = await joinedTriples(seeded, 'tensile');
    assert.match(
      await section.innerText(),
      new RegExp(`loaded 1 graph · ${expected} triples · 20\\d\\d-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`),
    );
    // The endpoint resource is listed with the others, and it answers the loaded triples.
    await page.getByRole('rowheader', { name: 'SPARQL' }).waitFor();
    // A link resource is opened where it points, not downloaded.
    assert.equal(await page.getByRole('link', { name: 'Open SPARQL' }).getAttribute('href'), endpoint);
    assert.equal(await countOnEndpoint(seeded.labld.url, 'tensile'), expected);
    await section.scrollIntoViewIfNeeded();
    await shot('load-after');
    await logOut();
  });

  test('a reader sees the state but no Load button; a visitor neither', async () => {
    const { page } = browser;
    await logIn('rudi');
    await page.goto(`${seeded.labld.url}/dataset/tensile`);
    assert.match(await page.locator('#triplestore').innerText(), /loaded/);
    assert.equal(await page.getByRole('button', { name: /Load/ }).count(), 0);
    await logOut();
    await page.goto(`${seeded.labld.url}/dataset/tensile`);
    assert.equal(await page.getByRole('button', { name: /Load/ }).count(), 0);
  });

  test('the plot: Standardkraft over Dehnung, units on the axes, drawn by uPlot from our own files', async () => {
    const { page } = browser;
    await logIn('rudi');
    await page.goto(`${seeded.labld.url}/dataset/tensile#plot`);
    await page.getByLabel('x axis').selectOption({ label: 'Dehnung [%]' });
    await page.getByLabel('y axis').selectOption({ label: 'Standardkraft [N]' });
    const figure = page.locator('#plot-figure[data-y-label="Standardkraft [N]"][aria-busy="false"]');
    await figure.waitFor();
    assert.equal(await figure.getAttribute('data-x-label'), 'Dehnung [%]');
    // uPlot's legend names the series with their units; its canvas is drawn.
    const legend = await page.locator('#plot .u-legend').innerText();
    assert.match(legend, /Dehnung \[%\]/);
    assert.match(legend, /Standardkraft \[N\]/);
    assert.equal(await page.locator('#plot canvas').count(), 1);
    assert.match(
      (await page.locator('#plot-canvas').getAttribute('aria-label')) ?? '',
      /^Standardkraft \[N\] over Dehnung \[%\]: \d+ points from \d+ rows$/,
    );
    // The address keeps the choice, so that a reload or a link shows the same plot.
    assert.match(page.url(), /x=Dehnung&y=Standardkraft#plot$/);
    const scripts = await page.locator('script[src]').evaluateAll((s) => s.map((e) => e.getAttribute('src')));
    assert.ok(
      scripts.every((src) => src?.startsWith('/assets/')),
      scripts.join(' '),
    );
    await page.locator('#plot').scrollIntoViewIfNeeded();
    await page.locator('#plot').screenshot({ path: join(SCREENSHOTS, 'plot.png') });
    await shot('plot-page');
    assert.deepEqual(problems, []);
  });

  test('without JavaScript the pickers still choose, and the points are a link to their JSON', async () => {
    const { page } = browser;
    await page.context().route('**/*.js', (route) => route.abort());
    await page.goto(`${seeded.labld.url}/dataset/tensile`);
    await page.getByLabel('x axis').selectOption({ label: 'Prüfzeit [s]' });
    await page.getByLabel('y axis').selectOption({ label: 'Standardkraft [N]' });
    await page.getByRole('button', { name: 'Draw' }).click();
    await page.waitForURL(/x=Pr%C3%BCfzeit&y=Standardkraft#plot$/);
    const link = page.getByRole('link', { name: 'The plotted points as JSON' });
    const href = (await link.getAttribute('href')) ?? '';
    assert.match(
      href,
      new RegExp(`/dataset/tensile/resource/${csvId}/plot\\?x=Pr%C3%BCfzeit&y=Standardkraft$`),
    );
    const points = await page.request.get(`${seeded.labld.url}${href}`);
    assert.equal(points.status(), 200);
    assert.equal((await points.json()).x.label, 'Prüfzeit [s]');
    await page.context().unroute('**/*.js');
  });
});

// Making a mapping in the browser, in Chromium (issue 28, item 1): the seed CSV waits for a
// mapping; from its "needs a mapping" step the maker opens the builder, picks the library's
// template, chooses an individual for each column and metadata row (by the labelled selects,
// one of them by keyboard), saves — and the CSV is converted. Screenshots at 1280 and 390 px.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PASSWORD, startBuilderLabld, type BuilderLabld } from '../support/builder-labld.ts';
import { SCREENSHOTS, collectProblems, launchChromium, signIn, type Browser } from './launch.ts';

const NARROW = 390;
let lab: BuilderLabld;
let browser: Browser;
const problems: string[] = [];

const shot = (name: string) =>
  browser.page.screenshot({ path: join(SCREENSHOTS, `mapping-builder-${name}.png`), fullPage: true });

/** The seed request's map (MapToMethod's example): the label of each select → the individual. */
const CHOICES: [RegExp, string][] = [
  [/^aktuelle Probe/, 'SpecimenID'],
  [/^Probenbreite b0/, 'WidthMeasurement'],
  [/^Probendicke a0/, 'ThicknessMeasurement'],
  [/^Standardkraft/, 'ForceMeasurement'],
  [/^Prüfgeschwindigkeit/, 'CrossheadSpeedSetPointValue'],
  [/^Vorkraft/, 'PreLoadSetPointValue'],
];

describe('making a mapping in Chromium', () => {
  before(async () => {
    lab = await startBuilderLabld();
    browser = await launchChromium();
    collectProblems(browser.page, problems);
    await signIn(browser.page, lab.labld.url, 'maker', PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await lab?.labld.stop();
  });

  test('from the waiting CSV to a saved mapping and a joined graph', async () => {
    const { page } = browser;
    const dataset = `${lab.labld.url}/dataset/tensile`;
    await page.goto(dataset);
    await page.getByRole('link', { name: 'make a mapping for it' }).click();
    await page.waitForURL(/\/group\/mappings\/mapping\/new\?/);
    await shot('template-1280');
    await page.getByLabel(/^DIN_EN_ISO_527-3\.drawio\.ttl/).check();
    await page.getByRole('button', { name: 'Use this template' }).click();
    await page.getByRole('heading', { name: '3. Map each column' }).waitFor();

    // A near name is suggested, not chosen: TraverseAbs lists Traverse first but stays not mapped.
    assert.equal(await page.getByLabel(/^TraverseAbs/).inputValue(), '');
    assert.equal(
      await page
        .getByLabel(/^TraverseAbs/)
        .locator('option')
        .nth(1)
        .innerText(),
      'Traverse (suggested)',
    );
    for (const [label, individual] of CHOICES) await page.getByLabel(label).selectOption(individual);
    // By keyboard: focus the select by its label, type the individual's first letters.
    await page.getByLabel(/^Standardweg/).focus();
    await page.keyboard.type('LengthMeas');
    assert.equal(await page.getByLabel(/^Standardweg/).inputValue(), 'LengthMeasurement');
    await page.getByLabel('File name').fill('tensile-map.yaml');
    await shot('columns-1280');

    await page.setViewportSize({ width: NARROW, height: 844 });
    await shot('columns-390');
    // The first columns as a phone shows them (the full page is too tall to read at a glance).
    await page.getByRole('heading', { name: '3. Map each column' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'mapping-builder-columns-390-view.png') });
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(width <= NARROW, `the builder is ${width} px wide at ${NARROW} px`);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Save the mapping' }).click();
    await page.waitForURL(`${dataset}#automation`);
    // The CSV is selected again and converted: its joined graph appears on the dataset page.
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      if ((await page.getByRole('link', { name: 'example-joined.ttl' }).count()) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.reload();
    }
    assert.ok((await page.getByRole('link', { name: 'example-joined.ttl' }).count()) > 0, 'the joined graph');
    await shot('converted-1280');
    assert.match(
      await page.locator('#automation').innerText(),
      /mapping "tensile-map\.yaml": 7 rules applied, 0 skipped/,
    );
    const library = (await lab.call('labld_mapping_library_show', {})) as { mappings: { name: string }[] };
    assert.deepEqual(
      library.mappings.map((m) => m.name),
      ['tensile-map.yaml'],
    );
    assert.deepEqual(problems, []);
  });
});

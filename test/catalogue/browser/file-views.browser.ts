// A resource's file and labld's IRIs in Chromium (issue 28, item 5): after the chain on the seed
// example.csv, the joined graph's subjects, a page of the Turtle's text and a column's IRI page
// hold at 1280 and 390 px (no page wider than the window), and a template individual's IRI
// (`…-joined.ttl#Specimen`) lands on its row. Screenshots go to test/catalogue/browser/screenshots/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { useChainE2e, type Dict } from '../../chain/e2e.ts';
import { SCREENSHOTS, launchChromium, type Browser } from './launch.ts';

const e = useChainE2e();
let browser: Browser;
const problems: string[] = [];
const pages: Record<string, string> = {};
let specimen = '';

before(async () => {
  await e.ready;
  const id = await e.uploadSeed('browse');
  await e.settled(id);
  const resources = (await e.call('package_show', { id: 'browse' })).resources as Dict[];
  const by = (name: string) => resources.find((r) => r.name === name)!;
  const base = `${e.labld.url}/dataset/browse/resource`;
  pages['joined-subjects'] = `${base}/${by('example-joined.ttl').id}`;
  pages['turtle-text-page-2'] = `${base}/${by('example.ttl').id}?view=text&page=2`;
  pages['descriptor-text'] = `${base}/${by('example-metadata.jsonld').id}?view=text`;
  pages['column-iri'] = `${by('example.csv').url as string}/table-1-Standardkraft`;
  specimen = `${(by('example-metadata.jsonld').url as string).replace(/[^/]+$/, 'example-joined.ttl')}#Specimen`;
  browser = await launchChromium();
  browser.page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
});
after(() => browser?.close());

for (const width of [1280, 390]) {
  test(`at ${width} px each page fits the window`, async () => {
    const { page } = browser;
    await page.setViewportSize({ width, height: 900 });
    const overflow: string[] = [];
    for (const [name, url] of Object.entries(pages)) {
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, name);
      const wide: number = await page.evaluate('document.documentElement.scrollWidth');
      if (wide > width) overflow.push(`${name}: ${wide} px wide at ${width}`);
      await page.screenshot({ path: join(SCREENSHOTS, `file-${name}-${width}.png`), fullPage: true });
    }
    assert.deepEqual(overflow, []);
    assert.deepEqual(problems, []);
  });
}

test('a template individual’s IRI lands on its row of the joined graph', async () => {
  const { page } = browser;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(specimen);
  assert.match(page.url(), /\/dataset\/browse\/resource\/[^?]+\?view=subjects#Specimen$/);
  const row = page.locator('section.subject#Specimen');
  assert.equal(await row.locator('h3').textContent(), 'Specimen');
  const box = await row.boundingBox();
  assert.ok(box && box.y > -1 && box.y < 900, `the row is in the window: ${JSON.stringify(box)}`);
  await page.screenshot({ path: join(SCREENSHOTS, 'file-specimen-iri-1280.png') });
});

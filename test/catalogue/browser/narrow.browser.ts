// Every main page holds at a phone's width (issue 28: at 390 px the dataset page was 608 px
// wide): in Chromium at 390 px, signed in, each page's document is no wider than the window,
// and the widest element is named when one is not. Screenshots at 390 and 1280 px.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSeededLabld, type SeededLabld } from '../support/seed.ts';
import { SCREENSHOTS, launchChromium, signIn, type Browser } from './launch.ts';

const PASSWORD = 'ada has a long password';
const NARROW = 390;
let catalogue: SeededLabld;
let browser: Browser;

/** The pages a person reads most, by a short name for the screenshots. */
function pages(): [string, string][] {
  const run = `/dataset/plate-reader-01/resource/${catalogue.runId}`;
  return [
    ['list', '/dataset'],
    ['dataset', '/dataset/plate-reader-01'],
    ['resource', run],
    ['resource-sorted', `${run}?sort=temperature&order=desc`],
    ['upload', '/dataset/plate-reader-01/upload'],
    ['edit', '/dataset/plate-reader-01/edit'],
    ['resource-edit', `${run}/edit`],
    ['new-dataset', '/dataset/new'],
    ['query', '/dataset/plate-reader-01/query'],
    ['tokens', '/user/tokens'],
    ['group', '/group/mappings'],
  ];
}

/** The document's width, and the elements that reach beyond the window (the outermost few). */
async function widths(): Promise<{ width: number; wide: string[] }> {
  return (await browser.page.evaluate(`(() => {
    const limit = ${NARROW} + 0.5;
    const wide = [];
    for (const element of document.querySelectorAll('body *')) {
      if (element.getBoundingClientRect().right <= limit) continue;
      const parent = element.parentElement;
      if (parent && parent.getBoundingClientRect().right > limit) continue;
      wide.push(element.tagName.toLowerCase() + '.' + element.className + ' (' + Math.round(element.getBoundingClientRect().right) + ' px)');
    }
    return { width: document.documentElement.scrollWidth, wide: wide.slice(0, 5) };
  })()`)) as { width: number; wide: string[] };
}

describe('the pages at 390 px', () => {
  before(async () => {
    catalogue = await startSeededLabld({ users: { ada: PASSWORD } });
    browser = await launchChromium();
    await signIn(browser.page, catalogue.url, 'ada', PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await catalogue?.stop();
  });

  test('no page is wider than the window', async () => {
    const { page } = browser;
    const overflowing: string[] = [];
    for (const [name, path] of pages()) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${catalogue.url}${path}`);
      await page.screenshot({ path: join(SCREENSHOTS, `narrow-${name}-1280.png`), fullPage: true });
      await page.setViewportSize({ width: NARROW, height: 844 });
      await page.goto(`${catalogue.url}${path}`);
      await page.waitForLoadState('load');
      await page.screenshot({ path: join(SCREENSHOTS, `narrow-${name}-390.png`), fullPage: true });
      const { width, wide } = await widths();
      if (width > NARROW) overflowing.push(`${path}: ${width} px wide; ${wide.join(', ')}`);
    }
    assert.deepEqual(overflowing, []);
  });
});

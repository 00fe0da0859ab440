// YASGUI on another origin, in Chromium: a page of a tiny static server on another port (labld's
// own YASGUI bundle, fetched from labld's assets — never a CDN) queries a public dataset's
// endpoint across origins (CORS) and shows the rows; a script of the same page sends a query
// with Authorization to a private dataset (a preflighted request). Nothing is fetched from
// anywhere but the two local servers.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assetUrl } from '../../../gateways/catalogue/assets.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startFileServer, type FileServer } from '../../support/file-server.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { endpoint, openAndClosed } from '../../triplestore/endpoint-support.ts';
import { person, type Person } from '../actions/support.ts';
import { SCREENSHOTS, collectProblems, launchChromium, type Browser } from './launch.ts';

const QUERY = 'SELECT ?s ?force WHERE { ?s <http://example.org/force> ?force } ORDER BY ?force';

/** The other origin's page: YASGUI pointed at `at`, with nothing that would fetch from elsewhere. */
function page(at: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Another origin</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/yasgui.min.css">
    <script src="/yasgui.min.js"></script>
  </head>
  <body>
    <div id="yasgui"></div>
    <script>
      Yasgui.Yasqe.defaults.autocompleters = ['prefixes', 'variables'];
      Yasgui.Yasqe.defaults.prefixCcApi = undefined;
      var yasgui = new Yasgui(document.getElementById('yasgui'), {
        requestConfig: { endpoint: ${JSON.stringify(at)}, method: 'POST' },
        persistenceId: null,
        endpointCatalogueOptions: { getData: function () { return [{ endpoint: ${JSON.stringify(at)} }]; }, keys: [] },
        yasqe: { value: ${JSON.stringify(QUERY)} },
      });
      yasgui.getTab().setQuery(${JSON.stringify(QUERY)});
    </script>
  </body>
</html>
`;
}

describe('YASGUI served from another origin queries the endpoints (CORS)', () => {
  let labld: Running & { dataDir: string };
  let elsewhere: FileServer;
  let browser: Browser;
  let owner: Person;
  const outside: string[] = [];
  const problems: string[] = [];

  before(async () => {
    labld = await startLabld();
    const store = await openCatalogueStore({ dataDir: labld.dataDir });
    owner = await person(store, 'owner');
    await store.close();
    await openAndClosed(labld.url, owner);
    elsewhere = await startFileServer();
    for (const [name, type] of [
      ['yasgui.min.js', 'text/javascript'],
      ['yasgui.min.css', 'text/css'],
    ]) {
      const asset = await fetch(`${labld.url}${assetUrl(name!)}`);
      assert.equal(asset.status, 200);
      elsewhere.put(`/${name}`, Buffer.from(await asset.arrayBuffer()), type);
    }
    elsewhere.put('/index.html', page(endpoint(labld.url, 'open')), 'text/html; charset=utf-8');
    assert.notEqual(new URL(elsewhere.origin).origin, new URL(labld.url).origin);
    browser = await launchChromium();
    const allowed = [new URL(elsewhere.origin).origin, new URL(labld.url).origin];
    browser.page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.protocol !== 'data:' && !allowed.includes(url.origin)) outside.push(r.url());
    });
    collectProblems(browser.page, problems);
  });
  after(async () => {
    await browser?.close();
    await elsewhere?.stop();
    await labld?.stop();
  });

  test('YASGUI runs its query on the public dataset and shows the rows', async () => {
    const { page } = browser;
    await page.goto(`${elsewhere.origin}/index.html`);
    await page.locator('#yasgui .CodeMirror').waitFor();
    await page.locator('#yasgui .yasqe_queryButton').click();
    await page.waitForFunction(
      `/2\\.5/.test(document.querySelector('#yasgui .yasr tbody')?.textContent ?? '')`,
    );
    const rows = await page.locator('#yasgui .yasr tbody tr').allInnerTexts();
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /1\.5/);
    assert.match(rows[1]!, /2\.5/);
    await page.screenshot({ path: join(SCREENSHOTS, 'yasgui-other-origin.png'), fullPage: true });
    assert.deepEqual(outside, [], 'nothing fetched from outside the two servers');
    assert.deepEqual(problems, []);
  });

  test('a script of that page reads the private dataset with its own token (preflighted)', async () => {
    const { page } = browser;
    const answer = await page.evaluate(
      async ([at, token]) => {
        const response = await fetch(at!, {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-query', authorization: `Bearer ${token}` },
          body: 'ASK { ?s <http://example.org/force> 2.5 }',
        });
        return { status: response.status, body: await response.text() };
      },
      [endpoint(labld.url, 'closed'), owner.token],
    );
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(JSON.parse(answer.body), { head: {}, boolean: true });
  });
});

// The catalogue's render functions: every user-supplied string escaped, a label for every input,
// sort/filter/page links that reproduce the table state, and the query parsing behind them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from '../support/fc.ts';
import { renderLogin, renderTokens } from '../../gateways/catalogue/pages/account.ts';
import {
  renderDataset,
  renderDatasetList,
  renderGroup,
  renderUpload,
} from '../../gateways/catalogue/pages/datasets.ts';
import { renderError } from '../../gateways/catalogue/pages/layout.ts';
import { renderDatasetEdit, renderResourceEdit } from '../../gateways/catalogue/pages/edit.ts';
import { renderBuilder } from '../../gateways/catalogue/pages/mapping-builder.ts';
import { renderResource, renderTablePreview, sortHref } from '../../gateways/catalogue/pages/resource.ts';
import { parseTableQuery } from '../../gateways/catalogue/source.ts';
import type { PageContext, TablePreviewView } from '../../gateways/catalogue/views.ts';
import { DomainError } from '../../lib/process/errors.ts';

/** Every page, every user-supplied string set to `s`. */
function allPages(s: string): string[] {
  const context: PageContext = { user: { name: s, displayName: s }, csrfToken: s };
  const summary = {
    name: s,
    title: s,
    description: s,
    organization: s,
    resourceCount: 1,
    modified: s,
    private: true,
  };
  const resource = {
    id: s,
    name: s,
    format: s,
    size: 2048,
    madeBy: { kind: 'user' as const, name: s },
    created: s,
    downloadUrl: s,
    previewable: true,
  };
  const table: TablePreviewView = {
    columns: [
      { name: s, type: 'text' },
      { name: `${s}2`, type: 'number', unit: s },
    ],
    rows: [
      [s, 1],
      [null, s],
    ],
    sort: { column: s, order: 'asc' },
    filters: { [s]: s },
    ranges: { [`${s}2`]: { min: s, max: s } },
    q: s,
    page: 2,
    pageSize: 1,
    total: 3,
  };
  return [
    renderDatasetList(context, { query: s, page: 1, pageSize: 1, total: 2, datasets: [summary] }),
    renderDataset(context, {
      name: s,
      title: s,
      description: s,
      organization: s,
      private: true,
      resources: [resource, { ...resource, madeBy: { kind: 'step', step: s, chain: s } }],
      steps: [{ step: s, status: s, detail: s }],
      canUpload: true,
    }),
    ...(['failed', 'done'] as const).map((state) =>
      renderDataset(context, {
        name: s,
        title: s,
        private: false,
        resources: [{ ...resource, link: s }],
        steps: [],
        canUpload: false,
        triplestore: { state, note: s, triples: 3, when: s, error: s, action: s, endpoint: s, canLoad: true },
        plot: {
          resources: [{ id: s, name: s }],
          resource: s,
          columns: [{ id: s, label: s }],
          x: s,
          y: s,
          pointsUrl: s,
          refused: s,
        },
      }),
    ),
    renderUpload(context, { dataset: { name: s, title: s }, error: s }),
    renderResource(context, { dataset: { name: s, title: s }, resource, table }),
    renderLogin({ csrfToken: s }, { next: s, username: s, error: s }),
    renderGroup(context, { name: s, title: s, description: s, datasets: [summary] }),
    renderTokens(context, {
      tokens: [{ id: s, name: s, created: s, lastUsed: s }],
      newToken: { name: s, secret: s },
    }),
    renderError(context, { status: 404, detail: s }),
    renderDatasetEdit(context, {
      dataset: { name: s, title: s, notes: s, tags: [s, s], license: s, private: true },
      licenses: [{ id: s, title: s }],
      canUpdate: true,
      canDelete: true,
      members: [{ name: s, capacity: s }],
    }),
    renderResourceEdit(context, {
      dataset: { name: s, title: s },
      resource: { id: s, name: s, description: s, stored: true },
    }),
    // The mapping builder: where to start, then an upload's columns (a refused save), then a descriptor's.
    renderBuilder(context, {
      group: s,
      waiting: [{ dataset: s, resourceId: s, name: s }],
      templates: [],
      shelves: [],
    }),
    renderBuilder(context, {
      group: s,
      source: { dataset: s, datasetTitle: s, resourceId: s, name: s },
      descriptor: s,
      waiting: [],
      templates: [{ url: s, label: s }],
      template: s,
      choices: [
        { entity: s, text: s, kind: 'column', suggestions: [s], preselected: s },
        { entity: `${s}2`, text: s, kind: 'annotation', suggestions: [], preselected: '' },
      ],
      individuals: [s, `${s}3`],
      shelves: [{ name: s, title: s }],
      chosen: { [s]: s },
      shelf: s,
      fileName: s,
      error: s,
    }),
    renderBuilder(context, { group: s, descriptor: s, waiting: [], templates: [], template: s, shelves: [] }),
  ];
}

/** Attributes of the `<tag …>` elements of a page, by a plain scan (the pages are our own markup). */
function elements(html: string, tag: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!, a[2] ?? ''])),
  );
}

describe('catalogue pages', () => {
  test('no user-supplied string reaches a page as markup or breaks out of an attribute', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        // `<q` and `"'` never occur in the templates: seen raw, they came from the input.
        for (const html of allPages(`${text}<q>"'`)) {
          assert.ok(!html.includes('<q'), html);
          assert.ok(!html.includes(`"'`), html);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('every visible input, select and textarea has a label', () => {
    for (const html of allPages('x')) {
      const labelled = new Set(elements(html, 'label').map((l) => l.for));
      for (const tag of ['input', 'select', 'textarea']) {
        for (const element of elements(html, tag)) {
          if (element.type === 'hidden') continue;
          assert.ok(element.id && labelled.has(element.id), `unlabelled <${tag}> ${JSON.stringify(element)}`);
        }
      }
      assert.equal(elements(html, 'script').filter((s) => s.src === undefined).length, 0, 'no inline script');
      assert.ok(!/\sstyle=|\son\w+=/.test(html), 'no inline style or event handler (the CSP forbids them)');
    }
  });

  test('forms that post carry the CSRF token of the session', () => {
    const html = renderTokens(
      { user: { name: 'ada' }, csrfToken: 'tok&1' },
      { tokens: [{ id: 't', name: 'n', created: '2026-01-01' }] },
    );
    const posts = html.match(/<form[^>]*method="post"[^>]*>[\s\S]*?<\/form>/g)!;
    assert.equal(posts.length, 3); // log out, revoke, create
    for (const form of posts)
      assert.ok(form.includes('<input type="hidden" name="_csrf" value="tok&amp;1">'), form);
  });

  test('the triple store section: each state in words, the endpoint once loaded, Load for editors only', () => {
    const page = (triplestore: Parameters<typeof renderDataset>[1]['triplestore']) =>
      renderDataset(
        { user: { name: 'ada' }, csrfToken: 't' },
        { name: 'd', title: 'D', private: false, resources: [], steps: [], canUpload: false, triplestore },
      );
    const none = page({ state: 'not-loaded', canLoad: false });
    assert.match(none, /not loaded yet<\/span> — queries on this dataset answer an empty result/);
    assert.ok(!none.includes('triplestore/load'), 'no Load for a reader');
    const failed = page({ state: 'failed', error: 'b.ttl: bad', action: 'press Load', canLoad: true });
    assert.match(failed, /loading failed<\/span> <span class="error-text">b\.ttl: bad<\/span> — press Load/);
    assert.match(failed, /<form method="post" action="\/dataset\/d\/triplestore\/load"/);
    // The rows are a choice of the same form, unticked as the spec loads.
    assert.match(
      failed,
      /<input id="load-rows" name="rows" type="checkbox"> <label for="load-rows">with the measurements \(rows\)/,
    );
    assert.ok(!none.includes('name="rows"'), 'no choice for a reader');
    const done = page({
      state: 'done',
      note: '1 graph',
      triples: 12345,
      when: '2026-11-25T12:00:00.000Z',
      endpoint: 'http://x/dataset/i/triplestore/sparql',
      canLoad: true,
    });
    assert.match(
      done,
      /loaded<\/span> 1 graph · 12,345 triples · <time datetime="2026-11-25T12:00:00.000Z">2026-11-25<\/time> 12:00 UTC/,
    );
    assert.match(done, /SPARQL endpoint: <a href="http:\/\/x\/dataset\/i\/triplestore\/sparql"/);
    assert.match(done, />Load again</);
    assert.match(done, /name="rows" type="checkbox">/, 'the rows unticked after a load without them');
    assert.match(
      page({ state: 'done', withRows: true, canLoad: true }),
      /name="rows" type="checkbox" checked>/,
    );
    assert.match(page({ state: 'running', canLoad: true }), /<button type="submit" disabled>/);
  });

  const table: TablePreviewView = {
    columns: [
      { name: 'sample id', type: 'text' },
      { name: 'temp', type: 'number', unit: '°C' },
    ],
    rows: [['S&1', 3]],
    sort: { column: 'temp', order: 'asc' },
    filters: { 'sample id': 'S 1' },
    ranges: { temp: { max: '30' } },
    page: 2,
    pageSize: 10,
    total: 35,
  };

  test('sort links: ascending first, the other way on the sorted column, filters kept, page restarted', () => {
    assert.equal(
      sortHref('/d/r', table, 'temp'),
      '/d/r?sort=temp&amp;order=desc&amp;f.sample+id=S+1&amp;max.temp=30',
    );
    assert.equal(
      sortHref('/d/r', { ...table, q: 'steel  P1' }, 'sample id'),
      '/d/r?sort=sample+id&amp;order=asc&amp;q=steel++P1&amp;f.sample+id=S+1&amp;max.temp=30',
    );
    const { sort: _sort, ...unsorted } = table;
    assert.equal(
      sortHref('/d/r', { ...unsorted, filters: {}, ranges: {} }, 'temp'),
      '/d/r?sort=temp&amp;order=asc',
    );
  });

  test('the table: aria-sort on the sorted column, units in the headers, words for text, min and max for numbers, a search box, pager keeping the state', () => {
    const html = renderTablePreview('/d/r', table);
    assert.match(
      html,
      /<th scope="col" aria-sort="ascending" class="num"><a href="[^"]*">temp <span class="unit">\[°C\]<\/span>/,
    );
    assert.match(html, /<input id="filter-0" name="f.sample id" type="search" value="S 1"/);
    assert.doesNotMatch(html, /name="f.temp"/);
    assert.match(html, /<input id="min-1" name="min.temp" type="search" inputmode="decimal" value=""/);
    assert.match(html, /<input id="max-1" name="max.temp" type="search" inputmode="decimal" value="30"/);
    assert.match(html, /<label class="visually-hidden" for="max-1">Highest temp<\/label>/);
    assert.match(html, /<input id="preview-q" name="q" type="search" value="">/);
    assert.ok(
      html.includes(
        '<input type="hidden" name="sort" value="temp"><input type="hidden" name="order" value="asc">',
      ),
    );
    assert.ok(html.includes('<td>S&amp;1</td><td class="num">3</td>'));
    assert.ok(html.includes('<caption>Rows 11–20 of 35</caption>'));
    assert.ok(
      html.includes(
        'href="/d/r?sort=temp&amp;order=asc&amp;f.sample+id=S+1&amp;max.temp=30&amp;page=1" rel="prev"',
      ),
    );
    assert.ok(
      html.includes(
        'href="/d/r?sort=temp&amp;order=asc&amp;f.sample+id=S+1&amp;max.temp=30&amp;page=3" rel="next"',
      ),
    );
    assert.ok(html.includes('<span>Page 2 of 4</span>'));
  });

  test('the dataset list: search box filled, result count, paging links keeping the query', () => {
    const html = renderDatasetList(
      {},
      { query: 'plate run', page: 1, pageSize: 10, total: 11, datasets: [] },
    );
    assert.ok(html.includes('<input id="q" name="q" type="search" value="plate run">'));
    assert.ok(html.includes('11 datasets found for “plate run”'));
    assert.ok(html.includes('href="/dataset?q=plate+run&amp;page=2" rel="next"'));
    assert.ok(html.includes('<span class="pager-off" aria-disabled="true">← Previous</span>'));
    assert.ok(html.includes('<a class="account" href="/user/login">Log in</a>'));
  });
});

describe('table query parameters', () => {
  test('sort, order, filters and page', () => {
    assert.deepEqual(
      parseTableQuery({
        sort: 'temp',
        order: 'desc',
        'f.sample id': ' S 1 ',
        'f.temp': '',
        'min.force': ' 2.5 ',
        'max.force': '10',
        'max.width': '',
        q: ' steel ',
        page: '3',
      }),
      {
        sort: { column: 'temp', order: 'desc' },
        filters: { 'sample id': 'S 1' },
        ranges: { force: { min: '2.5', max: '10' } },
        q: 'steel',
        page: 3,
      },
    );
    assert.deepEqual(parseTableQuery({}), { filters: {}, ranges: {}, page: 1 });
  });

  for (const [query, field] of [
    [{ page: '0' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: ['1', '2'] }, 'page'],
    [{ sort: 'a', order: 'up' }, 'order'],
    [{ 'f.a': ['x', 'y'] }, 'f.a'],
  ] as const) {
    test(`${JSON.stringify(query)} is refused naming ${field}`, () => {
      assert.throws(
        () => parseTableQuery(query as Record<string, string | string[]>),
        (error: unknown) => error instanceof DomainError && error.kind === 'invalid' && error.field === field,
      );
    });
  }
});

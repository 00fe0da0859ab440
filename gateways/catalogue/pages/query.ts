// The query page: the sentence builder (each choice a plain link or GET form, so it works
// without JavaScript; query.js answers them in place) and the SPARQL editor (a plain form to
// the endpoint, which query.js turns into YASGUI). A dataset with nothing loaded says so, and
// shows its editors the Load button.
import { createHash } from 'node:crypto';
import { MAX_STEPS, localName, type Sentence, type Step } from '../../../lib/triplestore/builder.ts';
import { ASSET_PREFIX, assetByHashedName, assetUrl } from '../assets.ts';
import { escapeHtml, href } from '../html.ts';
import { queryPagePath, sentenceHref, sentenceParams } from '../query-params.ts';
import { PAGE_CSP } from '../respond.ts';
import type { BuilderChoice, BuilderView, PageContext, QueryPageView } from '../views.ts';
import { rowsChoice } from './dataset-data.ts';
import { datasetPath } from './datasets.ts';
import { csrfField, layout } from './layout.ts';

/**
 * The page's CSP: the catalogue's, plus the one `<style>` element YASGUI's column resizer writes
 * into the page, allowed by the hash of its text (read from the bundle we serve, so an upgrade
 * keeps it in step; should the bundle change shape, the browser test sees the refusal).
 */
export const QUERY_PAGE_CSP = ((): string => {
  const bundle = assetByHashedName(assetUrl('yasgui.min.js').slice(ASSET_PREFIX.length))!;
  const style = /createStyle\(\w+,`([^`\\]*)`\)/.exec(bundle.bytes.toString('utf8'))?.[1];
  if (style === undefined) return PAGE_CSP;
  const hash = createHash('sha256').update(style).digest('base64');
  return PAGE_CSP.replace("style-src 'self'", `style-src 'self' 'sha256-${hash}'`);
})();

export function queryLoadPath(dataset: string): string {
  return `${queryPagePath(dataset)}/load`;
}

function notLoaded(context: PageContext, view: QueryPageView, loading: boolean): string {
  const load = view.canLoad
    ? `<form method="post" action="${escapeHtml(queryLoadPath(view.dataset.name))}">
          ${csrfField(context)}
          ${rowsChoice('query-load-rows')}
          <p><button type="submit">Load</button> <span class="hint">the dataset's joined graphs (or its Turtle resources) into the triple store</span></p>
        </form>`
    : '<p>An editor of this dataset can load it.</p>';
  const requested = loading
    ? '<p class="notice" role="status">Load requested: reload this page in a moment to query the loaded graphs.</p>'
    : '';
  return `<section aria-labelledby="not-loaded-heading" class="not-loaded">
        <h2 id="not-loaded-heading">Not loaded yet</h2>
        <p>This dataset is not loaded yet: the triple store holds none of its graphs, so every query answers nothing.</p>
        ${requested}
        ${load}
      </section>`;
}

function choiceList<T>(
  labelledBy: string,
  items: BuilderChoice<T>[],
  link: (choice: BuilderChoice<T>) => string,
  current?: (choice: BuilderChoice<T>) => boolean,
): string {
  if (items.length === 0) return '<p class="empty">Nothing to choose here.</p>';
  const lis = items.map((c) => {
    const mark = current?.(c) ? ' aria-current="true"' : '';
    return `<li><a href="${link(c)}"${mark}>${escapeHtml(c.label)}</a> <span class="count">${c.count}</span></li>`;
  });
  return `<ul class="choices" aria-labelledby="${labelledBy}">${lis.join('')}</ul>`;
}

const withSteps = (s: Sentence, steps: Step[]): Sentence => ({ ...s, steps });

function valuesPart(name: string, b: BuilderView): string {
  const values = b.values;
  if (!values) return '';
  const s = b.sentence;
  const last = s.steps.length - 1;
  const open = localName(values.property);
  const list = choiceList('values-heading', values.choices, (c) =>
    sentenceHref(
      name,
      withSteps(s, [
        ...s.steps.slice(0, last),
        { ...s.steps[last]!, filter: { kind: 'is', value: c.value } },
      ]),
    ),
  );
  let range = '';
  if (values.numbers) {
    const n = last + 1;
    const hidden = Object.entries(sentenceParams(s))
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    range = `<form class="compare" method="get" action="${escapeHtml(queryPagePath(name))}">
            ${hidden}
            <label for="compare-op">Compare ${escapeHtml(open)}</label>
            <select id="compare-op" name="f${n}">
              <option value="gt">greater than</option>
              <option value="ge">at least</option>
              <option value="lt">less than</option>
              <option value="le">at most</option>
            </select>
            <label for="compare-number">Number</label>
            <input id="compare-number" name="v${n}" type="text" inputmode="decimal" required size="10" maxlength="40">
            <button type="submit">Add the comparison</button>
            <p class="hint">${values.numbers.count} number${values.numbers.count === 1 ? '' : 's'}, from ${escapeHtml(values.numbers.min)} to ${escapeHtml(values.numbers.max)}</p>
          </form>`;
  }
  return `<div class="choice-group">
          <h3 id="values-heading">${values.inverse ? `Pick what it is the ${escapeHtml(open)} of` : `Pick a value of ${escapeHtml(open)}`}</h3>
          ${range}
          ${list}
        </div>`;
}

function results(b: BuilderView): string {
  const error = b.error ? `<p class="error" role="alert">${escapeHtml(b.error)}</p>` : '';
  const r = b.results;
  if (!r) {
    const start = b.sentence.class === undefined && b.sentence.steps.length === 0;
    return start
      ? `${error}<p class="hint" id="results-count">Pick a class or a property to see results.</p>`
      : error;
  }
  const shown = r.rows.length < r.total ? ` (the first ${r.rows.length} shown)` : '';
  const count = `${error}<p class="count" id="results-count">${r.total} row${r.total === 1 ? '' : 's'}${shown}</p>`;
  if (r.rows.length === 0) return count;
  const head = r.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const rows = r.rows
    .map(
      (row) => `<tr>${row.map((cell) => `<td>${cell === null ? '—' : escapeHtml(cell)}</td>`).join('')}</tr>`,
    )
    .join('\n            ');
  return `${count}
        <div class="table-scroll"><table class="data" aria-describedby="results-count">
          <caption class="visually-hidden">Results of: ${escapeHtml(b.words)}</caption>
          <thead><tr>${head}</tr></thead>
          <tbody>
            ${rows}
          </tbody>
        </table></div>`;
}

function builder(view: QueryPageView, b: BuilderView): string {
  const name = view.dataset.name;
  const s = b.sentence;
  const steps = b.stepWords
    .map((words, i) => {
      const without = withSteps(
        s,
        s.steps.filter((_, j) => j !== i),
      );
      return `<li>${escapeHtml(words)} <a class="remove" href="${sentenceHref(name, without)}">Remove<span class="visually-hidden"> “${escapeHtml(words)}”</span></a></li>`;
    })
    .join('');
  const classes = choiceList(
    'classes-heading',
    b.classes,
    (c) => sentenceHref(name, { class: c.value, steps: [] }),
    (c) => c.value === s.class,
  );
  const full = `<p class="empty">A sentence has at most ${MAX_STEPS} steps.</p>`;
  const add = (heading: string, choices: BuilderChoice[], inverse: boolean) =>
    s.steps.length >= MAX_STEPS
      ? full
      : choiceList(heading, choices, (c) =>
          sentenceHref(
            name,
            withSteps(s, [...s.steps, { property: c.value, ...(inverse ? { inverse } : {}) }]),
          ),
        );
  const properties = add('properties-heading', b.properties, false);
  const pointing = add('pointing-heading', b.inverseProperties, true);
  const sparqlLink = href(view.endpoint, { query: b.sparql });
  return `<section id="builder" aria-labelledby="builder-heading">
        <h2 id="builder-heading">Build a query in words</h2>
        <p class="sentence" id="sentence" tabindex="-1">${escapeHtml(b.words)}</p>
        ${steps === '' ? '' : `<ol class="sentence-steps" aria-label="Steps of the sentence">${steps}</ol>`}
        ${s.class !== undefined || s.steps.length > 0 ? `<p><a href="${sentenceHref(name, { steps: [] })}">Start over</a></p>` : ''}
        <div class="builder-choices">
          <div class="choice-group">
            <h3 id="classes-heading">Start from a class</h3>
            ${classes}
          </div>
          <div class="choice-group">
            <h3 id="properties-heading">Add a property</h3>
            ${properties}
          </div>
          <div class="choice-group">
            <h3 id="pointing-heading">Add a property pointing here</h3>
            ${pointing}
          </div>
          ${valuesPart(name, b)}
        </div>
        <h3 id="results-heading">Results</h3>
        ${results(b)}
        <p class="builder-actions"><button type="button" id="open-in-yasgui" hidden>Open this query in YASGUI</button></p>
        <details>
          <summary>The SPARQL of this sentence</summary>
          <pre id="builder-sparql">${escapeHtml(b.sparql)}</pre>
          <p><a href="${sparqlLink}">Run it at the endpoint</a> (SPARQL JSON)</p>
        </details>
      </section>`;
}

function editor(view: QueryPageView): string {
  return `<section id="editor" aria-labelledby="editor-heading">
        <h2 id="editor-heading">SPARQL editor</h2>
        <p>Queries run on this dataset's endpoint, <code>${escapeHtml(view.endpoint)}</code>; its default graph is the union of the dataset's graphs.</p>
        <form id="sparql-form" class="stacked" method="get" action="${escapeHtml(view.endpoint)}">
          <label for="sparql-query">SPARQL query</label>
          <textarea id="sparql-query" name="query" rows="8" spellcheck="false">${escapeHtml(view.defaultQuery)}</textarea>
          <p><button type="submit">Run at the endpoint</button></p>
        </form>
        <div id="yasgui" data-endpoint="${escapeHtml(view.endpoint)}"></div>
      </section>`;
}

export function renderQueryPage(context: PageContext, view: QueryPageView, loading = false): string {
  const d = view.dataset;
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> / <a href="${escapeHtml(datasetPath(d.name))}">${escapeHtml(d.title)}</a> /</p>
      <h1>Query ${escapeHtml(d.title)}</h1>
      ${view.loaded ? '' : notLoaded(context, view, loading)}
      ${view.builder ? builder(view, view.builder) : ''}
      ${editor(view)}`;
  return layout(
    { ...context, current: context.current ?? 'datasets' },
    {
      title: `Query ${d.title}`,
      scripts: ['yasgui.min.js', 'query.js'],
      styles: ['yasgui.min.css', 'query.css'],
    },
    main,
  );
}

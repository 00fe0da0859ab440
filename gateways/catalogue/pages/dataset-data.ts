// The dataset page's two views of its data: the triple store (its state, the SPARQL endpoint
// once loaded, the Load button for editors) and the plot of measured curves (a resource and two
// numeric columns, picked with a form that works without JavaScript; plot.js draws the points
// with uPlot, and without JavaScript the points are a link to their JSON).
import { escapeHtml, formatDate } from '../html.ts';
import type { PageContext, PlotView, StepFinding, TripleStoreView } from '../views.ts';
import type { ValidationSummary } from '../../../lib/chain/validate.ts';
import { csrfField } from './layout.ts';

/** The validate step's reports (lib/chain/validate.ts), per source. */
const validations = (view: TripleStoreView) =>
  (view.findings ?? []).flatMap((f: StepFinding) =>
    f.step === 'validate' && f.summary.validation
      ? [{ source: f.source, note: f.summary.note ?? '', ...f.summary.validation }]
      : [],
  );

/** The SHACL reports as readable lists: severity, focus node, path, message. */
function validationList(reports: (ValidationSummary & { source: string; note: string })[]): string {
  if (reports.length === 0) return '';
  const items = reports.map((v) => {
    const rows = v.results
      .map(
        (r) =>
          `<tr><td>${escapeHtml(r.severity)}</td><td><code>${escapeHtml(r.focus)}</code></td><td><code>${escapeHtml(r.path)}</code></td><td>${escapeHtml(r.message)}</td></tr>`,
      )
      .join('');
    const more =
      v.total > v.results.length
        ? `<p class="hint">${v.total - v.results.length} more in the report resource.</p>`
        : '';
    const table = rows
      ? `<div class="table-scroll"><table class="data validation"><thead><tr><th scope="col">Severity</th><th scope="col">Focus node</th><th scope="col">Path</th><th scope="col">Message</th></tr></thead><tbody>${rows}</tbody></table></div>${more}`
      : '';
    return `<li><strong>${escapeHtml(v.source)}</strong>: ${escapeHtml(v.note)}${table}</li>`;
  });
  return `<h3 id="validation-heading">SHACL validation</h3><ul class="validation" aria-labelledby="validation-heading">${items.join('')}</ul>`;
}

const STATE_WORDS: Record<TripleStoreView['state'], string> = {
  'not-loaded': 'not loaded yet',
  queued: 'loading (waiting for its turn)',
  running: 'loading',
  done: 'loaded',
  failed: 'loading failed',
};

function stateLine(view: TripleStoreView): string {
  const words = `<span class="status status-${view.state}">${STATE_WORDS[view.state]}</span>`;
  switch (view.state) {
    case 'done': {
      const triples = view.triples === undefined ? '' : ` · ${view.triples.toLocaleString('en')} triples`;
      const when = view.when ? ` · ${formatDate(view.when)} ${escapeHtml(view.when.slice(11, 16))} UTC` : '';
      return `${words} ${escapeHtml(view.note ?? '')}${triples}${when}`;
    }
    case 'failed':
      return `${words} <span class="error-text">${escapeHtml(view.error ?? '')}</span> — ${escapeHtml(view.action ?? '')}`;
    case 'not-loaded':
      return `${words} — queries on this dataset answer an empty result until it is loaded.`;
    default:
      return words;
  }
}

/**
 * The Load forms' choice (`rows`, as triplestore_load's): the rows of each source (describe's
 * graph) besides the joined graphs. Unticked unless they are loaded now, as the spec loads.
 */
export function rowsChoice(id: string, ticked = false): string {
  return `<p class="check"><input id="${id}" name="rows" type="checkbox"${ticked ? ' checked' : ''}> <label for="${id}">with the measurements (rows): each table's values, so that queries reach them</label></p>`;
}

export function tripleStoreSection(context: PageContext, datasetPath: string, view: TripleStoreView): string {
  const endpoint = view.endpoint
    ? `<p>SPARQL endpoint: <a href="${escapeHtml(view.endpoint)}" class="endpoint">${escapeHtml(view.endpoint)}</a></p>`
    : '';
  const busy = view.state === 'queued' || view.state === 'running';
  const reports = validations(view);
  const failing = reports.filter((v) => v.conforms === false).map((v) => v.source);
  const warning = failing.length
    ? `<p class="notice warning" role="alert">Warning: the graph of ${escapeHtml(failing.join(', '))} does not conform to its shapes (see the SHACL validation below); Load loads it as it is.</p>`
    : '';
  const button = view.canLoad
    ? `<form method="post" action="${escapeHtml(datasetPath)}/triplestore/load" class="action-form">
          ${csrfField(context)}
          ${rowsChoice('load-rows', view.state === 'done' && view.withRows === true)}
          <button type="submit"${busy ? ' disabled' : ''}>${view.state === 'done' ? 'Load again' : 'Load into the triple store'}</button>
        </form>`
    : '';
  return `<section aria-labelledby="triplestore-heading" id="triplestore" class="steps-area" data-state="${view.state}">
        <h2 id="triplestore-heading">Triple store</h2>
        <p role="status">${stateLine(view)}</p>
        ${endpoint}
        ${warning}
        ${button}
        ${validationList(reports)}
      </section>`;
}

function options(items: { id: string; label: string }[], chosen: string | undefined): string {
  return items
    .map(
      (o) =>
        `<option value="${escapeHtml(o.id)}"${o.id === chosen ? ' selected' : ''}>${escapeHtml(o.label)}</option>`,
    )
    .join('');
}

export function plotSection(datasetPath: string, view: PlotView): string {
  const resources = options(
    view.resources.map((r) => ({ id: r.id, label: r.name })),
    view.resource,
  );
  const columns = view.columns.length === 0;
  const figure = view.pointsUrl
    ? `<figure class="plot" id="plot-figure" data-points="${escapeHtml(view.pointsUrl)}">
          <div id="plot-canvas" class="plot-canvas"></div>
          <figcaption><a href="${escapeHtml(view.pointsUrl)}" id="plot-json">The plotted points as JSON</a> (at most 2000 per curve, reduced from every row: each slice of the x range keeps its lowest and highest value)</figcaption>
        </figure>`
    : '';
  const pickers = columns
    ? '<p class="empty">This table has no numeric columns to plot.</p>'
    : `<div class="plot-pickers">
            <div><label for="plot-x">x axis</label><select id="plot-x" name="x">${options(view.columns, view.x)}</select></div>
            <div><label for="plot-y">y axis</label><select id="plot-y" name="y">${options(view.columns, view.y)}</select></div>
          </div>`;
  return `<section aria-labelledby="plot-heading" id="plot" class="steps-area">
        <h2 id="plot-heading">Plot</h2>
        ${view.refused ? `<p class="error" role="alert" id="plot-error">${escapeHtml(view.refused)}</p>` : ''}
        <form method="get" action="${escapeHtml(datasetPath)}#plot" class="plot-form" id="plot-form">
          <label for="plot-resource">Table</label>
          <select id="plot-resource" name="plot">${resources}</select>
          ${pickers}
          <p><button type="submit">Draw</button></p>
        </form>
        ${figure}
      </section>`;
}

/** The JSON points of a plot: the resource's plot route with the columns. */
export function pointsPath(resourcePath: string, x: string, y: string): string {
  const search = new URLSearchParams({ x, y });
  return `${resourcePath}/plot?${search.toString()}`;
}

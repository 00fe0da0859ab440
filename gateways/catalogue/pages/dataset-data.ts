// The dataset page's two views of its data: the triple store (its state, the SPARQL endpoint
// once loaded, the Load button for editors) and the plot of measured curves (a resource and two
// numeric columns, picked with a form that works without JavaScript; plot.js draws the points
// with uPlot, and without JavaScript the points are a link to their JSON).
import { escapeHtml, formatDate } from '../html.ts';
import type { PageContext, PlotView, TripleStoreView } from '../views.ts';
import { csrfField } from './layout.ts';

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
        ${button}
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

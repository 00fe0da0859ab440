// The dataset list (search, paging), a dataset's page (resources, who made each, chain steps),
// its upload form, and the `mappings` group page.
import { randomUUID } from 'node:crypto';
import { escapeHtml, formatDate, formatSize, pager, segment } from '../html.ts';
import type {
  DatasetListView,
  DatasetSummary,
  DatasetView,
  GroupView,
  Maker,
  NewDatasetView,
  PageContext,
  ResourceView,
  ResourcesView,
  UploadView,
} from '../views.ts';
import { csrfField, layout } from './layout.ts';
import { mappingGroup } from '../../../lib/catalogue/mapping-library.ts';
import { automationPath, renderAutomation } from './automation.ts';
import { plotSection, tripleStoreSection } from './dataset-data.ts';
import { librarySection } from './library.ts';

export function datasetPath(name: string): string {
  return `/dataset/${segment(name)}`;
}

export function resourcePath(dataset: string, id: string): string {
  return `${datasetPath(dataset)}/resource/${segment(id)}`;
}

function summaries(datasets: DatasetSummary[], empty: string): string {
  if (datasets.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  const items = datasets.map((d) => {
    const badge = d.private ? ' <span class="badge">Private</span>' : '';
    const description = d.description ? `<p>${escapeHtml(d.description)}</p>` : '';
    const organization = d.organization ? `${escapeHtml(d.organization)} · ` : '';
    const count = `${d.resourceCount} resource${d.resourceCount === 1 ? '' : 's'}`;
    return `<li class="dataset-item">
        <h2><a href="${escapeHtml(datasetPath(d.name))}">${escapeHtml(d.title)}</a>${badge}</h2>
        ${description}
        <p class="meta">${organization}${count} · updated ${formatDate(d.modified)}</p>
      </li>`;
  });
  return `<ul class="dataset-list">
      ${items.join('\n      ')}
    </ul>`;
}

export function renderDatasetList(context: PageContext, view: DatasetListView): string {
  const found =
    view.query === ''
      ? `${view.total} dataset${view.total === 1 ? '' : 's'}`
      : `${view.total} dataset${view.total === 1 ? '' : 's'} found for “${escapeHtml(view.query)}”`;
  const create = context.user ? `<p><a class="button" href="/dataset/new">New dataset</a></p>` : '';
  const main = `      <h1>Datasets</h1>
      ${create}
      <form class="search" role="search" method="get" action="/dataset">
        <label for="q">Search datasets</label>
        <div class="search-row">
          <input id="q" name="q" type="search" value="${escapeHtml(view.query)}">
          <button type="submit">Search</button>
        </div>
      </form>
      <p class="count" role="status">${found}</p>
      ${facetLists(view)}
      ${summaries(view.datasets, view.query === '' ? 'No datasets yet.' : 'No dataset matches the search.')}
      ${pager('/dataset', { q: view.query }, view.page, view.pageSize, view.total, 'Dataset pages')}`;
  return layout({ ...context, current: context.current ?? 'datasets' }, { title: 'Datasets' }, main);
}

/** The chain's facets: each value a search for it (`field:value`, the search box's syntax). */
function facetLists(view: DatasetListView): string {
  return (view.facets ?? [])
    .map((f) => {
      const items = f.items
        .map(
          (i) =>
            `<li><a href="/dataset?q=${encodeURIComponent(`${f.field}:${i.name}`)}">${escapeHtml(i.name)}</a> <span class="count">(${i.count})</span></li>`,
        )
        .join('');
      return `<nav class="facet" aria-label="${escapeHtml(f.title)}"><h2>${escapeHtml(f.title)}</h2><ul>${items}</ul></nav>`;
    })
    .join('');
}

export function makerText(maker: Maker): string {
  if (maker.kind === 'user') return `uploaded by ${escapeHtml(maker.name)}`;
  const chain = maker.chain ? ` of ${escapeHtml(maker.chain)}` : '';
  return `made by step <code>${escapeHtml(maker.step)}</code>${chain}`;
}

function resourceRows(dataset: string, resources: ResourceView[]): string {
  return resources
    .map(
      (r) => `<tr>
            <th scope="row"><a href="${escapeHtml(resourcePath(dataset, r.id))}">${escapeHtml(r.name)}</a></th>
            <td>${escapeHtml(r.format)}</td>
            <td class="num">${formatSize(r.size)}</td>
            <td>${makerText(r.madeBy)}, ${formatDate(r.created)}</td>
            <td>${
              r.link
                ? `<a href="${escapeHtml(r.link)}">Open<span class="visually-hidden"> ${escapeHtml(r.name)}</span></a>`
                : `<a href="${escapeHtml(r.downloadUrl)}" download>Download<span class="visually-hidden"> ${escapeHtml(r.name)}</span></a>`
            }</td>
          </tr>`,
    )
    .join('\n          ');
}

/** The fragment's path: the Resources section alone, which automation.js fetches when the steps changed. */
export const resourcesPath = (dataset: string) => `${datasetPath(dataset)}/resources`;

/** The Resources section's content: the table (or that there is none) and, for editors, Add a resource. */
export function renderResources(view: ResourcesView): string {
  const upload = view.canUpload
    ? `<p><a class="button" href="${escapeHtml(datasetPath(view.name))}/upload">Add a resource</a></p>`
    : '';
  const resources =
    view.resources.length === 0
      ? '<p class="empty">This dataset has no resources yet.</p>'
      : `<div class="table-scroll"><table class="data">
          <caption class="visually-hidden">Resources of ${escapeHtml(view.title)}</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Format</th><th scope="col" class="num">Size</th><th scope="col">Made</th><th scope="col"><span class="visually-hidden">Download</span></th></tr></thead>
          <tbody>
          ${resourceRows(view.name, view.resources)}
          </tbody>
        </table></div>`;
  return `<h2 id="resources-heading" tabindex="-1">Resources</h2>
        ${resources}
        ${upload}`;
}

const DCAT_ALTERNATES = [
  ['ttl', 'text/turtle'],
  ['jsonld', 'application/ld+json'],
  ['rdf', 'application/rdf+xml'],
] as const;

export function renderDataset(context: PageContext, view: DatasetView): string {
  // The Resources section follows the Automation section: when the steps change (a step made
  // its output, a source was deleted), automation.js fetches it again from data-live.
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> /</p>
      <h1>${escapeHtml(view.title)}${view.private ? ' <span class="badge">Private</span>' : ''}</h1>
      ${view.description ? `<p class="lead">${escapeHtml(view.description)}</p>` : ''}
      ${view.organization ? `<p class="meta">Organization: ${escapeHtml(view.organization)}</p>` : ''}
      <p class="button-row"><a class="button" href="${escapeHtml(datasetPath(view.name))}/query">Query</a>${view.canEdit ? ` <a class="button secondary" href="${escapeHtml(datasetPath(view.name))}/edit">Edit</a>` : ''}</p>
      <section id="resources" aria-labelledby="resources-heading" data-live="${escapeHtml(resourcesPath(view.name))}" data-live-follows="automation">
        ${renderResources(view)}
      </section>
      <section id="automation" aria-labelledby="steps-heading" class="steps-area" data-live="${escapeHtml(automationPath(view.name))}">
        ${renderAutomation(context, { dataset: view.name, steps: view.steps, ...(view.deadLetters ? { deadLetters: view.deadLetters } : {}) })}
      </section>
      ${view.triplestore ? tripleStoreSection(context, datasetPath(view.name), view.triplestore) : ''}
      ${view.plot ? plotSection(datasetPath(view.name), view.plot) : ''}`;
  // The dataset as DCAT (gateways/catalogue/dcat.ts), for harvesters that look for it here.
  const alternates = DCAT_ALTERNATES.map(([ext, type]) => ({
    href: `${datasetPath(view.name)}.${ext}`,
    type,
  }));
  const options = view.plot?.pointsUrl
    ? {
        title: view.title,
        scripts: ['automation.js', 'uPlot.iife.min.js', 'plot.js', 'triplestore.js'],
        styles: ['uPlot.min.css'],
        alternates,
      }
    : { title: view.title, scripts: ['automation.js', 'triplestore.js'], alternates };
  return layout({ ...context, current: context.current ?? 'datasets' }, options, main);
}

/** A new dataset's title and name inputs (ids `<prefix>-title`, `<prefix>-name`), as package_create checks the name. */
export function datasetNameFields(prefix: string, v: { title: string; name: string }): string {
  return `<label for="${prefix}-title">Title</label>
        <input id="${prefix}-title" name="title" type="text" maxlength="200" value="${escapeHtml(v.title)}">
        <label for="${prefix}-name">Name <span class="hint">(in its address: 2–100 lowercase letters, digits, - and _)</span></label>
        <input id="${prefix}-name" name="name" type="text" required minlength="2" maxlength="100" pattern="[a-z0-9_\\-]+" value="${escapeHtml(v.name)}">`;
}

export function renderNewDataset(context: PageContext, view: NewDatasetView): string {
  const v = view.values ?? { name: '', title: '', notes: '', private: false };
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> /</p>
      <h1>New dataset</h1>
      ${error}
      <form class="stacked narrow" method="post" action="/dataset/new">
        ${csrfField(context)}
        ${datasetNameFields('dataset', v)}
        <label for="dataset-notes">Description <span class="hint">(optional)</span></label>
        <textarea id="dataset-notes" name="notes" rows="4">${escapeHtml(v.notes)}</textarea>
        <p class="check"><input id="dataset-private" name="private" type="checkbox"${v.private ? ' checked' : ''}> <label for="dataset-private">Private: only its members can see it</label></p>
        <p><button type="submit">Create dataset</button></p>
      </form>`;
  return layout({ ...context, current: 'datasets' }, { title: 'New dataset' }, main);
}

export function renderUpload(context: PageContext, view: UploadView): string {
  const action = `${datasetPath(view.dataset.name)}/upload`;
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  // Without JavaScript the form posts and the server redirects; upload.js sends the same form
  // with XMLHttpRequest to show progress. `_idempotency`, one per form shown, makes a second
  // submit of the same form (a double click, a resent POST) answer the first upload's resource.
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> / <a href="${escapeHtml(datasetPath(view.dataset.name))}">${escapeHtml(view.dataset.title)}</a> /</p>
      <h1>Add a resource</h1>
      ${error}
      <form id="upload-form" class="stacked" method="post" action="${escapeHtml(action)}" enctype="multipart/form-data">
        ${csrfField(context)}
        <input type="hidden" name="_idempotency" value="${randomUUID()}">
        <label for="upload-description">Description <span class="hint">(optional)</span></label>
        <input id="upload-description" name="description" type="text">
        <label for="upload-file">File <span class="hint">(CSV, JSON, YARRRML, …)</span></label>
        <input id="upload-file" name="file" type="file" required>
        <div class="progress-row" id="upload-progress-row" hidden>
          <label for="upload-progress">Upload progress</label>
          <progress id="upload-progress" max="100" value="0">0%</progress>
          <output id="upload-status" for="upload-file" aria-live="polite"></output>
        </div>
        <p><button type="submit">Upload</button></p>
      </form>`;
  return layout(
    { ...context, current: context.current ?? 'datasets' },
    { title: `Add a resource to ${view.dataset.title}`, scripts: ['upload.js'] },
    main,
  );
}

export function renderGroup(context: PageContext, view: GroupView): string {
  const main = `      <h1>${escapeHtml(view.title)}</h1>
      ${view.description ? `<p class="lead">${escapeHtml(view.description)}</p>` : ''}
      ${view.library ? librarySection(context, view.library) : ''}
      ${summaries(view.datasets, 'No datasets in this group yet.')}`;
  const current = view.name === mappingGroup() ? 'mappings' : undefined;
  return layout({ ...context, current: context.current ?? current }, { title: view.title }, main);
}

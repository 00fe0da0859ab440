// A resource's page: what it is, who made it, its chain steps (a failed one first, in words with
// what to do), and the table preview of its datastore rows —
// sortable by each column header (a link), filtered per column (a GET form), paged. Works
// without JavaScript: every state is a URL.
import { escapeHtml, formatDate, formatSize, href, pager, segment } from '../html.ts';
import type { PageContext, ResourcePageView, TablePreviewView } from '../views.ts';
import { renderSteps } from './automation.ts';
import { datasetPath, makerText } from './datasets.ts';
import { layout } from './layout.ts';
import { renderFileView, renderViewSwitch } from './file-view.ts';

import { FILTER_PREFIX, MAX_PREFIX, MIN_PREFIX } from '../../../lib/datastore/table-query.ts';

export { FILTER_PREFIX, MAX_PREFIX, MIN_PREFIX };

/** The query parameters that reproduce a table state (page left out: it restarts at 1). */
export function tableParams(table: TablePreviewView): Record<string, string> {
  const params: Record<string, string> = {};
  if (table.sort) {
    params.sort = table.sort.column;
    params.order = table.sort.order;
  }
  if (table.q) params.q = table.q;
  for (const [column, text] of Object.entries(table.filters)) {
    if (text !== '') params[`${FILTER_PREFIX}${column}`] = text;
  }
  for (const [column, range] of Object.entries(table.ranges)) {
    if (range.min !== undefined) params[`${MIN_PREFIX}${column}`] = range.min;
    if (range.max !== undefined) params[`${MAX_PREFIX}${column}`] = range.max;
  }
  return params;
}

/** The link of a column header: ascending first, then the other way round. */
export function sortHref(path: string, table: TablePreviewView, column: string): string {
  const ascending = table.sort?.column === column && table.sort.order === 'asc';
  return href(path, { ...tableParams(table), sort: column, order: ascending ? 'desc' : 'asc' });
}

function header(path: string, table: TablePreviewView): string {
  return table.columns
    .map(({ name, type, unit }) => {
      const sorted = table.sort?.column === name ? table.sort.order : undefined;
      const ariaSort = sorted ? ` aria-sort="${sorted === 'asc' ? 'ascending' : 'descending'}"` : '';
      const arrow = sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : '';
      const next = sorted === 'asc' ? 'descending' : 'ascending';
      return `<th scope="col"${ariaSort}${type === 'number' ? ' class="num"' : ''}><a href="${sortHref(path, table, name)}">${escapeHtml(name)}${unit ? ` <span class="unit">[${escapeHtml(unit)}]</span>` : ''}<span aria-hidden="true">${arrow}</span><span class="visually-hidden"> (sort ${next})</span></a></th>`;
    })
    .join('');
}

function input(
  id: string,
  name: string,
  label: string,
  value: string,
  placeholder: string,
  numeric: boolean,
) {
  const kind = numeric ? ' inputmode="decimal"' : '';
  return `<label class="visually-hidden" for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${escapeHtml(name)}" type="search"${kind} value="${escapeHtml(value)}" placeholder="${placeholder}">`;
}

/** Per column: words for a text column; for a number column, its lowest and highest value. */
function filters(table: TablePreviewView): string {
  return table.columns
    .map(({ name, type }, index) => {
      if (type === 'text') {
        const value = table.filters[name] ?? '';
        return `<td>${input(`filter-${index}`, FILTER_PREFIX + name, `Filter ${name}`, value, 'Filter', false)}</td>`;
      }
      const range = table.ranges[name] ?? {};
      return `<td><div class="range">${input(`min-${index}`, MIN_PREFIX + name, `Lowest ${name}`, range.min ?? '', 'min', true)}${input(`max-${index}`, MAX_PREFIX + name, `Highest ${name}`, range.max ?? '', 'max', true)}</div></td>`;
    })
    .join('');
}

function cell(value: string | number | null, numeric: boolean): string {
  if (value === null)
    return `<td class="null${numeric ? ' num' : ''}"><span class="visually-hidden">empty</span></td>`;
  return `<td${numeric ? ' class="num"' : ''}>${escapeHtml(String(value))}</td>`;
}

export function renderTablePreview(path: string, table: TablePreviewView): string {
  const numeric = table.columns.map((c) => c.type === 'number');
  const body =
    table.rows.length === 0
      ? `<tr><td colspan="${table.columns.length}" class="empty">No rows match the filters.</td></tr>`
      : table.rows
          .map((row) => `<tr>${row.map((value, i) => cell(value, numeric[i] ?? false)).join('')}</tr>`)
          .join('\n            ');
  const first = table.total === 0 ? 0 : (table.page - 1) * table.pageSize + 1;
  const last = Math.min(table.total, table.page * table.pageSize);
  const hidden = table.sort
    ? `<input type="hidden" name="sort" value="${escapeHtml(table.sort.column)}"><input type="hidden" name="order" value="${table.sort.order}">`
    : '';
  const narrowed = Object.keys(table.filters).length + Object.keys(table.ranges).length > 0 || table.q;
  const clear = narrowed
    ? ` <a href="${href(path, table.sort ? { sort: table.sort.column, order: table.sort.order } : {})}">Clear filters</a>`
    : '';
  return `<form class="table-preview" method="get" action="${escapeHtml(path)}">
        ${hidden}
        <p class="table-actions table-search"><label for="preview-q">Search the table</label> <input id="preview-q" name="q" type="search" value="${escapeHtml(table.q ?? '')}"> <button type="submit">Apply filters</button>${clear}</p>
        <div class="table-scroll">
        <table class="data" id="preview">
          <caption>Rows ${first}–${last} of ${table.total}</caption>
          <thead>
            <tr>${header(path, table)}</tr>
            <tr class="filters">${filters(table)}</tr>
          </thead>
          <tbody>
            ${body}
          </tbody>
        </table>
        </div>
      </form>
      ${pager(path, tableParams(table), table.page, table.pageSize, table.total, 'Table pages')}`;
}

export function renderResource(context: PageContext, view: ResourcePageView): string {
  const { dataset, resource } = view;
  const path = `${datasetPath(dataset.name)}/resource/${segment(resource.id)}`;
  const steps = view.steps ?? [];
  const failed = steps.filter((s) => s.status === 'failed');
  const importFailed = failed.some((s) => s.step.endsWith(': import'));
  const preview = view.table
    ? `${view.views ? renderViewSwitch(path, view.views, 'table') : ''}${renderTablePreview(path, view.table)}`
    : `<p class="empty">No table preview: ${importFailed ? 'the import failed (see above).' : 'this resource has no rows in the datastore.'}</p>`;
  // A file shown as text or subjects; a CSV whose import failed still says why it has no table.
  const fileView = renderFileView(path, view);
  // A failed step in words at the top, where the user looks first; all steps below.
  const alerts = failed
    .map((s) => {
      const action = s.failure?.action ? `<br>What to do: ${escapeHtml(s.failure.action)}` : '';
      return `<p class="error" role="alert"><strong>${escapeHtml(s.step.replace(/^.*: /, ''))} failed</strong>: ${escapeHtml(s.failure?.detail ?? 'failed')}${action}</p>`;
    })
    .join('\n      ');
  const automation =
    steps.length === 0
      ? ''
      : `<section aria-labelledby="steps-heading">
        <h2 id="steps-heading">Automation</h2>
        ${renderSteps(context, { dataset: dataset.name, steps })}
      </section>`;
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> / <a href="${escapeHtml(datasetPath(dataset.name))}">${escapeHtml(dataset.title)}</a> /</p>
      <h1>${escapeHtml(resource.name)}</h1>
      <dl class="facts">
        <dt>Format</dt><dd>${escapeHtml(resource.format)}</dd>
        <dt>Size</dt><dd>${formatSize(resource.size)}</dd>
        <dt>Made</dt><dd>${makerText(resource.madeBy)}, ${formatDate(resource.created)}</dd>
      </dl>
      ${alerts}
      <p class="button-row"><a class="button" href="${escapeHtml(resource.downloadUrl)}" download>Download ${escapeHtml(resource.name)}</a>${view.canEdit ? ` <a class="button secondary" href="${escapeHtml(path)}/edit">Edit, replace or delete</a>` : ''}</p>
      ${automation}
      ${
        fileView
          ? `${importFailed && !view.table ? preview : ''}${fileView}`
          : `<section aria-labelledby="preview-heading">
        <h2 id="preview-heading">Table preview</h2>
        ${preview}
      </section>`
      }`;
  return layout({ ...context, current: context.current ?? 'datasets' }, { title: resource.name }, main);
}

// The mapping builder's page (issue 28): which upload, which template, then one labelled select
// per column (and metadata row) with the mapper's suggestions chosen first, and where to save the
// mapping. Plain forms: choosing a template is a GET of this page, saving a POST with the CSRF
// field that answers a redirect; no script is needed.
import { escapeHtml, href, segment } from '../html.ts';
import type { BuilderView } from '../mapping-source.ts';
import type { PageContext } from '../views.ts';
import { datasetPath, resourcePath } from './datasets.ts';
import { csrfField, layout } from './layout.ts';

export const builderPath = (group: string): string => `/group/${segment(group)}/mapping/new`;
export const builderPostPath = (group: string): string => `/group/${segment(group)}/mapping`;

const hidden = (name: string, value: string | undefined): string =>
  value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** The fields that say which data the page is for, carried by each of its forms. */
function dataFields(view: BuilderView): string {
  return view.source
    ? hidden('dataset', view.source.dataset) + hidden('resource', view.source.resourceId)
    : hidden('descriptor', view.descriptor);
}

function dataSection(view: BuilderView): string {
  if (view.source) {
    const s = view.source;
    return `<p>For <a href="${escapeHtml(resourcePath(s.dataset, s.resourceId))}">${escapeHtml(s.name)}</a> in <a href="${escapeHtml(datasetPath(s.dataset))}">${escapeHtml(s.datasetTitle)}</a>, from <a href="${escapeHtml(view.descriptor ?? '')}">its descriptor</a>.</p>`;
  }
  if (view.descriptor) {
    return `<p>For the descriptor <a href="${escapeHtml(view.descriptor)}">${escapeHtml(view.descriptor)}</a>.</p>`;
  }
  const waiting =
    view.waiting.length === 0
      ? '<p class="empty">No upload waits for a mapping.</p>'
      : `<p>These uploads wait for a mapping:</p><ul>${view.waiting
          .map(
            (w) =>
              `<li><a href="${href(builderPath(view.group), { dataset: w.dataset, resource: w.resourceId })}">${escapeHtml(w.name)}</a> <span class="meta">(${escapeHtml(w.dataset)})</span></li>`,
          )
          .join('')}</ul>`;
  return `${waiting}
      <form class="stacked narrow" method="get" action="${escapeHtml(builderPath(view.group))}">
        <label for="builder-descriptor">Or the URL of a CSVW descriptor</label>
        <input id="builder-descriptor" name="descriptor" type="url" required placeholder="https://…/example.csvw.json">
        <p><button type="submit">Use this descriptor</button></p>
      </form>`;
}

function templateSection(view: BuilderView): string {
  const offered = view.templates.map((t, i) => {
    const checked = t.url === view.template ? ' checked' : '';
    return `<p class="check"><input id="template-${i}" name="template" type="radio" value="${escapeHtml(t.url)}"${checked}> <label for="template-${i}">${escapeHtml(t.label)}</label></p>`;
  });
  const typed = view.template && !view.templates.some((t) => t.url === view.template) ? view.template : '';
  const list =
    offered.length > 0
      ? `<fieldset><legend>Templates of the library</legend>${offered.join('')}</fieldset>`
      : '<p class="empty">The library holds no template yet: give a template’s URL.</p>';
  return `<form class="stacked" method="get" action="${escapeHtml(builderPath(view.group))}">
        ${dataFields(view)}
        ${list}
        <label for="template-url">Or a template’s URL <span class="hint">(a Turtle file of owl:NamedIndividual slots)</span></label>
        <input id="template-url" name="template_url" type="url" value="${escapeHtml(typed)}" placeholder="https://…/template.ttl">
        <p><button type="submit">Use this template</button></p>
      </form>`;
}

function options(view: BuilderView, suggestions: string[], chosen: string): string {
  const rest = (view.individuals ?? []).filter((name) => !suggestions.includes(name));
  const option = (name: string, words: string) =>
    `<option value="${escapeHtml(name)}"${name === chosen ? ' selected' : ''}>${escapeHtml(words)}</option>`;
  return [
    `<option value=""${chosen === '' ? ' selected' : ''}>— not mapped —</option>`,
    ...suggestions.map((name) => option(name, `${name} (suggested)`)),
    ...rest.map((name) => option(name, name)),
  ].join('');
}

function choiceList(view: BuilderView, kind: 'column' | 'annotation', first: number): string {
  const choices = (view.choices ?? []).filter((c) => c.kind === kind);
  if (choices.length === 0) return '';
  const items = choices.map((c, i) => {
    const id = `map-${first + i}`;
    const chosen = view.chosen ? (view.chosen[c.entity] ?? '') : c.preselected;
    const hint =
      c.suggestions.length > 0
        ? `suggested: ${c.suggestions.map(escapeHtml).join(', ')}`
        : 'no suggestion: choose one, or leave it not mapped';
    return `<li>
            <label for="${id}">${escapeHtml(c.text)} <code class="meta">${escapeHtml(c.entity)}</code></label>
            <select id="${id}" name="map.${escapeHtml(c.entity)}" aria-describedby="${id}-hint">${options(view, c.suggestions, chosen)}</select>
            <p class="hint" id="${id}-hint">${hint}</p>
          </li>`;
  });
  const legend = kind === 'column' ? 'Columns' : 'Metadata rows';
  return `<fieldset><legend>${legend}</legend><ol class="mapping-choices">${items.join('')}</ol></fieldset>`;
}

function saveFields(context: PageContext, view: BuilderView): string {
  if (view.shelves.length === 0) {
    return `<p class="hint">No dataset of the library is open to you for adding: <a href="/group/${escapeHtml(segment(view.group))}#add-mapping">start one of your own</a>, then come back.</p>`;
  }
  const shelves = view.shelves
    .map(
      (s) =>
        `<option value="${escapeHtml(s.name)}"${s.name === view.shelf ? ' selected' : ''}>${escapeHtml(s.title)}</option>`,
    )
    .join('');
  return `${csrfField(context)}
        <label for="builder-shelf">Save into the library dataset</label>
        <select id="builder-shelf" name="shelf">${shelves}</select>
        <label for="builder-name">File name</label>
        <input id="builder-name" name="name" type="text" maxlength="200" value="${escapeHtml(view.fileName ?? '')}">
        <p><button type="submit">Save the mapping</button></p>`;
}

function choicesSection(context: PageContext, view: BuilderView): string {
  if (!view.choices) return '';
  const columns = view.choices.filter((c) => c.kind === 'column').length;
  return `<h2 id="columns-heading">3. Map each column</h2>
      <p class="hint">Each column (and metadata row) of the descriptor, with the template individuals the mapper suggests for it listed first; one whose name holds the column’s is chosen already. Check each choice; “not mapped” leaves it out of the mapping.</p>
      <form class="stacked" method="post" action="${escapeHtml(builderPostPath(view.group))}">
        ${dataFields(view)}
        ${hidden('template', view.template)}
        ${choiceList(view, 'column', 0)}
        ${choiceList(view, 'annotation', columns)}
        ${saveFields(context, view)}
      </form>`;
}

export function renderBuilder(context: PageContext, view: BuilderView): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const main = `      <h1>Make a mapping</h1>
      <p class="lead">A mapping links the columns of an upload to the individuals of a template; saved into the <a href="/group/${escapeHtml(segment(view.group))}">mapping library</a>, it converts this upload and every later one like it.</p>
      ${error}
      <h2>1. The data</h2>
      ${dataSection(view)}
      ${view.descriptor ? `<h2>2. The template</h2>\n      ${templateSection(view)}` : ''}
      ${choicesSection(context, view)}`;
  return layout({ ...context, current: 'mappings' }, { title: 'Make a mapping' }, main);
}

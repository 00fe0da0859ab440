// The mapping library's part of its group page (issue 28): each mapping with what it maps — the
// template it joins, the sources it reads, the template individuals and classes it links the
// data to — and the sources converted with it; then, for those who may, a form per library
// dataset to add a mapping (the dataset's own upload, so the chain and its checks are the same).
import { randomUUID } from 'node:crypto';
import { escapeHtml, segment } from '../html.ts';
import type { LibraryView, MappingView, PageContext } from '../views.ts';
import { csrfField } from './layout.ts';
import { datasetNameFields } from './datasets.ts';
import { builderPath } from './mapping-builder.ts';

/** An IRI shortened to what follows the template's URL (or its last segment), the whole IRI as its title. */
function iriItem(iri: string, template: string | undefined): string {
  const within = template && iri.startsWith(`${template}/`) ? iri.slice(template.length + 1) : undefined;
  const short = within ?? iri.replace(/^.*[/#](?=[^/#]+$)/, '');
  return `<li><code title="${escapeHtml(iri)}">${escapeHtml(short)}</code></li>`;
}

function iriList(label: string, iris: string[], template: string | undefined): string {
  if (iris.length === 0) return '';
  return `<dt>${label}</dt><dd><ul class="iri-list">${iris.map((i) => iriItem(i, template)).join('')}</ul></dd>`;
}

function usedBy(m: MappingView): string {
  if (m.usedBy.length === 0) return '<dd class="empty">no upload converted with it yet</dd>';
  const items = m.usedBy.map((u) => {
    const joined = u.joined
      ? ` → <a href="${escapeHtml(u.joined.href)}">${escapeHtml(u.joined.name)}</a>`
      : '';
    return `<li><a href="${escapeHtml(u.href)}">${escapeHtml(u.name)}</a> <span class="meta">(${escapeHtml(u.dataset)})</span>${joined}</li>`;
  });
  return `<dd><ul>${items.join('')}</ul></dd>`;
}

function mappingItem(m: MappingView): string {
  const facts = m.error
    ? `<p class="error">This mapping cannot be read: ${escapeHtml(m.error)}</p>`
    : `<dl class="mapping-facts">
          ${m.template ? `<dt>Template</dt><dd><a href="${escapeHtml(m.template)}">${escapeHtml(m.template)}</a></dd>` : ''}
          <dt>Reads</dt><dd>${m.sources.length > 0 ? escapeHtml(m.sources.join(', ')) : 'no declared source'}</dd>
          <dt>Rules</dt><dd>${m.rules}</dd>
          ${iriList('Links to', m.targets, m.template)}
          ${iriList('Classes', m.classes, m.template)}
          ${iriList('Predicates', m.predicates, m.template)}
          <dt>Used by</dt>${usedBy(m)}
        </dl>`;
  return `<li class="mapping-item">
        <h3><a href="${escapeHtml(m.href)}">${escapeHtml(m.name)}</a></h3>
        <p class="meta">in ${escapeHtml(m.datasetTitle)} · <a href="${escapeHtml(m.download)}">download</a></p>
        ${facts}
      </li>`;
}

function addForms(context: PageContext, view: LibraryView): string {
  if (!context.user) return '<p class="hint"><a href="/user/login">Log in</a> to add a mapping.</p>';
  if (view.shelves.length === 0) {
    // Nowhere to add: a dataset of the user's own joins the library (any user may make one).
    return `<p class="hint">No dataset of the library is open to you for adding: ask the admin of one of its datasets to make you an editor of it, or start a dataset of your own in the library.</p>
      <form class="stacked narrow" method="post" action="/group/${escapeHtml(segment(view.group))}/dataset">
        ${csrfField(context)}
        ${datasetNameFields('shelf', {
          title: `Mappings of ${context.user.name}`,
          name: `mappings-${context.user.name}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-'),
        })}
        <p><button type="submit">Start a library dataset</button></p>
      </form>`;
  }
  return view.shelves
    .map((shelf, i) => {
      const id = `mapping-file-${i}`;
      return `<form class="stacked" method="post" action="/dataset/${escapeHtml(segment(shelf.name))}/upload" enctype="multipart/form-data">
        ${csrfField(context)}
        <input type="hidden" name="_idempotency" value="${randomUUID()}">
        <label for="${id}">YARRRML mapping (.yaml) for ${escapeHtml(shelf.title)}</label>
        <input id="${id}" name="file" type="file" accept=".yaml,.yml" required>
        <p><button type="submit">Add the mapping</button></p>
      </form>`;
    })
    .join('\n      ');
}

/** The library's section of the group page. */
export function librarySection(context: PageContext, view: LibraryView): string {
  const waiting =
    view.waiting > 0
      ? `<p class="notice" role="status">${view.waiting} upload${view.waiting === 1 ? ' waits' : 's wait'} for a mapping: adding one that fits converts ${view.waiting === 1 ? 'it' : 'them'}.</p>`
      : '';
  const mappings =
    view.mappings.length === 0
      ? '<p class="empty">The library holds no mapping yet.</p>'
      : `<ul class="mapping-list">
      ${view.mappings.map(mappingItem).join('\n      ')}
    </ul>`;
  return `<section aria-labelledby="library-heading">
      <h2 id="library-heading">Mappings (${view.mappings.length})</h2>
      <p class="hint">Every upload's descriptor is checked against each mapping here; the one that fits best converts it into a joined graph.</p>
      ${waiting}
      ${mappings}
      <h2 id="add-mapping">Add a mapping</h2>
      ${context.user ? `<p><a href="${escapeHtml(builderPath(view.group))}">Make a mapping in the browser</a> from the columns of an upload, or upload a YARRRML file.</p>` : ''}
      ${addForms(context, view)}
    </section>
    <h2>Datasets of the library</h2>`;
}

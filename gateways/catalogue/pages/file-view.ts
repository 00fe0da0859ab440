// The views of a stored file on its resource page: the switch between them (links, every state a
// URL), its text with line numbers (each line an anchor `#L12`), and its graph's subjects.
import type { SubjectTable, TermView } from '../../../lib/rdf/subjects.ts';
import { escapeHtml, href, pager } from '../html.ts';
import type { FileViewName, ResourcePageView, TextView } from '../views.ts';
import { highlightLines, languageOf } from './highlight.ts';

const NAMES: Record<FileViewName, string> = { table: 'Table', text: 'Text', subjects: 'Subjects' };

/** The links between a file's views; the shown one marked as the current page. */
export function renderViewSwitch(path: string, views: FileViewName[], shown: FileViewName): string {
  if (views.length < 2) return '';
  const links = views.map((v) =>
    v === shown
      ? `<a aria-current="page" href="${href(path, { view: v })}">${NAMES[v]}</a>`
      : `<a href="${href(path, { view: v })}">${NAMES[v]}</a>`,
  );
  return `<nav class="view-switch" aria-label="Views of this file">${links.join('\n        ')}</nav>`;
}

export function renderText(path: string, text: TextView): string {
  const html = highlightLines(
    text.lines.map((l) => l.text),
    languageOf(text.fileName),
  );
  const rows = text.lines
    .map((line, i) => {
      const cut = line.cut
        ? ` <span class="cut">… ${line.cut} more characters (download the file)</span>`
        : '';
      return `<tr id="L${line.number}"><td class="ln"><a href="#L${line.number}">${line.number}</a></td><td><code>${html[i] ?? ''}</code>${cut}</td></tr>`;
    })
    .join('\n          ');
  const count = text.total ?? text.atLeast ?? 0;
  const of = text.total !== undefined ? `${text.total}` : `more than ${text.atLeast}`;
  const first = text.lines[0]?.number ?? 0;
  const last = text.lines.at(-1)?.number ?? 0;
  const caption = text.lines.length === 0 ? 'The file is empty.' : `Lines ${first}–${last} of ${of}`;
  // Past the counted lines the pager offers one page more, as far as the count went.
  const pages = text.total !== undefined ? count : Math.max(count, text.page * text.perPage + 1);
  return `<div class="code-scroll">
        <table class="code">
          <caption>${caption}${text.encoding === 'utf-8' ? '' : ` (read as ${text.encoding})`}</caption>
          ${rows}
        </table>
        </div>
      ${pager(path, { view: 'text' }, text.page, text.perPage, pages, 'Text pages')}`;
}

/** Where a link to a subject's row goes: on a file's table its page and anchor. */
type RowHref = (row: { page: number; anchor: string }) => string;
const tableRow: RowHref = (row) => `?view=subjects&page=${row.page}#${row.anchor}`;

function term(t: TermView, rowHref: RowHref = tableRow): string {
  if (t.kind === 'literal') {
    const tag = t.language ? `@${t.language}` : t.datatype ? ` (${t.datatype})` : '';
    return `<span class="literal">${escapeHtml(t.value)}</span>${tag ? `<span class="datatype">${escapeHtml(tag)}</span>` : ''}`;
  }
  const shown = escapeHtml(t.label ?? (t.kind === 'blank' ? `_:${t.value}` : t.value));
  const title = t.kind === 'iri' ? ` title="${escapeHtml(t.value)}"` : '';
  // A subject of this table: its row (on its page); another IRI: itself (labld's own resolve).
  if (t.row) return `<a href="${escapeHtml(rowHref(t.row))}"${title}>${shown}</a>`;
  if (t.kind === 'iri' && /^https?:\/\//i.test(t.value))
    return `<a href="${escapeHtml(t.value)}"${title}>${shown}</a>`;
  return `<span${title}>${shown}</span>`;
}

/** The subjects' sections (each with its anchor), their values linking to rows by `rowHref`. */
export function renderSubjectRows(table: SubjectTable, rowHref: RowHref = tableRow): string {
  const link = (t: TermView) => term(t, rowHref);
  return table.rows
    .map((row) => {
      const s = row.subject;
      const types = row.types.length ? `<p class="types">${row.types.map(link).join(', ')}</p>` : '';
      const props = row.properties
        .map(
          (p) =>
            `<tr><th scope="row">${link(p.predicate)}</th><td>${p.objects.map(link).join('<br>')}</td></tr>`,
        )
        .join('');
      const iri =
        s.kind === 'iri'
          ? `<p class="iri"><a href="${escapeHtml(s.value)}">${escapeHtml(s.value)}</a></p>`
          : '';
      return `<section class="subject" id="${escapeHtml(s.row.anchor)}">
          <h3>${escapeHtml(s.label ?? (s.kind === 'blank' ? `_:${s.value}` : s.value))}</h3>
          ${iri}${types}
          ${props ? `<table class="properties">${props}</table>` : ''}
        </section>`;
    })
    .join('\n        ');
}

export function renderSubjects(path: string, table: SubjectTable): string {
  const rows = renderSubjectRows(table);
  const first = table.total === 0 ? 0 : (table.page - 1) * table.perPage + 1;
  const last = Math.min(table.total, table.page * table.perPage);
  const partial = table.partial
    ? `<p class="note" role="note">Partial: ${escapeHtml(table.partial)}.</p>`
    : '';
  return `<p class="caption">Subjects ${first}–${last} of ${table.total} (${table.triples} triples)</p>
        ${partial}
        ${rows}
      ${pager(path, { view: 'subjects' }, table.page, table.perPage, table.total, 'Subject pages')}`;
}

/** The section of the file's views, or undefined when the file has none. */
export function renderFileView(path: string, view: ResourcePageView): string | undefined {
  if (!view.shown || !view.views) return undefined;
  const body = view.text
    ? renderText(path, view.text)
    : view.subjects
      ? renderSubjects(path, view.subjects)
      : undefined;
  if (body === undefined) return undefined;
  return `<section aria-labelledby="file-heading">
        <h2 id="file-heading">${view.text ? 'Text' : 'Subjects'}</h2>
        ${renderViewSwitch(path, view.views, view.shown)}
        ${body}
      </section>`;
}

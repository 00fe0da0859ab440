// The page of an IRI labld minted (a column, a row, a note of a CSV): what the dataset's graph
// says of it — its types and values, named by their labels — and where that was read, with
// links to its RDF.
import type { SubjectTable } from '../../../lib/rdf/subjects.ts';
import { escapeHtml } from '../html.ts';
import type { PageContext } from '../views.ts';
import { renderSubjectRows } from './file-view.ts';
import { layout } from './layout.ts';
import { datasetPath } from './datasets.ts';

export interface DescribedView {
  iri: string;
  dataset?: { name: string; title: string };
  /** Where the description was read, in words. */
  from: string;
  /** The IRI first, then the blank nodes of its values. */
  table: SubjectTable;
}

export function renderDescribed(context: PageContext, view: DescribedView): string {
  const title = view.table.rows[0]?.subject.label ?? view.iri;
  const dataset = view.dataset
    ? ` <a href="${escapeHtml(datasetPath(view.dataset.name))}">${escapeHtml(view.dataset.title)}</a> /`
    : '';
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> /${dataset}</p>
      <h1>${escapeHtml(title)}</h1>
      <p class="iri-line"><code>${escapeHtml(view.iri)}</code></p>
      <p class="note">Described from ${escapeHtml(view.from)}. As RDF: ask for <code>text/turtle</code> or <code>application/ld+json</code> in <code>Accept</code>.</p>
      ${renderSubjectRows(view.table, (row) => `#${row.anchor}`)}`;
  return layout({ ...context, current: context.current ?? 'datasets' }, { title }, main);
}

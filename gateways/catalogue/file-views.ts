// The views of a stored file on its resource's page, beside the table preview of its rows: its
// text (a page of lines, read from the blob as a stream) and, for a graph, the table of its
// subjects. Which views a file has follows from its name; the default is the most readable one.
import { stat } from 'node:fs/promises';
import { fileLines } from '../../lib/catalogue/file-lines.ts';
import { isGraphFile, subjectTable } from '../../lib/rdf/subjects.ts';
import { invalid } from '../../lib/process/errors.ts';
import type { TableQuery } from './source.ts';
import type { FileViewName, ResourcePageView } from './views.ts';

/** A graph up to this size opens on its subjects; a larger one on its text (the table reads only its start). */
export const SUBJECTS_FIRST_BYTES = 8 * 1024 * 1024;
/** Files shown as text, by extension (graphs, mappings, tables, the machines' text exports). */
const TEXT = /\.(ttl|nt|nq|n3|trig|jsonld|json|ya?ml|rdf|owl|xml|csv|tsv|txt|asc|dat)$/i;

export interface StoredFile {
  path: string;
  fileName: string;
  /** The file's own URL: the base its graph is read against. */
  url: string;
}

/** The views of the file, the one asked for (or the default), and its content for the page. */
export async function fileView(
  file: StoredFile | undefined,
  previewable: boolean,
  query: TableQuery,
): Promise<Pick<ResourcePageView, 'views' | 'shown' | 'text' | 'subjects'>> {
  const views: FileViewName[] = previewable ? ['table'] : [];
  const graph = file !== undefined && isGraphFile(file.fileName);
  if (graph) views.push('subjects');
  if (file !== undefined && (graph || TEXT.test(file.fileName))) views.push('text');
  if (views.length === 0) return {};
  const small = file !== undefined && (await stat(file.path)).size <= SUBJECTS_FIRST_BYTES;
  const fallback = previewable ? 'table' : graph && small ? 'subjects' : views[0]!;
  const shown = query.view ?? fallback;
  if (!views.includes(shown)) throw invalid(`view: this resource has no ${shown} view`, 'view');
  if (shown === 'text' && file) {
    const page = await fileLines(file.path, query.page);
    return { views, shown, text: { fileName: file.fileName, ...page } };
  }
  if (shown === 'subjects' && file) {
    return { views, shown, subjects: await subjectTable(file.path, file.fileName, file.url, query.page) };
  }
  return { views, shown };
}

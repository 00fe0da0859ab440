// What a dataset id, a graph IRI and a graph format must be, checked alike by both stores
// before anything is stored or sent.
import { invalid, unsupported } from '../process/errors.ts';
import { GRAPH_FORMATS, type GraphFormat } from './contract.ts';

/** CKAN's dataset ids and names: lower-case letters, digits, `-` and `_` (UUIDs included). */
const DATASET_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
/** Characters an IRI reference may not hold (RFC 3987 excludes them; Turtle cannot write them). */
const NOT_IN_IRI = new Set([...'<>"{}|^`\\ \t\n\r']);
const RESERVED = ['urn:labld:', 'urn:x-arq:'];

export function checkDatasetId(id: string): string {
  if (typeof id !== 'string' || !DATASET_ID.test(id)) {
    throw invalid('dataset_id: must be 1 to 100 letters, digits, - or _ (a CKAN dataset id)', 'dataset_id');
  }
  return id;
}

export function checkGraphIri(iri: string): string {
  const bad =
    typeof iri !== 'string' ||
    iri.length > 2000 ||
    !URL.canParse(iri) ||
    [...iri].some((c) => NOT_IN_IRI.has(c) || c.charCodeAt(0) < 0x20);
  if (bad) throw invalid("graph: must be an absolute IRI (the resource's download URL)", 'graph');
  if (RESERVED.some((prefix) => iri.startsWith(prefix)))
    throw invalid(`graph: <${iri}> is reserved`, 'graph');
  return iri;
}

export function checkFormat(format: string): GraphFormat {
  if (!(GRAPH_FORMATS as readonly string[]).includes(format)) {
    throw unsupported(`format: ${format} cannot be loaded (one of ${GRAPH_FORMATS.join(', ')})`, 'format');
  }
  return format as GraphFormat;
}

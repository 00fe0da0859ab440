// The IRI scheme of records, the original's (`<NS><kind>/<id>`, research §3.5) with NS =
// `{extractor_url}/`, so that `{extractor_url}/object/<permId>` is both the record's IRI and
// where it is served. Ids are percent-encoded per path segment (a file path keeps its slashes).
import { invalid } from '../../process/errors.ts';

export const KINDS = [
  'object',
  'dataset',
  'distribution',
  'collection',
  'project',
  'space',
  'instance',
  'user',
  'class',
  'object_property',
  'search',
] as const;
export type RecordKind = (typeof KINDS)[number];

const segments = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/** A property code as the original put it in IRIs: `$` and `:` removed. */
export const propertyLocalName = (code: string): string => code.replace(/[$:]/g, '');

export class RecordIris {
  /** `{extractor_url}/`, ending with a slash. */
  readonly ns: string;

  constructor(extractorUrl: string) {
    this.ns = extractorUrl.replace(/\/+$/, '') + '/';
  }

  /** The service itself: what records are `prov:wasGeneratedBy`. */
  get service(): string {
    return this.ns.replace(/\/$/, '');
  }

  of(kind: Exclude<RecordKind, 'distribution' | 'instance' | 'search'>, id: string): string {
    const local = kind === 'object_property' ? propertyLocalName(id) : id;
    return `${this.ns}${kind}/${encodeURIComponent(local)}`;
  }

  distribution(dataSetPermId: string, path: string): string {
    return `${this.ns}distribution/${encodeURIComponent(dataSetPermId)}/${segments(path)}`;
  }

  /** Where a file's bytes are served: its record with `?download=1`. */
  download(dataSetPermId: string, path: string): string {
    return `${this.distribution(dataSetPermId, path)}?download=1`;
  }

  instance(): string {
    return `${this.ns}instance/`;
  }

  search(query: string): string {
    return `${this.ns}search/?query=${encodeURIComponent(query)}`;
  }

  /** A data store, as the original named it: `<NS><code>`. */
  dataStore(code: string): string {
    return `${this.ns}${encodeURIComponent(code)}`;
  }

  /**
   * A permanent-identifier node. File identifiers are scoped by their data set, so two data
   * sets' `original/data.csv` no longer share one node (a defect of the original, §3.10).
   */
  permanentId(value: string, scope?: string): string {
    const local =
      scope === undefined ? encodeURIComponent(value) : `${encodeURIComponent(scope)}/${segments(value)}`;
    return `${this.ns}permanentidentifier/${local}`;
  }

  /** What record an IRI under NS names, or undefined for any other IRI. */
  parse(iri: string): { kind: RecordKind; id: string; path?: string } | undefined {
    if (!iri.startsWith(this.ns)) return undefined;
    const rest = iri.slice(this.ns.length).split(/[?#]/)[0] ?? '';
    const [kind = '', ...parts] = rest.split('/');
    if (!(KINDS as readonly string[]).includes(kind)) return undefined;
    let decoded: string[];
    try {
      decoded = parts.map(decodeURIComponent);
    } catch {
      throw invalid(`${iri} is not a well-formed record IRI`, 'iri');
    }
    if (kind === 'distribution') {
      const [id = '', ...path] = decoded;
      return { kind, id, path: path.join('/') };
    }
    return { kind: kind as RecordKind, id: decoded.join('/') };
  }
}

// Reading the document a client names (a CSVW descriptor or a template graph): through the
// loader the consumer hands in, in whatever RDF syntax it is written, told apart by content
// type, file name and the text itself.
import type { Quad } from 'n3';
import { invalid } from '../process/errors.ts';
import { guessFormat, parse, type RdfFormat } from '../rdf/index.ts';
import type { Loader } from '../loader.ts';

export interface RdfDocument {
  /** The URL as the client gave it: the original names namespaces and sources after it. */
  url: string;
  format: RdfFormat;
  text: string;
  quads: Quad[];
  /** Prefixes the document declares (the original reads a `base` prefix from them). */
  prefixes: Record<string, string>;
}

/** Parses already fetched text; `hints` choose the syntax when the text alone does not. */
export async function readDocument(
  url: string,
  text: string,
  hints: { contentType?: string; fileName?: string; field: string },
): Promise<RdfDocument> {
  const format = guessFormat({ contentType: hints.contentType, name: hints.fileName ?? url, text });
  const prefixes: Record<string, string> = {};
  const quads = await parse(text, format, {
    baseIRI: url,
    field: hints.field,
    onPrefix: (prefix, namespace) => {
      prefixes[prefix] = namespace;
    },
  });
  // Blank text, an HTML page read as markup, …: nothing to list or map, so say so.
  if (quads.length === 0) {
    throw invalid(`${hints.field}: the document holds no RDF statements (read as ${format})`, hints.field);
  }
  return { url, format, text, quads, prefixes };
}

/** Loads `url` (named by the request field `field`) and parses it. */
export async function loadDocument(url: string, field: string, load: Loader): Promise<RdfDocument> {
  const source = await load(url, field);
  return readDocument(url, source.text, {
    contentType: source.contentType,
    fileName: source.fileName,
    field,
  });
}

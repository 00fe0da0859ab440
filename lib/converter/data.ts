// The data a mapping runs over, as the converter reads it: JSON (a CSVW descriptor or a raw
// JSON payload) is used as is; any other RDF (a Turtle descriptor, …) is turned into
// expanded JSON-LD, as the original did with rdflib's default serialisation (research §3.4
// step 7, §3.6 step 2), so JSONPath iterators see the same document.
import jsonld from 'jsonld';
import type { Quad } from 'n3';
import { invalid } from '../process/errors.ts';
import { LimitError, parseJson } from '../limits.ts';
import { guessFormat, parse, parseJsonLdDocument, serialize } from '../rdf/index.ts';

import type { Loaded } from '../loader.ts';
export type { Loaded, Loader } from '../loader.ts';

export interface DataDocument {
  /** The parsed JSON the iterators run over. */
  json: unknown;
  /** The same as JSON text, handed to the RML engine as the source's content. */
  text: string;
  /** The data as RDF when it was RDF (or JSON-LD), for the entities' quantity values; read on demand. */
  quads(): Promise<Quad[]>;
  /** Whether the data came as non-JSON RDF (then its graph joins the output, as in the original). */
  fromRdf: boolean;
}

/** The original's 422 for data it could not read, naming the field once. */
export const failure = (field: string, error: unknown) => {
  const message = (error instanceof Error ? error.message : String(error)).replace(`${field}: `, '');
  return invalid(`${field}: could not access or parse the data source: ${message}`, field);
};

/** Reads the data; JSON-LD is also read as RDF (quietly: plain JSON has no triples). */
export async function readData(loaded: Loaded, field: string): Promise<DataDocument> {
  const text = loaded.text.replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  let notJson: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let json: unknown;
    try {
      json = parseJson(text, field);
    } catch (error) {
      if (error instanceof LimitError) throw error;
      // `[` opens a JSON array but also a Turtle blank node (`[] a ex:T .`): maybe RDF.
      if (!trimmed.startsWith('[')) throw failure(field, error);
      notJson = error;
    }
    if (notJson === undefined) {
      let rdf: Promise<Quad[]> | undefined;
      const quads = () =>
        (rdf ??= hasContext(json)
          ? parseJsonLdDocument(json, { baseIRI: loaded.url, field }).catch(() => [] as Quad[]) // unusable @context: still JSON
          : Promise.resolve([]));
      return { json, text, quads, fromRdf: false };
    }
  }
  let quads: Quad[];
  try {
    quads = await readGraph({ ...loaded, text }, field);
  } catch (error) {
    if (notJson === undefined) throw failure(field, error);
    const reason = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(`${field}: `, '');
    throw failure(field, `neither JSON (${reason(notJson)}) nor RDF (${reason(error)})`);
  }
  const expanded = await jsonld.fromRDF(await serialize(quads, 'nquads'), { format: 'application/n-quads' });
  return {
    json: expanded as unknown,
    text: JSON.stringify(expanded),
    quads: async () => quads,
    fromRdf: true,
  };
}

/** A loaded document as RDF, in the syntax its content, Content-Type and name tell. */
export async function readGraph(loaded: Loaded, field: string): Promise<Quad[]> {
  const format = guessFormat({ contentType: loaded.contentType, name: loaded.url, text: loaded.text });
  return parse(loaded.text, format, { baseIRI: loaded.url, field });
}

function hasContext(json: unknown): boolean {
  const first = Array.isArray(json) ? json[0] : json;
  return typeof first === 'object' && first !== null && '@context' in first;
}

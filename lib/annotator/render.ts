// renderDescriptor(): the descriptor as a download in any return_type. json-ld is the
// descriptor itself (4-space indent, non-ASCII escaped, as the original wrote it); the other
// seven go JSON-LD → quads (bundled CSVW context, never fetched) → lib/rdf. The original
// answered 500 for nt, trig and hext and served n3 as application/n-triples.
import { parse, returnTypeInfo, serialize } from '../rdf/index.ts';
import type { Descriptor } from './descriptor.ts';
import { csvNames, downloadName } from './names.ts';

export interface Rendered {
  body: string;
  contentType: string;
  filename: string;
}

export interface RenderOptions {
  /** json-ld download name from annotate(); by default derived from the descriptor's @id. */
  metadataFileName?: string;
}

const CSVW_PREFIXES = { csvw: 'http://www.w3.org/ns/csvw#' };

/** JSON as Python's json.dumps(indent=4) writes it: non-ASCII as \uXXXX escapes. */
function pythonStyleJson(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export async function renderDescriptor(
  descriptor: Descriptor,
  returnType: unknown = 'json-ld',
  options: RenderOptions = {},
): Promise<Rendered> {
  const info = returnTypeInfo(returnType);
  const metadataFileName = options.metadataFileName ?? csvNames(descriptor['@id']).metadataFileName;
  const filename = downloadName(metadataFileName, info.format);
  if (info.format === 'json-ld') {
    return { body: `${pythonStyleJson(descriptor)}\n`, contentType: info.contentType, filename };
  }
  const quads = await parse(JSON.stringify(descriptor), 'json-ld', { baseIRI: descriptor['@id'] });
  const prefixes: Record<string, string> = { ...CSVW_PREFIXES };
  for (const [name, iri] of Object.entries(descriptor['@context'][1])) {
    if (name !== 'label') prefixes[name] = iri;
  }
  const body = await serialize(quads, info.format, { prefixes });
  return { body, contentType: info.contentType, filename };
}

// Translations of a YARRRML mapping that do not run it: to RML Turtle (yarrrmltorml) and to
// its normalised YAML (normalizeyarrrml, research §3.11). Both read the mapping with the
// converter's checks first (YAML, alias bombs, a mappings block), so bad input is a 422.
import { normalizeYarrrmlText, yarrrmlToRml } from '../rml/index.ts';
import { DomainError } from '../process/errors.ts';
import { readYarrrmlMapping } from './mapping.ts';
import { yarrrmlToSparql } from './sparql.ts';

export interface TextDownload {
  body: string;
  filename: string;
}

const stem = (fileName: string) => (fileName || 'mapping').replace(/\.ya?ml$/i, '');

/** RML in Turtle, named `<mapping>-rml.ttl` (the original kept `.yml` in the name). */
export async function yarrrmlToRmlText(text: string, fileName: string): Promise<TextDownload> {
  const mapping = readYarrrmlMapping(text);
  let body: string;
  try {
    body = await yarrrmlToRml(mapping.document);
  } catch (error) {
    if (error instanceof DomainError)
      throw new DomainError(error.kind, `mapping_url: ${error.message}`, 'mapping_url');
    throw error;
  }
  return { body, filename: `${stem(fileName)}-rml.ttl` };
}

/** The branch's text-level rewrite of two-line nested lists; the result must be a mapping. */
export function normalizeYarrrml(text: string, fileName: string, field = 'file'): TextDownload {
  const body = normalizeYarrrmlText(text);
  readYarrrmlMapping(body, field);
  return { body, filename: `${stem(fileName)}.yaml` };
}

/** The SELECT reading the mapping's values back from its output (`<mapping>.sparql`). */
export function yarrrmlToSparqlText(text: string, fileName: string): TextDownload {
  return { body: yarrrmlToSparql(text), filename: `${stem(fileName)}.sparql` };
}

// The template graph a mapping joins (research §3.4 steps 10–11): fetched from the mapping's
// `template:` prefix (or `method:`, which the spec names and the original dropped), its own
// base or empty namespace re-pointed at that prefix, and every IRI under the prefix made
// relative to the output document (`template:SpecimenID` → `<#SpecimenID>`).
import type * as RDF from '@rdfjs/types';
import { DataFactory, type Quad } from 'n3';
import { DomainError, causeOf, invalid, type ErrorKind } from '../process/errors.ts';
import { UpstreamError } from '../fetch/errors.ts';
import { guessFormat, parse } from '../rdf/index.ts';
import type { Loaded, Loader } from './data.ts';

export interface TemplateGraph {
  /** The prefix value as written in the mapping (what prov names). */
  namespace: string;
  quads: Quad[];
  prefixes: Record<string, string>;
}

const TURTLE_FAMILY = new Set(['turtle', 'longturtle', 'trig', 'n3', 'nt']);

/**
 * Why a template could not be loaded, as a kind: its host down or slow (no answer, a 5xx, 408
 * or 429) stays `unreachable` or `upstream-timeout`, which trying again later may mend (the
 * chain retries those); anything else (a 404, a refused address) is the mapping's to correct.
 */
function templateKind(error: unknown): ErrorKind {
  if (!(error instanceof DomainError)) return 'invalid';
  if (error.kind === 'upstream-timeout') return error.kind;
  if (error.kind !== 'unreachable') return 'invalid';
  if (!(error instanceof UpstreamError)) return 'unreachable';
  const status = error.upstreamStatus;
  return status >= 500 || status === 408 || status === 429 ? 'unreachable' : 'invalid';
}

/**
 * Fetches the template. The prefix value usually ends in `/` (the template URL plus '/'); the
 * URL without it is tried first (hosts other than GitHub 404 on the slash), then as written.
 */
export async function loadTemplate(
  namespace: string,
  load: Loader,
  field = 'mapping_url',
): Promise<TemplateGraph> {
  const candidates = [...new Set([namespace.replace(/\/+$/, ''), namespace])].filter(Boolean);
  let loaded: Loaded | undefined;
  let firstError: unknown;
  for (const url of candidates) {
    try {
      loaded = await load(url, field);
      break;
    } catch (error) {
      firstError ??= error;
    }
  }
  if (!loaded) {
    const detail = `${field}: could not load the template graph from ${namespace}: ${causeOf(firstError, field)}`;
    throw new DomainError(templateKind(firstError), detail, field);
  }
  const format = guessFormat({ contentType: loaded.contentType, name: loaded.url, text: loaded.text });
  const prefixes: Record<string, string> = {};
  let quads: Quad[];
  try {
    quads = await parse(loaded.text, format, {
      baseIRI: loaded.url,
      field,
      // Only Turtle-family prefixes: they re-point the template's own namespace and name the output's.
      onPrefix: TURTLE_FAMILY.has(format)
        ? (prefix, iri) => {
            prefixes[prefix] = iri;
          }
        : undefined,
    });
  } catch (error) {
    throw invalid(
      `${field}: the template graph at ${namespace} could not be parsed: ${causeOf(error, field)}`,
      field,
    );
  }
  // The template's own namespace (empty prefix) stands for the template URL: re-point it.
  const own = prefixes[''] ?? prefixes['base'];
  if (own && own !== namespace) quads = quads.map((q) => renameQuad(q, own, namespace));
  delete prefixes[''];
  delete prefixes['base'];
  return { namespace, quads, prefixes };
}

function renameTerm<T extends RDF.Term>(term: T, from: string, to: string): T {
  if (term.termType === 'NamedNode' && term.value.startsWith(from)) {
    return DataFactory.namedNode(to + term.value.slice(from.length)) as unknown as T;
  }
  return term;
}

/** The quad with IRIs under `from` moved under `to`. */
export function renameQuad(quad: Quad, from: string, to: string): Quad {
  return DataFactory.quad(
    renameTerm(quad.subject, from, to),
    renameTerm(quad.predicate, from, to),
    renameTerm(quad.object, from, to),
    quad.graph,
  );
}

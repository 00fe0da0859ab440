// YARRRML → RML through @rmlio/yarrrml-parser, the reference translator. The YAML is read
// by js-yaml first and handed to the parser as JSON: the parser's own YAML reader (yamljs)
// silently drops two-line nested lists (`- - p` / `  - o`), which hand-authored seed mappings
// use; JSON is YAML it reads correctly.
import { createRequire } from 'node:module';
import yaml from 'js-yaml';
import { maxDepth, yamlDepthError } from '../limits.ts';
import type { Quad } from 'n3';
import { Writer } from 'n3';
import { mappingError } from './errors.ts';
import { MappingGraph } from './graph.ts';
import { readRmlMapping } from './mapping.ts';
import type { Mapping } from './model.ts';

interface ParserLogEntry {
  level: string;
  message: unknown;
}

interface Generator {
  convert(yarrrml: string | { yarrrml: string; file?: string }[]): Quad[];
  getPrefixes(): Record<string, string>;
}

const require = createRequire(import.meta.url);
const RMLGenerator = require('@rmlio/yarrrml-parser/lib/rml-generator') as new (
  options?: object,
) => Generator;
const parserLog = require('@rmlio/yarrrml-parser/lib/logger') as {
  clear(): void;
  getAll(): ParserLogEntry[];
};
// The parser logs through js-logger to the console; its messages are read from its log instead.
(require('js-logger') as { setHandler(handler: () => void): void }).setHandler(() => {});

export interface YarrrmlOptions {
  /**
   * Refuse the translation when the parser logs an error (default true). The parser still
   * emits RML in some of those cases (e.g. a mapping without source); the original service
   * ignored them, which left users guessing why nothing came out.
   */
  strict?: boolean;
  /** Emit rr:class instead of rdf:type predicate-object maps (parser option `class`). */
  class?: boolean;
  /** Emit the parser's void/dcterms metadata block (default false). */
  includeMetadata?: boolean;
  /** Values for external references `$(_name)`. */
  externalReferences?: Record<string, string>;
}

/**
 * Reads YARRRML text (YAML) into a plain object; YAML errors are client errors. Nesting past
 * LABLD_MAX_DEPTH is a 422 naming `field` and the variable: js-yaml counts depth as it reads
 * (its own default stops at 100, which says nothing of labld's limit).
 */
export function readYarrrml(text: string, field = 'mapping'): Record<string, unknown> {
  let document: unknown;
  const limit = maxDepth();
  try {
    document = yaml.load(text.replace(/\r\n?/g, '\n'), { maxDepth: limit } as yaml.LoadOptions);
  } catch (error) {
    throw (
      yamlDepthError(error, field, limit) ??
      mappingError(`The mapping is not valid YAML: ${yamlProblem(error)}`)
    );
  }
  if (document === null || document === undefined) return {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw mappingError('A YARRRML mapping must be a YAML mapping (key: value), not a list or a scalar');
  }
  return document as Record<string, unknown>;
}

/**
 * js-yaml's complaint and where, without the lines of the document its message quotes: a fetched
 * document must never come back in an error (a URL naming an internal page would read it out).
 */
function yamlProblem(error: unknown): string {
  if (!(error instanceof yaml.YAMLException)) return (error as Error).message;
  const { reason, mark } = error as yaml.YAMLException & { mark?: { line: number; column: number } };
  return mark ? `${reason} (line ${mark.line + 1}, column ${mark.column + 1})` : reason;
}

/** The YARRRML `base`, if the document sets one (`'#'` means: relative to the output document). */
export function yarrrmlBase(document: Record<string, unknown>): string | undefined {
  return typeof document.base === 'string' ? document.base : undefined;
}

/** Translates YARRRML (text or documents already read) to RML quads (legacy vocabulary). */
export function yarrrmlToRmlQuads(
  yarrrml: string | Record<string, unknown> | (string | Record<string, unknown>)[],
  options: YarrrmlOptions = {},
): { quads: Quad[]; prefixes: Record<string, string>; messages: string[] } {
  const documents = (Array.isArray(yarrrml) ? yarrrml : [yarrrml]).map((d) =>
    typeof d === 'string' ? readYarrrml(d) : d,
  );
  const generator = new RMLGenerator({
    class: options.class ?? false,
    includeMetadata: options.includeMetadata ?? false,
    externalReferences: options.externalReferences ?? {},
  });
  parserLog.clear();
  let quads: Quad[];
  try {
    quads = generator.convert(
      documents.map((d, i) => ({ yarrrml: JSON.stringify(d), file: `document ${i + 1}` })),
    );
  } catch (error) {
    throw mappingError(`The YARRRML mapping cannot be translated: ${(error as Error).message}`);
  }
  const logged = parserLog.getAll();
  const text = (e: ParserLogEntry) =>
    `${e.level}: ${typeof e.message === 'string' ? e.message : JSON.stringify(e.message)}`;
  const errors = logged.filter((entry) => entry.level.toLowerCase() === 'error');
  if (errors.length > 0 && options.strict !== false) {
    throw mappingError(`The YARRRML mapping cannot be translated: ${errors.map(text).join('; ')}`);
  }
  // The parser can leave a term undefined (e.g. a mapping naming an unknown source).
  const broken = quads.find((q) => !q.subject || !q.predicate || !q.object);
  if (broken) {
    const where = [broken.subject, broken.predicate].map((t) => t?.value ?? '?').join(' ');
    throw mappingError(
      `The YARRRML mapping cannot be translated: the parser left a term undefined (${where} …)`,
    );
  }
  return { quads, prefixes: generator.getPrefixes() ?? {}, messages: logged.map(text) };
}

/** Translates YARRRML to RML as Turtle text (what `yarrrmltorml` returns). */
export async function yarrrmlToRml(
  yarrrml: string | Record<string, unknown>,
  options: YarrrmlOptions = {},
): Promise<string> {
  const { quads, prefixes } = yarrrmlToRmlQuads(yarrrml, options);
  const writer = new Writer({ prefixes });
  writer.addQuads(quads);
  return new Promise((resolve, reject) =>
    writer.end((error, result: string) => (error ? reject(error) : resolve(result))),
  );
}

/** Translates YARRRML straight into the engine's mapping model. */
export function yarrrmlToMapping(
  yarrrml: string | Record<string, unknown>,
  options: YarrrmlOptions = {},
): Mapping {
  return readRmlMapping(new MappingGraph(yarrrmlToRmlQuads(yarrrml, options).quads));
}

/**
 * The text-level normalisation of the seed's `/api/normalizeyarrrml` (branch 89cc968): a
 * two-element block list written `- - a` / `  - b` becomes `- [a, b]`; a list with a third
 * element is left alone; everything else (comments, quoting) is kept byte for byte.
 */
export function normalizeYarrrmlText(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const first = /^(\s*)- - (.*)$/.exec(lines[i]!);
    const second = first && new RegExp(`^${first[1]}  - (.*)$`).exec(lines[i + 1] ?? '');
    const third = first && new RegExp(`^${first[1]}  - `).test(lines[i + 2] ?? '');
    if (first && second && !third) {
      out.push(`${first[1]}- [${first[2]}, ${second[1]}]`);
      i += 1;
    } else {
      out.push(lines[i]!);
    }
  }
  return out.join('\n');
}

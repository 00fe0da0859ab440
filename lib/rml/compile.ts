// Compiles term maps into generators: record → N-Triples term(s). Everything that can be
// decided from the mapping alone (constants, template literal parts, term types, whether a
// template can only yield absolute IRIs) is decided here, so the per-record work is reading
// values and concatenating strings. A generator returns one term, several, or null.
import { compileExecution, type ValueGen } from './compile-function.ts';
import { isWellTyped } from './datatypes.ts';
import { compileGather, type Collections } from './gather.ts';
import { mappingError, placed } from './errors.ts';
import type { FunctionContext, FunctionRegistry } from './functions/registry.ts';
import type { ConstantTerm, ExpressionMap, FunctionExecution, TermMap, TermType } from './model.ts';
import type { SourceReader, Value, Values } from './sources.ts';
import { parseTemplate } from './template.ts';
import {
  blankTerm,
  hasScheme,
  iriSafe,
  uriSafe,
  iriTerm,
  isLanguageTag,
  isValidIri,
  lexicalForm,
  literalTerm,
} from './terms.ts';
import { RML, XSD_BOOLEAN, XSD_DOUBLE, XSD_INTEGER } from './vocab.ts';

export type TermGen = (record: unknown) => string | string[] | null;

type Encoding = 'iri' | 'uri' | 'none';

export interface CompileContext {
  reader: SourceReader;
  functions: FunctionRegistry;
  functionContext: FunctionContext;
  baseIri: string;
  /** Fresh blank nodes (subject maps without expression). */
  fresh(): string;
  /** Ill-typed literals are errors (new RML) rather than dropped (legacy engines). */
  strictLiterals: boolean;
  /** The legacy profile (RMLMapper): JSON numbers and booleans become plain literals. */
  legacy: boolean;
  /** References may name missing CSV columns (legacy function inputs). */
  optionalReferences?: boolean;
  /**
   * A data error in a term: throws it (new RML, `strict`), or counts it and skips the term
   * (legacy RML, as RMLMapper) — then it returns null, which the caller yields for the term.
   */
  dataError(message: string): null;
  /** Where gather maps put the collections they make (RML-CC). */
  collections: Collections;
}

function constantToTerm(term: ConstantTerm): string {
  if (term.termType === 'iri') return term.value === `${RML}defaultGraph` ? '' : iriTerm(term.value);
  if (term.termType === 'blank') return blankTerm(term.value);
  return literalTerm(term.value, term.datatype, term.language);
}

/** Raw values of an expression map (for function inputs, join keys, datatype and language maps). */
export function compileValues(
  map: ExpressionMap,
  ctx: CompileContext,
  encoding: Encoding = 'none',
  flatten = false,
): ValueGen {
  const gen = compileBare(map, ctx, encoding, flatten);
  if (!map.condition) return gen;
  const condition = compileCondition(map.condition, ctx);
  return (record) => (condition(record) ? gen(record) : null);
}

function compileBare(
  map: ExpressionMap,
  ctx: CompileContext,
  encoding: Encoding,
  flatten: boolean,
): ValueGen {
  const expression = map.expression;
  switch (expression.kind) {
    case 'constant': {
      const value = expression.term.value;
      return () => value;
    }
    case 'reference':
      return placed({ field: 'rml:reference' }, () =>
        ctx.reader.reference(expression.reference, flatten, ctx.optionalReferences),
      );
    case 'template':
      return placed({ field: `rml:template ${JSON.stringify(expression.template)}, reference` }, () =>
        compileTemplate(expression.template, ctx, encoding),
      );
    case 'function':
      return compileFunction(expression.execution, ctx);
    default:
      return () => null;
  }
}

function compileFunction(execution: FunctionExecution, ctx: CompileContext): ValueGen {
  // RMLMapper gives a function input that names a missing column no value (RMLFNOTC0007).
  const inputs = ctx.legacy ? { ...ctx, optionalReferences: true } : ctx;
  return compileExecution(execution, ctx.functions, ctx.functionContext, (value) => {
    return compileValues(value, inputs, templateEncoding((value as Partial<TermMap>).termType), true);
  });
}

/** How template values are encoded for a term type: IRI-safe, URI-safe, or not at all (UnsafeIRI, literals). */
function templateEncoding(termType: TermType | undefined): Encoding {
  return termType === 'iri' ? 'iri' : termType === 'uri' ? 'uri' : 'none';
}

function compileCondition(execution: FunctionExecution, ctx: CompileContext): (record: unknown) => boolean {
  const gen = compileFunction(execution, ctx);
  return (record) => {
    const result = gen(record);
    const first = Array.isArray(result) ? result[0] : result;
    return first === true || first === 'true';
  };
}

function compileTemplate(text: string, ctx: CompileContext, encoding: Encoding): ValueGen {
  const { literals, references } = parseTemplate(text);
  const refs = references.map((r) => ctx.reader.reference(r));
  const transform = encoding === 'iri' ? iriSafe : encoding === 'uri' ? uriSafe : (s: string) => s;
  if (refs.length === 1) {
    const [before, after] = literals as [string, string];
    const ref = refs[0]!;
    return (record) => {
      const value = ref(record);
      if (value === null) return null;
      if (!Array.isArray(value)) return before + transform(lexicalForm(value)) + after;
      return value.map((v) => before + transform(lexicalForm(v)) + after);
    };
  }
  return (record) => {
    let results = [literals[0]!];
    for (let i = 0; i < refs.length; i += 1) {
      const value = refs[i]!(record);
      if (value === null) return null;
      const values = Array.isArray(value) ? value : [value];
      const next: string[] = [];
      for (const prefix of results) {
        for (const v of values) next.push(prefix + transform(lexicalForm(v)) + literals[i + 1]!);
      }
      results = next;
    }
    return results.length === 1 ? results[0]! : results;
  };
}

/** Applies `make` to one value or each of several. */
function mapValues(values: Values, make: (value: Value) => string | null): string | string[] | null {
  if (values === null) return null;
  if (!Array.isArray(values)) return make(values);
  const terms: string[] = [];
  for (const value of values) {
    const term = make(value);
    if (term !== null) terms.push(term);
  }
  return terms.length === 0 ? null : terms.length === 1 ? terms[0]! : terms;
}

export function compileTermMap(map: TermMap, ctx: CompileContext): TermGen {
  if (map.gather) return compileGather(map, map.gather, ctx);
  const expression = map.expression;
  if (expression.kind === 'constant') {
    const term = constantToTerm(expression.term);
    if (!map.condition) return () => term;
    const condition = compileCondition(map.condition, ctx);
    return (record) => (condition(record) ? term : null);
  }
  if (expression.kind === 'none') return () => ctx.fresh();
  const values = compileValues(
    map,
    ctx,
    expression.kind === 'template' ? templateEncoding(map.termType) : 'none',
  );
  switch (map.termType) {
    case 'iri':
    case 'uri':
    case 'unsafe-iri':
      return compileIri(map, values, ctx);
    case 'blank':
      return (record) => mapValues(values(record), (v) => blankTerm(lexicalForm(v)));
    default:
      return compileLiteral(map, values, ctx);
  }
}

/**
 * The values of a term map whose terms are simple literals of its values (`"…"`, a CSV
 * column's usual object map), for a sink that quotes them itself (QuadSink.literal): no term
 * string per value. A value that is no string (a JSON number) still takes the term map's
 * generator. Undefined for every other map.
 */
export function compileSimpleLiterals(map: TermMap, ctx: CompileContext): ValueGen | undefined {
  const kind = map.expression.kind;
  if (map.termType !== 'literal' || (kind !== 'reference' && kind !== 'template')) return undefined;
  if (map.gather || map.condition || map.languageMap || map.datatypeMap) return undefined;
  return compileValues(map, ctx);
}

function compileIri(map: TermMap, values: ValueGen, ctx: CompileContext): TermGen {
  const baseIri = ctx.baseIri;
  const unsafe = map.termType === 'unsafe-iri';
  if (map.expression.kind === 'template') {
    const { literals } = parseTemplate(map.expression.template);
    // Values in an IRI template are IRI-safe, so only the literal parts can make it invalid
    // (UnsafeIRI values are not encoded and still need escaping for N-Triples).
    if (hasScheme(literals[0]!)) {
      if (unsafe) return (record) => mapValues(values(record), (v) => iriTerm(v as string));
      if (isValidIri(literals.join('')))
        return (record) => mapValues(values(record), (v) => `<${v as string}>`);
    }
  }
  const make = (value: Value): string | null => {
    const lexical = lexicalForm(value);
    const absolute = hasScheme(lexical) ? lexical : baseIri + lexical;
    if (!unsafe && !isValidIri(absolute)) {
      return ctx.dataError(`${JSON.stringify(absolute)} (from ${describeMap(map)}) is not a valid IRI`);
    }
    return iriTerm(absolute);
  };
  return (record) => mapValues(values(record), make);
}

/** A value as a literal of its own type (new RML: JSON numbers and booleans are typed). */
function naturalLiteral(value: Value): string {
  if (typeof value === 'string') return literalTerm(value);
  if (typeof value === 'boolean') return literalTerm(String(value), XSD_BOOLEAN);
  return literalTerm(String(value), Number.isInteger(value) ? XSD_INTEGER : XSD_DOUBLE);
}

function compileLiteral(map: TermMap, values: ValueGen, ctx: CompileContext): TermGen {
  const e = map.expression;
  const natural = e.kind === 'reference' || (e.kind === 'function' && !e.execution.old);
  if (map.languageMap) {
    const languages = compileValues(map.languageMap, ctx);
    return (record) => {
      const tags = languages(record);
      if (tags === null) return null;
      const tagList = Array.isArray(tags) ? tags : [tags];
      const terms: string[] = [];
      for (const tag of tagList.map(lexicalForm)) {
        if (!isLanguageTag(tag)) {
          ctx.dataError(`"${tag}" (from ${describeMap(map)}) is not a valid language tag`);
          continue;
        }
        const made = mapValues(values(record), (v) => literalTerm(lexicalForm(v), undefined, tag));
        if (made !== null) terms.push(...(Array.isArray(made) ? made : [made]));
      }
      return terms.length === 0 ? null : terms.length === 1 ? terms[0]! : terms;
    };
  }
  if (map.datatypeMap) {
    const datatypes = compileTermMap({ ...(map.datatypeMap as TermMap), termType: 'iri' }, ctx);
    return (record) => {
      const types = datatypes(record);
      if (types === null) return null;
      const terms: string[] = [];
      for (const type of Array.isArray(types) ? types : [types]) {
        const iri = type.slice(1, -1);
        const made = mapValues(values(record), (v) => typedLiteral(lexicalForm(v), iri, map, ctx));
        if (made !== null) terms.push(...(Array.isArray(made) ? made : [made]));
      }
      return terms.length === 0 ? null : terms.length === 1 ? terms[0]! : terms;
    };
  }
  // RMLMapper writes JSON numbers as plain literals ("10"); RML-Core types them.
  const make = natural && !ctx.legacy ? naturalLiteral : (v: Value) => literalTerm(lexicalForm(v));
  return (record) => mapValues(values(record), make);
}

function typedLiteral(lexical: string, datatype: string, map: TermMap, ctx: CompileContext): string | null {
  if (isWellTyped(lexical, datatype)) return literalTerm(lexical, datatype);
  if (!ctx.strictLiterals) return null;
  return ctx.dataError(`"${lexical}" (from ${describeMap(map)}) is not a valid <${datatype}>`);
}

function describeMap(map: ExpressionMap): string {
  const e = map.expression;
  if (e.kind === 'reference') return `reference "${e.reference}"`;
  if (e.kind === 'template') return `template "${e.template}"`;
  if (e.kind === 'function') return `function <${e.execution.function}>`;
  return map.node;
}

export function checkGraphTerm(term: string, map: TermMap): void {
  if (term.startsWith('_:') || term.startsWith('"')) {
    throw mappingError(`${describeMap(map)} generates ${term}, but a graph must be an IRI`);
  }
}

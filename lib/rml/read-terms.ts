// Reads expression and term maps: constant / reference / template / function (new FnML
// `rml:functionExecution`, old FnML `fnml:functionValue` + `fno:executes`), term types by
// position, datatype and language maps, conditions. Cardinality and position rules of RML-Core
// are checked here, so a bad mapping fails before any data is read.
import type { Term } from 'n3';
import { mappingError } from './errors.ts';
import { describe, nodeId, type MappingGraph } from './graph.ts';
import type {
  GatherMap,
  ConstantTerm,
  Expression,
  ExpressionMap,
  FunctionExecution,
  TermMap,
  TermType,
} from './model.ts';
import { hasScheme, isLanguageTag } from './terms.ts';
import { FNML, FNO, FNO_HTTP, RDF, RML } from './vocab.ts';

export type Position =
  'subject' | 'predicate' | 'object' | 'graph' | 'datatype' | 'language' | 'input' | 'join';

const TERM_TYPES: Record<string, TermType> = {
  [`${RML}IRI`]: 'iri',
  [`${RML}URI`]: 'uri',
  [`${RML}UnsafeIRI`]: 'unsafe-iri',
  [`${RML}BlankNode`]: 'blank',
  [`${RML}Literal`]: 'literal',
};

const ALLOWED: Record<Position, TermType[]> = {
  subject: ['iri', 'uri', 'unsafe-iri', 'blank'],
  predicate: ['iri', 'uri', 'unsafe-iri'],
  object: ['iri', 'uri', 'unsafe-iri', 'blank', 'literal'],
  graph: ['iri', 'uri', 'unsafe-iri'],
  datatype: ['iri', 'uri', 'unsafe-iri'],
  language: ['literal'],
  input: ['iri', 'uri', 'unsafe-iri', 'blank', 'literal'],
  join: ['iri', 'uri', 'unsafe-iri', 'blank', 'literal'],
};

function constantTerm(term: Term): ConstantTerm {
  if (term.termType === 'NamedNode') return { termType: 'iri', value: term.value };
  if (term.termType === 'BlankNode') return { termType: 'blank', value: term.value };
  if (term.termType === 'Literal') {
    return {
      termType: 'literal',
      value: term.value,
      datatype: term.datatype.value,
      language: term.language || undefined,
    };
  }
  throw mappingError(`Unsupported constant term ${term.value}`);
}

export class TermReader {
  private readonly graph: MappingGraph;

  constructor(graph: MappingGraph) {
    this.graph = graph;
  }

  /** A term map given either as a map node (`rml:objectMap`) or a constant shortcut (`rml:object`). */
  termMaps(owner: string, mapProperty: string, shortcut: string, position: Position): TermMap[] {
    const maps = this.graph.objects(owner, `${RML}${mapProperty}`).map((m) => this.termMap(m, position));
    return [...maps, ...this.shortcuts(owner, shortcut, position)];
  }

  /** The constant shortcut (`rml:object x` ≡ `rml:objectMap [ rml:constant x ]`). */
  shortcuts(owner: string, shortcut: string, position: Position): TermMap[] {
    return this.graph
      .objects(owner, `${RML}${shortcut}`)
      .map((constant) => this.shortcutMap(owner, constant, position));
  }

  private shortcutMap(owner: string, constant: Term, position: Position): TermMap {
    const term = this.checkConstant(owner, constantTerm(constant), position, undefined);
    return {
      node: owner,
      expression: { kind: 'constant', term },
      termType: term.termType,
      explicitTermType: false,
    };
  }

  termMap(term: Term, position: Position): TermMap {
    if (term.termType === 'Literal')
      throw mappingError(`A ${position} map must be a node, not the literal "${term.value}"`);
    const id = nodeId(term);
    if (this.graph.has(id, `${RML}logicalTarget`)) {
      throw mappingError(
        `${describe(id)} names a logical target (RML-IO), which this engine does not support`,
      );
    }
    const base = this.expressionMap(id, position);
    const explicit = this.graph.one(id, `${RML}termType`, 'term types');
    let termType: TermType;
    if (explicit) {
      const known = TERM_TYPES[explicit.value];
      // RMLMapper accepts a literal graph map (and writes nothing for it): legacy mappings too.
      const legacyLiteralGraph = position === 'graph' && known === 'literal' && this.graph.isLegacyNode(id);
      if (!known || (!ALLOWED[position].includes(known) && !legacyLiteralGraph)) {
        throw mappingError(
          `${describe(id)}: term type <${explicit.value}> is not allowed in a ${position} map`,
        );
      }
      termType = known;
    } else {
      termType = this.defaultTermType(id, base.expression, position);
    }
    const map: TermMap = { ...base, termType, explicitTermType: explicit !== undefined };
    if (base.expression.kind === 'constant') {
      map.expression = {
        kind: 'constant',
        term: this.checkConstant(id, base.expression.term, position, explicit),
      };
      map.termType = map.expression.term.termType;
    }
    if (position === 'object' || position === 'input') this.readLiteralOptions(id, map);
    const gather = this.graph.one(id, `${RML}gather`, 'gather lists');
    if (gather) {
      if (position !== 'subject' && position !== 'object')
        throw mappingError(`${describe(id)}: a gather map must be a subject or object map`);
      map.gather = this.gatherMap(id, gather);
      // A collection is named by an IRI or is a blank node, never a literal.
      if (map.expression.kind === 'none') map.termType = 'blank';
      else if (!explicit && map.termType === 'literal') map.termType = 'iri';
    }
    return map;
  }

  private gatherMap(id: string, list: Term): GatherMap {
    const as = this.graph.one(id, `${RML}gatherAs`, 'gatherAs')?.value.replace(RDF, '');
    if (as !== 'List' && as !== 'Bag' && as !== 'Seq' && as !== 'Alt')
      throw mappingError(`${describe(id)}: rml:gatherAs must be rdf:List, rdf:Bag, rdf:Seq or rdf:Alt`);
    const members = this.graph.list(list).map((member) => {
      if (this.graph.has(nodeId(member), `${RML}parentTriplesMap`))
        throw mappingError(
          `${describe(id)} gathers the objects of a referencing object map, which this engine does not support`,
        );
      return this.termMap(member, 'object');
    });
    const strategy = this.graph.one(id, `${RML}strategy`, 'strategies')?.value;
    if (strategy !== undefined && strategy !== `${RML}append` && strategy !== `${RML}cartesianProduct`)
      throw mappingError(`${describe(id)}: rml:strategy must be rml:append or rml:cartesianProduct`);
    const allowEmpty = this.graph.one(id, `${RML}allowEmptyListAndContainer`, 'allowEmptyListAndContainer');
    return {
      members,
      as,
      cartesian: strategy === `${RML}cartesianProduct`,
      allowEmpty: allowEmpty?.value === 'true',
    };
  }

  private defaultTermType(id: string, expression: Expression, position: Position): TermType {
    if (position === 'language' || position === 'join') return 'literal';
    if (position === 'subject') return expression.kind === 'none' ? 'blank' : 'iri';
    if (position === 'object' || position === 'input') {
      if (expression.kind === 'reference' || expression.kind === 'function') return 'literal';
      const hasLiteralOptions = ['language', 'languageMap', 'datatype', 'datatypeMap'].some((p) =>
        this.graph.has(id, `${RML}${p}`),
      );
      if (hasLiteralOptions || position === 'input') return 'literal';
    }
    return 'iri';
  }

  /**
   * Constants must suit the position. A string constant with term type IRI is an IRI (the
   * YARRRML parser writes `~iri` constants and function names that way), and so is, in legacy
   * mappings, a string constant that is an absolute IRI where only an IRI can stand.
   */
  private checkConstant(
    id: string,
    term: ConstantTerm,
    position: Position,
    explicit: Term | undefined,
  ): ConstantTerm {
    const needsIri =
      position !== 'object' && position !== 'input' && position !== 'join' && position !== 'language';
    const explicitIri =
      explicit !== undefined && ['iri', 'uri', 'unsafe-iri'].includes(TERM_TYPES[explicit.value] ?? '');
    if (
      term.termType === 'literal' &&
      hasScheme(term.value) &&
      (explicitIri || (needsIri && this.graph.legacy && !explicit))
    ) {
      return { termType: 'iri', value: term.value };
    }
    if (!needsIri || term.termType === 'iri') return term;
    if (position === 'graph' && this.graph.isLegacyNode(id)) return term; // written nowhere (RMLMapper)
    throw mappingError(
      `${describe(id)}: the constant ${JSON.stringify(term.value)} of a ${position} map must be an IRI`,
    );
  }

  private readLiteralOptions(id: string, map: TermMap): void {
    const language = this.optionalMap(id, 'languageMap', 'language', 'language');
    const datatype = this.optionalMap(id, 'datatypeMap', 'datatype', 'datatype');
    if ((language || datatype) && map.termType !== 'literal') {
      throw mappingError(`${describe(id)}: only literal term maps can have a language or a datatype`);
    }
    if (language && datatype) throw mappingError(`${describe(id)} has both a language and a datatype`);
    if (language?.expression.kind === 'constant' && !isLanguageTag(language.expression.term.value)) {
      throw mappingError(`${describe(id)}: "${language.expression.term.value}" is not a valid language tag`);
    }
    map.languageMap = language;
    map.datatypeMap = datatype;
  }

  private optionalMap(
    id: string,
    mapProperty: string,
    shortcut: string,
    position: Position,
  ): TermMap | undefined {
    const maps = this.termMaps(id, mapProperty, shortcut, position);
    if (maps.length > 1)
      throw mappingError(`${describe(id)} has ${maps.length} ${shortcut} maps; one is allowed`);
    return maps[0];
  }

  /** constant / reference / template / function, exactly one of them (or none). */
  expressionMap(id: string, position: Position): ExpressionMap {
    const found: Expression[] = [];
    const one = (property: string) => this.graph.one(id, `${RML}${property}`, property);
    const constant = one('constant');
    if (constant) found.push({ kind: 'constant', term: constantTerm(constant) });
    const reference = one('reference');
    if (reference) found.push({ kind: 'reference', reference: reference.value });
    const template = one('template');
    if (template) found.push({ kind: 'template', template: template.value });
    const execution = this.functionOf(id);
    if (execution) found.push({ kind: 'function', execution });
    if (found.length > 1)
      throw mappingError(`${describe(id)} has more than one of constant, reference, template, function`);
    const map: ExpressionMap = { node: id, expression: found[0] ?? { kind: 'none' } };
    // A gather map without expression makes a blank node collection.
    const gathers = this.graph.has(id, `${RML}gather`);
    // A blank node object map without expression is a fresh node per iteration, as for subjects
    // (RMLMapper; the YARRRML parser writes it for `o: {type: blank}`).
    const freshObject =
      position === 'object' &&
      this.graph.one(id, `${RML}termType`, 'term types')?.value === `${RML}BlankNode`;
    if (found.length === 0 && position !== 'subject' && !freshObject && !gathers) {
      throw mappingError(
        `${describe(id)} (a ${position} map) has no rml:constant, rml:reference, rml:template or function`,
      );
    }
    const condition = one('condition');
    if (condition) map.condition = this.conditionOf(condition);
    return map;
  }

  private conditionOf(term: Term): FunctionExecution {
    const inner = this.expressionMap(nodeId(term), 'input');
    if (inner.expression.kind !== 'function') {
      throw mappingError(`${describe(nodeId(term))}: an rml:condition must be a function execution`);
    }
    return inner.expression.execution;
  }

  private functionOf(id: string): FunctionExecution | undefined {
    const execution = this.graph.one(id, `${RML}functionExecution`, 'function executions');
    if (execution) {
      const result = this.newExecution(nodeId(execution));
      const output = this.graph.one(id, `${RML}return`, 'returns') ?? this.constantOf(id, 'returnMap');
      if (output) result.output = output.value;
      return result;
    }
    const value = this.graph.one(id, `${FNML}functionValue`, 'function values');
    return value ? this.oldExecution(nodeId(value)) : undefined;
  }

  private constantOf(id: string, mapProperty: string): Term | undefined {
    const map = this.graph.one(id, `${RML}${mapProperty}`, mapProperty);
    if (!map) return undefined;
    const constant = this.graph.one(nodeId(map), `${RML}constant`, 'constants');
    if (!constant)
      throw mappingError(`${describe(nodeId(map))}: only a constant ${mapProperty} is supported`);
    return constant;
  }

  /** New FnML: `rml:function` + `rml:input [ rml:parameter …; rml:inputValueMap … ]`. */
  private newExecution(id: string): FunctionExecution {
    const fn = this.graph.one(id, `${RML}function`, 'functions') ?? this.constantOf(id, 'functionMap');
    if (!fn) throw mappingError(`${describe(id)} (a function execution) names no rml:function`);
    const inputs = this.graph.objects(id, `${RML}input`).map((input) => {
      const inputId = nodeId(input);
      const parameter =
        this.graph.one(inputId, `${RML}parameter`, 'parameters') ?? this.constantOf(inputId, 'parameterMap');
      if (!parameter) throw mappingError(`${describe(inputId)} (a function input) names no rml:parameter`);
      const valueMap = this.graph.one(inputId, `${RML}inputValueMap`, 'input value maps');
      const constant = this.graph.one(inputId, `${RML}inputValue`, 'input values');
      if (!valueMap && !constant) throw mappingError(`${describe(inputId)} (a function input) has no value`);
      const value: ExpressionMap = valueMap
        ? this.termMap(valueMap, 'input')
        : { node: inputId, expression: { kind: 'constant', term: constantTerm(constant!) } };
      return { parameter: parameter.value, value };
    });
    return { function: fn.value, inputs };
  }

  /** Old FnML: a triples-map-like node whose `fno:executes` POM names the function. */
  private oldExecution(id: string): FunctionExecution {
    let fn: string | undefined;
    const inputs: FunctionExecution['inputs'] = [];
    for (const pom of this.graph.objects(id, `${RML}predicateObjectMap`)) {
      const pomId = nodeId(pom);
      const predicates = this.termMaps(pomId, 'predicateMap', 'predicate', 'predicate');
      const objects = [
        ...this.graph.objects(pomId, `${RML}objectMap`).map((o) => this.termMap(o, 'input')),
        ...this.graph.objects(pomId, `${RML}object`).map((o): ExpressionMap => {
          return { node: pomId, expression: { kind: 'constant', term: constantTerm(o) } };
        }),
      ];
      for (const predicate of predicates) {
        if (predicate.expression.kind !== 'constant') {
          throw mappingError(`${describe(pomId)}: function parameters must be constant predicates`);
        }
        const parameter = predicate.expression.term.value;
        if (parameter === `${FNO}executes` || parameter === `${FNO_HTTP}executes`) {
          const named = objects[0]?.expression;
          if (objects.length !== 1 || named?.kind !== 'constant') {
            throw mappingError(`${describe(pomId)}: fno:executes must name one constant function`);
          }
          fn = named.term.value;
        } else {
          for (const value of objects) inputs.push({ parameter, value });
        }
      }
    }
    if (!fn) throw mappingError(`${describe(id)} (a function value) has no fno:executes`);
    return { function: fn, inputs, old: true };
  }
}

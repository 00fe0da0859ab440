// A triples map compiled against one source reader: the per-record routine that emits its
// quads and counts its statistics. Constant parts (predicates, classes, graphs) are turned
// into terms once; the record loop only evaluates what depends on the record.
import {
  checkGraphTerm,
  compileSimpleLiterals,
  compileTermMap,
  compileValues,
  type CompileContext,
  type TermGen,
} from './compile.ts';
import type { ValueGen } from './compile-function.ts';
import type { PredicateObjectMap, RefObjectMap, TermMap, TriplesMap } from './model.ts';
import type { Collections } from './gather.ts';
import type { QuadSink } from './sink.ts';
import type { RuleStatistics } from './stats.ts';
import { iriTerm, lexicalForm } from './terms.ts';
import { RDF_TYPE } from './vocab.ts';

/** Parent subjects by join key; built by the executor before the child source is read. */
export type ParentIndex = Map<string, string[]>;

export interface JoinPlan {
  rom: RefObjectMap;
  /** Parent subject computed from the child's own record (same source, no join condition). */
  sameRecord?: TermGen;
  childKeys?: ValueGen[];
  index?: ParentIndex;
}

interface PomPlan {
  predicates: TermGen[];
  objects: TermGen[];
  /** Per object map, its values when its terms are simple literals of them (compileSimpleLiterals). */
  literals: (ValueGen | undefined)[];
  joins: JoinPlan[];
  /** Constant graphs, or generators when a graph depends on the record. */
  graphs: string[] | TermGen[];
  graphsConstant: boolean;
}

const TYPE = iriTerm(RDF_TYPE);
const DEFAULT_GRAPHS = [''];

function isConstant(map: TermMap): boolean {
  return map.expression.kind === 'constant' && !map.condition;
}

/** A graph term of a legacy literal graph map: the quads meant for it are not written. */
const NO_GRAPH = '\u0000';

function graphGens(maps: TermMap[], ctx: CompileContext): TermGen[] {
  return maps.map((map) => {
    const gen = compileTermMap(map, ctx);
    return (record) => {
      const g = gen(record);
      if (g === null) return null;
      if (ctx.legacy && map.termType === 'literal') return NO_GRAPH;
      for (const term of Array.isArray(g) ? g : [g]) checkGraphTerm(term, map);
      return g;
    };
  });
}

/** The graphs to write into: none when every graph map named a literal (legacy). */
function withoutLiteralGraphs(graphs: string[]): string[] {
  return graphs.includes(NO_GRAPH) ? graphs.filter((g) => g !== NO_GRAPH) : graphs;
}

function collect(gens: TermGen[], record: unknown, into: string[]): void {
  for (const gen of gens) {
    const t = gen(record);
    if (t === null) continue;
    if (Array.isArray(t)) into.push(...t);
    else into.push(t);
  }
}

/** The key of a tuple of join values (several values per side: any combination matches). */
export function joinKeys(gens: ValueGen[], record: unknown): string[] {
  let keys = [''];
  for (let i = 0; i < gens.length; i += 1) {
    const values = gens[i]!(record);
    if (values === null) return [];
    const list = Array.isArray(values) ? values : [values];
    const next: string[] = [];
    for (const key of keys)
      for (const v of list) next.push(i === 0 ? lexicalForm(v) : `${key}\u0000${lexicalForm(v)}`);
    keys = next;
  }
  return keys;
}

export class TriplesMapPlan {
  readonly stats: RuleStatistics;
  /** The triples map's name, for errors. */
  readonly rule: string;
  private readonly sink: QuadSink;
  private readonly subject: TermGen;
  private readonly subjectGraphs: TermGen[];
  private readonly classes: string[];
  private readonly poms: PomPlan[];
  /** Gather maps' collections, when the triples map has any. */
  private readonly collections: Collections | undefined;

  constructor(
    tm: TriplesMap,
    ctx: CompileContext,
    sink: QuadSink,
    stats: RuleStatistics,
    joins: JoinPlan[][],
  ) {
    this.stats = stats;
    this.rule = tm.name;
    this.sink = sink;
    this.subject = compileTermMap(tm.subjectMap, ctx);
    this.subjectGraphs = graphGens(tm.subjectMap.graphMaps, ctx);
    this.classes = tm.subjectMap.classes.map(iriTerm);
    const gathers =
      tm.subjectMap.gather !== undefined ||
      tm.predicateObjectMaps.some((pom) => pom.objectMaps.some((m) => m.gather !== undefined));
    this.collections = gathers ? ctx.collections : undefined;
    this.poms = tm.predicateObjectMaps.map((pom, i) => this.pomPlan(pom, tm, ctx, joins[i] ?? []));
  }

  /** The source is done: named collections, gathered over all records, are written. */
  finish(): void {
    this.collections?.finish(this.sink);
  }

  private pomPlan(pom: PredicateObjectMap, tm: TriplesMap, ctx: CompileContext, joins: JoinPlan[]): PomPlan {
    const graphMaps = [...tm.subjectMap.graphMaps, ...pom.graphMaps];
    const graphsConstant = graphMaps.every(isConstant);
    const graphs = graphsConstant
      ? graphMaps.length === 0
        ? DEFAULT_GRAPHS
        : withoutLiteralGraphs([...new Set(graphGens(graphMaps, ctx).map((g) => g(null) as string))])
      : graphGens(graphMaps, ctx);
    return {
      predicates: pom.predicateMaps.map((m) => compileTermMap(m, ctx)),
      objects: pom.objectMaps.map((m) => compileTermMap(m, ctx)),
      // Only where the sink quotes values itself and no gather map needs the terms.
      literals: pom.objectMaps.map((m) =>
        this.sink.literal && !this.collections ? compileSimpleLiterals(m, ctx) : undefined,
      ),
      joins,
      graphs,
      graphsConstant,
    };
  }

  /** Everything one record of the source produces. */
  run(record: unknown): void {
    this.stats.iterations += 1;
    this.collections?.nextRecord();
    const subject = this.subject(record);
    if (subject === null) return;
    this.stats.passed += 1;
    if (Array.isArray(subject)) for (const s of subject) this.runSubject(s, record);
    else this.runSubject(subject, record);
  }

  private runSubject(subject: string, record: unknown): void {
    const sink = this.sink;
    let emitted = 0;
    let subjectGraphs: string[] | undefined;
    if (this.collections) {
      // A gathered subject exists even without predicate-object maps (RML-CC).
      subjectGraphs = this.graphsOf(this.subjectGraphs, record);
      this.collections.use(subject, subjectGraphs, sink);
    }
    if (this.classes.length > 0) {
      subjectGraphs ??= this.graphsOf(this.subjectGraphs, record);
      for (const type of this.classes) {
        for (const g of subjectGraphs) sink.quad(subject, TYPE, type, g);
        emitted += subjectGraphs.length;
      }
    }
    for (const pom of this.poms) {
      const graphs = pom.graphsConstant
        ? (pom.graphs as string[])
        : this.graphsOf(pom.graphs as TermGen[], record);
      for (const predicateGen of pom.predicates) {
        const predicate = predicateGen(record);
        if (predicate === null) continue;
        if (typeof predicate === 'string') emitted += this.objectsOf(pom, subject, predicate, graphs, record);
        else for (const p of predicate) emitted += this.objectsOf(pom, subject, p, graphs, record);
      }
    }
    this.stats.triples += emitted;
  }

  /** The quads of one predicate of a predicate-object map; returns how many. */
  private objectsOf(pom: PomPlan, subject: string, p: string, graphs: string[], record: unknown): number {
    const sink = this.sink;
    let emitted = 0;
    for (let k = 0; k < pom.objects.length; k++) {
      const literals = pom.literals[k];
      if (literals !== undefined) {
        const written = this.literalsOf(literals, subject, p, graphs, record);
        if (written >= 0) {
          emitted += written;
          continue;
        }
      }
      const object = pom.objects[k]!(record);
      if (object === null) continue;
      if (this.collections) {
        emitted += this.collectionObjects(subject, p, object, graphs);
      } else if (typeof object === 'string') {
        if (graphs.length === 1) sink.quad(subject, p, object, graphs[0]!);
        else for (const g of graphs) sink.quad(subject, p, object, g);
        emitted += graphs.length;
      } else {
        for (const o of object) for (const g of graphs) sink.quad(subject, p, o, g);
        emitted += object.length * graphs.length;
      }
    }
    for (const join of pom.joins) {
      const parents = this.parents(join, record);
      for (const o of parents) for (const g of graphs) sink.quad(subject, p, o, g);
      emitted += parents.length * graphs.length;
    }
    return emitted;
  }

  /**
   * Simple-literal objects handed to the sink as their values; returns how many quads, or -1
   * when a value is no string (the object map's own generator types it).
   */
  private literalsOf(
    literals: ValueGen,
    subject: string,
    p: string,
    graphs: string[],
    record: unknown,
  ): number {
    const sink = this.sink;
    const values = literals(record);
    if (values === null) return 0;
    if (typeof values === 'string') {
      for (const g of graphs) sink.literal!(subject, p, values, g);
      return graphs.length;
    }
    if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) return -1;
    for (const v of values as string[]) for (const g of graphs) sink.literal!(subject, p, v, g);
    return values.length * graphs.length;
  }

  /** Objects that may be gathered collections: their structure follows them into each graph. */
  private collectionObjects(subject: string, p: string, object: string | string[], graphs: string[]): number {
    const collections = this.collections!;
    const objects = typeof object === 'string' ? [object] : object;
    for (const o of objects) {
      for (const g of graphs) this.sink.quad(subject, p, collections.inGraph(o, g), g);
      collections.use(o, graphs, this.sink);
    }
    return objects.length * graphs.length;
  }

  private graphsOf(gens: TermGen[], record: unknown): string[] {
    if (gens.length === 0) return DEFAULT_GRAPHS;
    const graphs: string[] = [];
    collect(gens, record, graphs);
    return graphs.length === 0 ? DEFAULT_GRAPHS : withoutLiteralGraphs([...new Set(graphs)]);
  }

  private parents(join: JoinPlan, record: unknown): string[] {
    if (join.sameRecord) {
      const t = join.sameRecord(record);
      return t === null ? [] : Array.isArray(t) ? t : [t];
    }
    if (!join.childKeys || !join.index) return [];
    const keys = join.childKeys.length === 0 ? [''] : joinKeys(join.childKeys, record);
    if (keys.length === 1) return join.index.get(keys[0]!) ?? [];
    const found = new Set<string>();
    for (const key of keys) for (const s of join.index.get(key) ?? []) found.add(s);
    return [...found];
  }
}

export function childKeyGens(rom: RefObjectMap, ctx: CompileContext): ValueGen[] {
  return rom.joinConditions.map((c) => compileValues(c.child, ctx, 'none', c.childList));
}

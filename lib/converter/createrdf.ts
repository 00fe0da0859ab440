// createrdf: the joined graph (research seed-services §3.4). The mapping runs on labld's RML
// engine; its output is joined with the template graph, the matched data entities'
// qudt:QuantityValue bodies and provenance, and serialised in the requested return_type.
// Counts are honest: a rule is applied when the engine made triples for it.
import type * as RDF from '@rdfjs/types';
import { DataFactory, type Quad } from 'n3';
import { DomainError, invalid } from '../process/errors.ts';
import { contextPrefixes, returnTypeInfo, serialize } from '../rdf/index.ts';
import {
  DEFAULT_BASE_IRI,
  executeMapping,
  rdfjsSink,
  yarrrmlToMapping,
  type RuleStatistics,
} from '../rml/index.ts';
import { readData, type DataDocument, type Loaded, type Loader } from './data.ts';
import {
  firstAccess,
  overrideData,
  isRowwise,
  readConverterMapping,
  refuseUnsupportedIterator,
  templatePrefix,
  type YarrrmlMapping,
} from './mapping.ts';
import { expressionFailure, rulesReading, sourceFailure } from './mapping-errors.ts';
import { provenance } from './provenance.ts';
import { loadTemplate, renameQuad, type TemplateGraph } from './template.ts';
import { RDF_TYPE } from '../rdf/vocab.ts';

const { namedNode, quad: makeQuad } = DataFactory;
const OA_HAS_BODY = 'http://www.w3.org/ns/oa#hasBody';
const QUANTITY_VALUE = 'http://qudt.org/schema/qudt/QuantityValue';

export interface ConvertRequest {
  mappingUrl: string;
  /** Overrides the mapping's first source (research §3.4 step 4). */
  dataUrl?: string;
  /** The data itself (createrdfupload): `dataUrl` then only names it. */
  dataContent?: string;
  /** The request field `dataContent` came from, which errors name (default `data_content`; an upload's `file`). */
  dataContentField?: string;
  returnType?: string;
  /** The API IRI named in provenance. */
  activity: string;
  /** createrdfupload names its file after data_url (research §3.5). */
  upload?: boolean;
  now?: Date;
  /** Collects the run's log lines (the test endpoint returns them). */
  logs?: string[];
}

/** One rule's outcome: the engine's statistics of its triples maps, summed. */
export interface RuleOutcome {
  rule: string;
  applied: boolean;
  statistics: RuleStatistics[];
}

export interface Conversion {
  filename: string;
  graph: string;
  num_mappings_applied: number;
  num_mappings_skipped: number;
  contentType: string;
  /** Triples in the joined graph. */
  tripleCount: number;
  rules: RuleOutcome[];
  mapping: YarrrmlMapping;
  data: DataDocument;
  dataUrl: string;
}

const note = (logs: string[] | undefined, level: string, message: string) =>
  logs?.push(`${level} - converter - ${message}`);

/** The joined file's name (research §3.4 step 5, §3.5), with the extension of the return type. */
export function joinedFileName(dataUrl: string, extension: string, upload: boolean): string {
  const last =
    decodeSafe(
      dataUrl
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '')
        .split('/')
        .pop() ?? '',
    ) || 'graph';
  if (upload) return `${last.includes('.') ? last.replace(/\.[^.]*$/, '') : last}${extension}`;
  // The original dropped the last `-part` (`my-data-file.json` → `my-data-joined.ttl`, bug
  // §5.12); only a descriptor's own suffix is dropped here.
  const stem = last.replace(/\.[^.]*$/, '').replace(/(?:-metadata|\.csvw)$/, '');
  return `${stem}-joined${extension}`;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The IRI the joined document is written against: the joined file next to the data. */
export function documentIri(dataUrl: string, filename: string): string {
  try {
    const url = new URL(encodeURIComponent(filename), dataUrl);
    if (/^https?:$/.test(url.protocol)) return url.href;
  } catch {
    // a name such as urn:uuid:… has no directory
  }
  return dataUrl.replace(/#.*$/, '');
}

async function loadData(request: ConvertRequest, dataUrl: string, load: Loader): Promise<DataDocument> {
  const loaded: Loaded =
    request.dataContent !== undefined
      ? { url: dataUrl, text: request.dataContent, fileName: dataUrl.split('/').pop() ?? '' }
      : await load(dataUrl, request.dataUrl ? 'data_url' : 'mapping_url');
  return readData(
    loaded,
    request.dataContent !== undefined ? (request.dataContentField ?? 'data_content') : 'data_url',
  );
}

function groupByRule(mapping: YarrrmlMapping, statistics: RuleStatistics[]): RuleOutcome[] {
  return mapping.rules.map((rule) => {
    const own = statistics.filter((s) => s.name === rule);
    return { rule, applied: own.some((s) => s.triples > 0), statistics: own };
  });
}

/** Runs the mapping; resolves with the engine's quads (relative template IRIs not yet applied). */
async function runMapping(
  mapping: YarrrmlMapping,
  data: DataDocument,
  dataAccess: string,
  baseIri: string,
  load: Loader,
): Promise<{ quads: Quad[]; statistics: RuleStatistics[] }> {
  let rml;
  try {
    rml = mapping.rml ?? yarrrmlToMapping(mapping.document);
  } catch (error) {
    if (error instanceof DomainError)
      throw new DomainError(error.kind, `mapping_url: ${error.message}`, 'mapping_url');
    throw error;
  }
  const quads: Quad[] = [];
  const sources: Record<string, string> = {
    [dataAccess]: data.text,
    [dataAccess.replace(/\/+$/, '')]: data.text,
  };
  const openUrl = async (url: string) => {
    try {
      return (await readData(await load(url, 'mapping_url'), 'mapping_url')).text;
    } catch (error) {
      throw sourceFailure(error, url, rulesReading(mapping, url));
    }
  };
  let result;
  try {
    result = await executeMapping(
      rml,
      rdfjsSink((q) => quads.push(q as Quad)),
      // The data was parsed by readData: the engine iterates that, not a second parse of its text.
      {
        baseIri,
        sources,
        parsed: { [dataAccess]: data.json, [dataAccess.replace(/\/+$/, '')]: data.json },
        openUrl,
      },
    );
  } catch (error) {
    throw expressionFailure(error);
  }
  return { quads, statistics: result.statistics };
}

/** `rdf:type "http://…"` (a string) becomes the IRI it names (research §3.4 step 9b). */
function typeLiteralsAsIris(q: Quad): Quad {
  if (
    q.predicate.value === RDF_TYPE &&
    q.object.termType === 'Literal' &&
    /^(?:urn:|http)/.test(q.object.value)
  ) {
    return makeQuad(q.subject, q.predicate, namedNode(q.object.value), q.graph);
  }
  return q;
}

/** The quantity-value bodies of the matched entities, from the data's own graph. */
function quantityValues(entities: Set<string>, data: Quad[]): Quad[] {
  const bySubject = new Map<string, Quad[]>();
  for (const q of data) {
    const key = q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value;
    let list = bySubject.get(key);
    if (!list) bySubject.set(key, (list = []));
    list.push(q);
  }
  const out: Quad[] = [];
  for (const entity of entities) {
    for (const body of bySubject.get(entity) ?? []) {
      if (body.predicate.value !== OA_HAS_BODY) continue;
      const key = body.object.termType === 'BlankNode' ? `_:${body.object.value}` : body.object.value;
      const description = bySubject.get(key) ?? [];
      if (!description.some((d) => d.predicate.value === RDF_TYPE && d.object.value === QUANTITY_VALUE))
        continue;
      out.push(body, ...description);
    }
  }
  return out;
}

function outputPrefixes(
  mapping: YarrrmlMapping,
  template: TemplateGraph | undefined,
  data: DataDocument,
): Record<string, string> {
  const fromData: Record<string, string> = {};
  const first = Array.isArray(data.json) ? data.json[0] : data.json;
  contextPrefixes(first, (name, iri) => {
    fromData[name] = iri;
  });
  const own = Object.fromEntries(
    Object.entries(mapping.prefixes).filter(
      ([name]) => !['', 'base', 'template', 'method', 'data'].includes(name),
    ),
  );
  const merged = { ...template?.prefixes, ...fromData, ...own, prov: 'http://www.w3.org/ns/prov#' };
  // Only namespaces (ending in / or #): `label: rdfs:label` of the descriptor was a quirk.
  return Object.fromEntries(Object.entries(merged).filter(([, iri]) => /[/#]$/.test(iri)));
}

export async function createRdf(request: ConvertRequest, load: Loader): Promise<Conversion> {
  const { logs } = request;
  const format = returnTypeInfo(request.returnType ?? 'turtle');
  note(logs, 'INFO', `reading the mapping ${request.mappingUrl}`);
  let mapping = readConverterMapping((await load(request.mappingUrl, 'mapping_url')).text);
  refuseUnsupportedIterator(mapping);
  if (request.dataUrl) mapping = overrideData(mapping, request.dataUrl);
  const dataUrl = request.dataUrl ?? firstAccess(mapping);
  if (!dataUrl) throw invalid('data_url: the mapping declares no source; give data_url', 'data_url');
  note(logs, 'INFO', `reading the data ${dataUrl}`);
  const data = await loadData(request, dataUrl, load);
  if (isRowwise(mapping)) {
    // The spec's rowwise join repeats the template per data row; the data createrdf joins is a
    // CSVW descriptor, whose rows are not in it (only its columns and notes).
    throw invalid(
      `use_template_rowwise: the mapping asks for the template block once per data row, but the data ${dataUrl} ` +
        'is a CSVW descriptor: it describes the columns and notes, not the rows, so there is no row to repeat ' +
        'the template for; generate the mapping with use_template_rowwise false',
      'use_template_rowwise',
    );
  }
  const filename = joinedFileName(dataUrl, format.extension, request.upload ?? false);
  const document = documentIri(dataUrl, filename);
  const baseIri = mapping.base ? new URL(mapping.base, document).href : DEFAULT_BASE_IRI;

  const run = await runMapping(mapping, data, firstAccess(mapping) ?? dataUrl, baseIri, load);
  const rules = groupByRule(mapping, run.statistics);
  for (const r of rules) {
    const triples = r.statistics.reduce((n, s) => n + s.triples, 0);
    note(
      logs,
      r.applied ? 'INFO' : 'WARNING',
      `rule ${r.rule}: ${r.applied ? `${triples} triples` : 'skipped (no triples)'}`,
    );
    // A data error skips one term, not the run (RMLMapper's behaviour for legacy mappings).
    for (const s of r.statistics)
      if (s.skipped > 0)
        note(
          logs,
          'WARNING',
          `rule ${r.rule}: ${s.skipped} term(s) skipped on data errors: ${s.errors.join('; ')}`,
        );
  }
  const mapped = run.quads.map(typeLiteralsAsIris);
  const entities = new Set(
    mapped.filter((q) => q.subject.termType === 'NamedNode').map((q) => q.subject.value),
  );

  const prefix = templatePrefix(mapping);
  let template: TemplateGraph | undefined;
  if (prefix) {
    note(logs, 'INFO', `reading the template ${prefix.namespace}`);
    template = await loadTemplate(prefix.namespace, load);
  }
  let joined: Quad[] = [
    ...(template?.quads ?? []),
    ...mapped,
    ...(data.fromRdf ? await data.quads() : quantityValues(entities, await data.quads())),
  ];
  // Template IRIs become relative to the output document (research §3.4 step 11).
  if (prefix) joined = joined.map((q) => renameQuad(q, prefix.namespace, `${document}#`));
  joined.push(
    ...provenance({
      activity: request.activity,
      dataUrl,
      mappingUrl: request.mappingUrl,
      templateUrl: prefix?.namespace,
      entities,
      now: request.now,
    }),
  );
  joined = dedupe(joined);
  const graph = await serialize(joined, format.format, {
    prefixes: outputPrefixes(mapping, template, data),
    // Relative IRIs only against a hierarchical document IRI (`urn:uuid:…#x` stays absolute).
    ...(/^https?:/.test(document) ? { base: document } : {}),
  });
  const applied = rules.filter((r) => r.applied).length;
  note(logs, 'INFO', `joined graph: ${joined.length} triples, ${applied} of ${rules.length} rules applied`);
  return {
    filename,
    graph,
    num_mappings_applied: applied,
    num_mappings_skipped: rules.length - applied,
    contentType: format.contentType,
    tripleCount: joined.length,
    rules,
    mapping,
    data,
    dataUrl,
  };
}

const termKey = (t: RDF.Term) =>
  t.termType === 'Literal'
    ? `"${t.value}"@${(t as RDF.Literal).language}^^${(t as RDF.Literal).datatype.value}`
    : `${t.termType[0]}${t.value}`;

function dedupe(quads: Quad[]): Quad[] {
  const seen = new Set<string>();
  return quads.filter((q) => {
    const key = `${termKey(q.subject)} ${termKey(q.predicate)} ${termKey(q.object)} ${termKey(q.graph)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// openBIS DTOs → triples. Every entity gets the spec's identity (schema:identifier, schema:name,
// dates) and the original's obis terms (obis:code, permanent-id and identifier nodes,
// obis:relates_to, dc:creator, …) under the original IRI scheme. The hierarchy space → project
// → collection → object → dataset is linked both ways (schema:isPartOf / schema:hasPart, and
// obis:relates_to in both directions, which the original's tree browser follows downwards).
import type * as RDF from '@rdfjs/types';
import type { Json } from '../openbis/jackson.ts';
import type { RecordGraph } from './graph.ts';
import { text, typed } from './graph.ts';
import type { RecordIris } from './iris.ts';
import { propertyValue } from './values.ts';
import { NS, term } from './vocab.ts';

export type Dto = Record<string, Json>;

const isDto = (v: unknown): v is Dto => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: Json | undefined): Dto[] => (Array.isArray(v) ? v.filter(isDto) : isDto(v) ? [v] : []);

/** The value inside an id DTO (`permId`, `identifier`), or a plain string. */
export function idValue(v: Json | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (isDto(v)) return str(v['permId']) ?? str(v['identifier']) ?? str(v['code']);
  return undefined;
}

export type EntityKind =
  | 'object'
  | 'collection'
  | 'project'
  | 'space'
  | 'user'
  | 'dataset'
  | 'class'
  | 'object_property'
  | 'datastore';

const KIND_OF_CLASS: Record<string, EntityKind> = {
  'as.dto.sample.Sample': 'object',
  'as.dto.experiment.Experiment': 'collection',
  'as.dto.project.Project': 'project',
  'as.dto.space.Space': 'space',
  'as.dto.person.Person': 'user',
  'as.dto.dataset.DataSet': 'dataset',
  'as.dto.sample.SampleType': 'class',
  'as.dto.experiment.ExperimentType': 'class',
  'as.dto.dataset.DataSetType': 'class',
  'as.dto.property.PropertyType': 'object_property',
  'as.dto.datastore.DataStore': 'datastore',
};

export const kindOf = (dto: Dto): EntityKind | undefined => KIND_OF_CLASS[String(dto['@type'])];

/** The superclass of an entity type's class, by the DTO class of the type. */
const TYPE_PARENT: Record<string, string> = {
  'as.dto.sample.SampleType': term('obis', 'Object'),
  'as.dto.experiment.ExperimentType': term('obis', 'Collection'),
  'as.dto.dataset.DataSetType': term('dcat', 'Dataset'),
};

/** The level above an entity in the hierarchy, by kind: which keys name its parent, in order. */
const PARENT_KEYS: Partial<Record<EntityKind, string[]>> = {
  project: ['space'],
  collection: ['project'],
  object: ['experiment', 'project', 'space'],
  dataset: ['sample', 'experiment'],
};

/** Keys that name entities an entity relates to (the original's obis:relates_to keys). */
const RELATES = [
  'space',
  'project',
  'experiment',
  'experiments',
  'sample',
  'samples',
  'dataSets',
  'projects',
  'components',
  'container',
];

const TYPES: Record<Exclude<EntityKind, 'class' | 'object_property'>, string[]> = {
  object: [term('obis', 'Object'), term('schema', 'Dataset')],
  collection: [term('obis', 'Collection'), term('schema', 'Dataset')],
  project: [term('obis', 'Project'), term('schema', 'Dataset')],
  space: [term('obis', 'Space'), term('schema', 'Dataset')],
  dataset: [term('dcat', 'Dataset'), term('schema', 'Dataset')],
  user: [term('obis', 'User'), term('schema', 'Person'), term('foaf', 'Person')],
  datastore: [term('obis', 'DataStore'), term('dcat', 'DataService')],
};

/** openBIS timestamps are epoch milliseconds: written in UTC as xsd:dateTime (§3.10). */
export function timestamp(ms: number): RDF.Literal {
  return typed(new Date(ms).toISOString(), 'dateTime');
}

export class EntityWriter {
  readonly graph: RecordGraph;
  readonly iris: RecordIris;
  /** Entities whose identity is written already (each is written once). */
  private readonly written = new Set<string>();

  constructor(graph: RecordGraph, iris: RecordIris) {
    this.graph = graph;
    this.iris = iris;
  }

  /** The IRI of an entity DTO, or undefined if it has no usable id. */
  iriOf(dto: Dto): string | undefined {
    const kind = kindOf(dto);
    switch (kind) {
      case 'object':
      case 'collection':
      case 'project':
      case 'dataset': {
        const id = idValue(dto['permId']);
        return id && this.iris.of(kind, id);
      }
      case 'space': {
        const code = str(dto['code']) ?? idValue(dto['permId']);
        return code && this.iris.of('space', code);
      }
      case 'user': {
        const id = str(dto['userId']) ?? idValue(dto['permId']);
        return id && this.iris.of('user', id);
      }
      case 'class': {
        const code = str(dto['code']) ?? idValue(dto['permId']);
        return code && this.iris.of('class', code);
      }
      case 'object_property': {
        const code = str(dto['code']) ?? idValue(dto['permId']);
        return code && this.iris.of('object_property', code);
      }
      case 'datastore': {
        const code = str(dto['code']);
        return code && this.iris.dataStore(code);
      }
      default:
        return undefined;
    }
  }

  /**
   * Writes an entity: its identity always; with `full`, its relations, tags and properties,
   * and each related entity's identity (a small neighbourhood, as the original's records).
   */
  entity(dto: Dto, full: boolean): string | undefined {
    const iri = this.iriOf(dto);
    const kind = kindOf(dto);
    if (iri === undefined || kind === undefined) return undefined;
    const g = this.graph;
    if (!this.written.has(iri)) this.identity(iri, kind, dto);
    this.written.add(iri);
    if (!full) return iri;
    for (const key of ['registrator', 'modifier'] as const) {
      for (const person of list(dto[key])) {
        const user = this.entity(person, false);
        if (user === undefined) continue;
        g.add(iri, key === 'registrator' ? term('dc', 'creator') : term('dcterms', 'contributor'), user);
        if (key === 'registrator') g.add(iri, term('schema', 'creator'), user);
      }
    }
    for (const key of RELATES) {
      for (const other of list(dto[key])) {
        const related = this.entity(other, false);
        if (related === undefined || related === iri) continue; // never relates to itself (§3.10)
        g.add(iri, term('obis', 'relates_to'), related);
        g.add(related, term('obis', 'relates_to'), iri);
      }
    }
    this.hierarchy(iri, kind, dto);
    for (const parent of list(dto['parents'])) {
      const p = this.entity(parent, false);
      if (p !== undefined) g.add(iri, term('obis', 'has_parent'), p);
    }
    for (const child of list(dto['children'])) {
      const c = this.entity(child, false);
      if (c !== undefined) g.add(iri, term('obis', 'has_child'), c);
    }
    for (const tag of list(dto['tags'])) {
      const code = str(tag['code']) ?? idValue(tag['permId']);
      if (code !== undefined) g.add(iri, term('obis', 'has_tag'), text(code));
    }
    this.properties(iri, dto);
    return iri;
  }

  /** Parent ↔ child links of the hierarchy, both ways, for the entity's direct parent and children. */
  private hierarchy(iri: string, kind: EntityKind, dto: Dto): void {
    const parentKey = (PARENT_KEYS[kind] ?? []).find((key) => isDto(dto[key]));
    if (parentKey !== undefined) this.partOf(iri, this.entity(dto[parentKey] as Dto, false));
    const childKeys: Partial<Record<EntityKind, string[]>> = {
      space: ['projects'],
      project: ['experiments'],
      collection: ['samples', 'dataSets'],
      object: ['dataSets', 'components'],
    };
    for (const key of childKeys[kind] ?? []) {
      for (const child of list(dto[key])) {
        // A collection's data set that belongs to one of its objects hangs below that object.
        if (kind === 'collection' && key === 'dataSets' && isDto(child['sample'])) continue;
        this.partOf(this.entity(child, false), iri);
      }
    }
  }

  private partOf(child: string | undefined, parent: string | undefined): void {
    if (child === undefined || parent === undefined || child === parent) return;
    this.graph.add(child, term('schema', 'isPartOf'), parent);
    this.graph.add(parent, term('schema', 'hasPart'), child);
    this.graph.add(parent, term('obis', 'relates_to'), child);
    this.graph.add(child, term('obis', 'relates_to'), parent);
  }

  private identity(iri: string, kind: EntityKind, dto: Dto): void {
    const g = this.graph;
    if (kind === 'class') {
      g.type(iri, term('owl', 'Class'));
      const parent = TYPE_PARENT[String(dto['@type'])];
      if (parent !== undefined) g.add(iri, term('rdfs', 'subClassOf'), parent);
    } else if (kind === 'object_property') {
      g.type(iri, term('owl', 'ObjectProperty'));
    } else {
      g.type(iri, ...TYPES[kind]);
      const type = isDto(dto['type']) ? this.entity(dto['type'], false) : undefined;
      if (type !== undefined) g.type(iri, type);
    }
    const code = str(dto['code']) ?? (kind === 'user' ? str(dto['userId']) : undefined);
    if (code !== undefined) g.add(iri, term('obis', 'code'), text(code));
    const permId = idValue(dto['permId']) ?? (kind === 'space' || kind === 'class' ? code : undefined);
    if (permId !== undefined && kind !== 'datastore') {
      g.add(iri, term('schema', 'identifier'), text(permId));
      // Codes (spaces, users, types, properties) are unique per kind only: their nodes are scoped.
      const scoped = kind === 'space' || kind === 'user' || kind === 'class' || kind === 'object_property';
      const node = this.iris.permanentId(permId, scoped ? kind : undefined);
      g.add(iri, term('obis', 'has_identifier'), node);
      g.type(node, term('obis', 'PermanentIdentifier'));
      g.add(node, `${NS.rdf}value`, text(permId));
    }
    const identifier = idValue(dto['identifier']);
    if (identifier !== undefined && identifier !== permId) {
      const node = g.blank();
      g.add(iri, term('obis', 'has_identifier'), node);
      g.type(node, term('obis', 'Identifier'));
      g.add(node, `${NS.rdf}value`, text(identifier));
      g.add(node, term('obis', 'is_identifier_of'), iri);
    }
    const name = this.nameOf(kind, dto) ?? code;
    if (name !== undefined) g.add(iri, term('schema', 'name'), text(name));
    for (const [key, created] of [
      ['registrationDate', true],
      ['modificationDate', false],
    ] as const) {
      const ms = dto[key];
      if (typeof ms !== 'number') continue;
      g.add(iri, term('dcterms', created ? 'created' : 'modified'), timestamp(ms));
      g.add(iri, term('schema', created ? 'dateCreated' : 'dateModified'), timestamp(ms));
    }
    const description = str(dto['description']);
    if (description !== undefined) {
      g.add(iri, term('rdfs', 'comment'), text(description));
      g.add(iri, term('schema', 'description'), text(description));
    }
    const label = str(dto['label']);
    if (label !== undefined) g.add(iri, term('rdfs', 'label'), text(label));
    if (kind === 'user') this.person(iri, dto);
    if (kind === 'datastore') {
      const url = str(dto['downloadUrl']);
      if (url !== undefined && URL.canParse(url)) g.add(iri, term('dcat', 'endpointURL'), url);
    }
  }

  private nameOf(kind: EntityKind, dto: Dto): string | undefined {
    if (kind === 'user') {
      const full = [str(dto['firstName']), str(dto['lastName'])].filter(Boolean).join(' ');
      return full === '' ? undefined : full;
    }
    if (kind === 'object_property') return str(dto['label']);
    const properties = dto['properties'];
    return isDto(properties) ? str(properties['$NAME']) : undefined;
  }

  private person(iri: string, dto: Dto): void {
    const g = this.graph;
    const first = str(dto['firstName']);
    const last = str(dto['lastName']);
    const email = str(dto['email']);
    if (first !== undefined) g.add(iri, term('foaf', 'givenname'), text(first));
    if (last !== undefined) g.add(iri, term('foaf', 'family_name'), text(last));
    if (email !== undefined) {
      g.add(iri, term('foaf', 'mbox'), `mailto:${encodeURIComponent(email).replace(/%40/g, '@')}`);
      g.add(iri, term('schema', 'email'), text(email));
    }
  }

  /** `properties` (code → string): one predicate per property code, its value sniffed (values.ts). */
  private properties(iri: string, dto: Dto): void {
    const properties = dto['properties'];
    if (!isDto(properties)) return;
    for (const [code, raw] of Object.entries(properties)) {
      if (typeof raw !== 'string') continue;
      const predicate = this.iris.of('object_property', code);
      const value = propertyValue(this.graph, raw);
      if (value === undefined) continue;
      this.graph.type(predicate, term('owl', 'ObjectProperty'));
      this.graph.add(predicate, term('obis', 'code'), text(code));
      this.graph.add(iri, predicate, value);
    }
  }
}

// The openBIS TEST DOUBLE's content: the original parser's fixture payloads
// (seed-examples/openbis-ontology/tests/*.json), decoded once and indexed the way openBIS finds
// things (samples, experiments and data sets by permId and identifier, projects by both,
// spaces by code, persons by user id), plus the types and property types those entities name,
// and a data store with files whose bytes the double makes up. Not a model of openBIS.
import { readFileSync } from 'node:fs';
import { decodeJackson, type Json } from '../../lib/extractor/openbis/jackson.ts';
import { seedFixture } from './shared.ts';

export type Dto = Record<string, Json>;

const FIXTURES = ['object', 'dataset', 'collection', 'project', 'space', 'user'] as const;

const CLASSES = {
  sample: 'as.dto.sample.Sample',
  experiment: 'as.dto.experiment.Experiment',
  project: 'as.dto.project.Project',
  space: 'as.dto.space.Space',
  person: 'as.dto.person.Person',
  dataSet: 'as.dto.dataset.DataSet',
  sampleType: 'as.dto.sample.SampleType',
  experimentType: 'as.dto.experiment.ExperimentType',
  dataSetType: 'as.dto.dataset.DataSetType',
} as const;
type Kind = keyof typeof CLASSES;

/** A file of a data set: its path and its bytes (or a size, for the huge-file switch). */
export interface DoubleFile {
  path: string;
  bytes: Buffer;
}

const str = (value: Json | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const idOf = (dto: Dto, key: 'permId' | 'identifier'): string | undefined => {
  const id = dto[key];
  if (typeof id === 'object' && id !== null && !Array.isArray(id))
    return str(id['permId'] ?? id['identifier']);
  return undefined;
};

/** How much an occurrence carries: the richest one of each entity is the one served. */
const richness = (dto: Dto): number => Object.values(dto).filter((v) => v !== null).length;

function strip(node: Json): Json {
  if (Array.isArray(node)) return node.map(strip);
  if (typeof node !== 'object' || node === null) return node;
  delete node['fetchOptions'];
  for (const value of Object.values(node)) strip(value);
  return node;
}

export class DoubleData {
  readonly entities: Record<Kind, Map<string, Dto>> = {
    sample: new Map(),
    experiment: new Map(),
    project: new Map(),
    space: new Map(),
    person: new Map(),
    dataSet: new Map(),
    sampleType: new Map(),
    experimentType: new Map(),
    dataSetType: new Map(),
  };
  readonly propertyTypes = new Map<string, Dto>();
  readonly files = new Map<string, DoubleFile[]>();
  readonly dataStore: Dto;

  constructor(dssUrl: string) {
    this.dataStore = {
      '@type': 'as.dto.datastore.DataStore',
      code: 'DSS1',
      downloadUrl: dssUrl,
      remoteUrl: dssUrl,
      registrationDate: 1725459720279,
      modificationDate: 1725459720316,
    };
    for (const name of FIXTURES) {
      const raw = JSON.parse(readFileSync(seedFixture(`openbis-ontology/tests/${name}.json`), 'utf8')) as Dto;
      // The data set fixture carries a separately fetched file search, numbered from 1 again.
      const files = raw['files'];
      delete raw['files'];
      this.index(strip(decodeJackson(raw)) as Dto);
      if (files !== undefined) this.indexFiles(strip(decodeJackson(files)) as Dto);
    }
    for (const dto of this.entities.dataSet.values()) dto['dataStore'] = this.dataStore;
    this.placeByIdentifier();
    for (const sample of this.entities.sample.values()) this.describeProperties(sample);
    for (const experiment of this.entities.experiment.values()) this.describeProperties(experiment);
    for (const [kind, typeKind] of [
      ['sample', 'sampleType'],
      ['experiment', 'experimentType'],
      ['dataSet', 'dataSetType'],
    ] as const) {
      for (const dto of this.entities[kind].values()) this.assignProperties(dto, typeKind);
    }
  }

  /**
   * Fixtures fetched some entities without where they sit; openBIS always knows it, and the
   * identifier says it (/SPACE/PROJECT/CODE), so searches by space or project find them.
   */
  private placeByIdentifier(): void {
    const segments = (dto: Dto) => (idOf(dto, 'identifier') ?? '').split('/').filter(Boolean);
    for (const experiment of this.entities.experiment.values()) {
      const [space, project] = segments(experiment);
      if (experiment['project'] == null && space && project)
        experiment['project'] = this.find('project', `/${space}/${project}`) ?? null;
    }
    for (const dto of [...this.entities.sample.values(), ...this.entities.project.values()]) {
      const [space] = segments(dto);
      if (dto['space'] == null && space) dto['space'] = this.entities.space.get(space) ?? null;
    }
  }

  /** An entity's type gets a property assignment for each property the entity has, as openBIS keeps them. */
  private assignProperties(dto: Dto, typeKind: 'sampleType' | 'experimentType' | 'dataSetType'): void {
    const type = dto['type'];
    const properties = dto['properties'];
    if (typeof type !== 'object' || type === null || Array.isArray(type)) return;
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return;
    const code = str(type['code']);
    const indexed = code === undefined ? undefined : this.entities[typeKind].get(code);
    for (const target of new Set([type, ...(indexed ? [indexed] : [])])) {
      const assignments = Array.isArray(target['propertyAssignments']) ? target['propertyAssignments'] : [];
      const known = new Set(
        assignments.map((a) => str(((a as Dto)['propertyType'] as Dto | null)?.['code'])),
      );
      for (const property of Object.keys(properties)) {
        const propertyType = this.propertyTypes.get(property);
        if (propertyType === undefined || known.has(property)) continue;
        assignments.push({
          '@type': 'as.dto.property.PropertyAssignment',
          section: null,
          ordinal: assignments.length + 1,
          mandatory: false,
          showInEditView: true,
          propertyType,
        });
        known.add(property);
      }
      target['propertyAssignments'] = assignments;
    }
  }

  private index(node: Json): void {
    if (Array.isArray(node)) {
      for (const item of node) this.index(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const kind = (Object.keys(CLASSES) as Kind[]).find((k) => CLASSES[k] === node['@type']);
    if (kind !== undefined) {
      const key =
        kind === 'space' || kind.endsWith('Type')
          ? str(node['code'])
          : kind === 'person'
            ? str(node['userId'])
            : idOf(node, 'permId');
      const known = key === undefined ? undefined : this.entities[kind].get(key);
      if (key !== undefined && (known === undefined || richness(node) > richness(known))) {
        this.entities[kind].set(key, node);
      }
    }
    for (const value of Object.values(node)) this.index(value);
  }

  private indexFiles(result: Dto): void {
    const objects = result['objects'];
    if (!Array.isArray(objects)) return;
    for (const file of objects as Dto[]) {
      const path = str(file['path']) ?? '';
      const fileId = file['permId'] as Dto | null;
      const dataSet = str((fileId?.['dataSetId'] as Dto | undefined)?.['permId']);
      if (dataSet === undefined || file['directory'] === true) continue;
      const size = typeof file['fileLength'] === 'number' ? file['fileLength'] : 0;
      this.addFile(dataSet, path, madeUpBytes(path, size));
    }
  }

  /** Property types for every property an entity uses (the fixtures carry none). */
  private describeProperties(dto: Dto): void {
    const properties = dto['properties'];
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return;
    for (const [code, value] of Object.entries(properties)) {
      if (this.propertyTypes.has(code)) continue;
      const numeric = typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value));
      this.propertyTypes.set(code, {
        '@type': 'as.dto.property.PropertyType',
        permId: { '@type': 'as.dto.property.id.PropertyTypePermId', permId: code },
        code,
        label: code.replace(/^\$/, '').replace(/^.*\./, '').replace(/_/g, ' ').toLowerCase(),
        description: `property ${code} (test double)`,
        dataType: numeric ? 'REAL' : 'VARCHAR',
        registrationDate: 1685542100000,
        modificationDate: 1685542100000,
        registrator: this.entities.person.get('admin') ?? null,
      });
    }
  }

  addFile(dataSetPermId: string, path: string, bytes: Buffer): void {
    const list = this.files.get(dataSetPermId) ?? [];
    list.push({ path, bytes });
    this.files.set(dataSetPermId, list);
  }

  /** A second data set like the fixture's, in the same collection, with its own files. */
  addDataSetLike(templatePermId: string, permId: string, files: DoubleFile[]): Dto {
    const template = this.entities.dataSet.get(templatePermId);
    if (template === undefined) throw new Error(`the double has no data set ${templatePermId}`);
    const copy: Dto = {
      ...template,
      permId: { '@type': 'as.dto.dataset.id.DataSetPermId', permId },
      code: permId,
    };
    this.entities.dataSet.set(permId, copy);
    const experiment = template['experiment'] as Dto | null;
    const experimentId = experiment ? idOf(experiment, 'permId') : undefined;
    const full = experimentId === undefined ? undefined : this.entities.experiment.get(experimentId);
    if (full !== undefined) {
      // The fixture's collection came without its data sets: the template is one of them.
      const list = Array.isArray(full['dataSets']) ? full['dataSets'] : [template];
      full['dataSets'] = [...list, copy];
    }
    for (const file of files) this.addFile(permId, file.path, file.bytes);
    return copy;
  }

  /** Finds by permId, or by identifier for entities that have one. */
  find(kind: Kind, key: string): Dto | undefined {
    const direct = this.entities[kind].get(key);
    if (direct !== undefined) return direct;
    for (const dto of this.entities[kind].values()) if (idOf(dto, 'identifier') === key) return dto;
    return undefined;
  }
}

/** Readable bytes of a given size, the same for the same path. */
export function madeUpBytes(path: string, size: number): Buffer {
  const line = Buffer.from(`# ${path} — test double content\n`);
  const out = Buffer.alloc(size);
  for (let at = 0; at < size; at += line.length) line.copy(out, at, 0, Math.min(line.length, size - at));
  return out;
}

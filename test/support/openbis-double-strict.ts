// What the openBIS TEST DOUBLE checks as the server does (openBIS V3 DTO classes): each fetch
// options field is declared with one class, and Jackson resolves `@type` only to that class
// (or a subtype), so anything else is refused; an id must be of a kind the method declares;
// and an answer carries only the relations its fetch options name (the others null, as openBIS
// serialises a relation it did not fetch).
import type { Json } from '../../lib/extractor/openbis/jackson.ts';
import type { Dto } from './openbis-double-data.ts';

export class RpcError extends Error {}

const P = 'as.dto.';
const SAMPLE = `${P}sample.fetchoptions.SampleFetchOptions`;
const SAMPLE_TYPE = `${P}sample.fetchoptions.SampleTypeFetchOptions`;
const EXPERIMENT = `${P}experiment.fetchoptions.ExperimentFetchOptions`;
const EXPERIMENT_TYPE = `${P}experiment.fetchoptions.ExperimentTypeFetchOptions`;
const DATA_SET = `${P}dataset.fetchoptions.DataSetFetchOptions`;
const DATA_SET_TYPE = `${P}dataset.fetchoptions.DataSetTypeFetchOptions`;
const PROJECT = `${P}project.fetchoptions.ProjectFetchOptions`;
const SPACE = `${P}space.fetchoptions.SpaceFetchOptions`;
const PERSON = `${P}person.fetchoptions.PersonFetchOptions`;
const TAG = `${P}tag.fetchoptions.TagFetchOptions`;
const ATTACHMENT = `${P}attachment.fetchoptions.AttachmentFetchOptions`;
const PROPERTIES = `${P}property.fetchoptions.PropertyFetchOptions`;
const ASSIGNMENT = `${P}property.fetchoptions.PropertyAssignmentFetchOptions`;
const PROPERTY_TYPE = `${P}property.fetchoptions.PropertyTypeFetchOptions`;
const PLUGIN = `${P}plugin.fetchoptions.PluginFetchOptions`;
const HISTORY = `${P}history.fetchoptions.HistoryEntryFetchOptions`;
const ROLE = `${P}roleassignment.fetchoptions.RoleAssignmentFetchOptions`;
const DATA_STORE = `${P}datastore.fetchoptions.DataStoreFetchOptions`;
const EMPTY = `${P}common.fetchoptions.EmptyFetchOptions`;
const ANNOTATION = `${P}semanticannotation.fetchoptions.SemanticAnnotationFetchOptions`;
const VOCABULARY = `${P}vocabulary.fetchoptions.VocabularyFetchOptions`;

const entity = (more: Record<string, string>): Record<string, string> => ({
  properties: PROPERTIES,
  tags: TAG,
  registrator: PERSON,
  modifier: PERSON,
  attachments: ATTACHMENT,
  history: HISTORY,
  ...more,
});
const entityType = { propertyAssignments: ASSIGNMENT, validationPlugin: PLUGIN };

/** Each fetch options class → its relation fields → the class each field declares. */
export const DECLARED: Record<string, Record<string, string>> = {
  [SAMPLE]: entity({
    type: SAMPLE_TYPE,
    space: SPACE,
    project: PROJECT,
    experiment: EXPERIMENT,
    dataSets: DATA_SET,
    parents: SAMPLE,
    children: SAMPLE,
    container: SAMPLE,
    components: SAMPLE,
    sampleProperties: SAMPLE,
  }),
  [EXPERIMENT]: entity({
    type: EXPERIMENT_TYPE,
    project: PROJECT,
    samples: SAMPLE,
    dataSets: DATA_SET,
    sampleProperties: SAMPLE,
  }),
  [DATA_SET]: entity({
    type: DATA_SET_TYPE,
    dataStore: DATA_STORE,
    physicalData: `${P}dataset.fetchoptions.PhysicalDataFetchOptions`,
    linkedData: `${P}dataset.fetchoptions.LinkedDataFetchOptions`,
    experiment: EXPERIMENT,
    sample: SAMPLE,
    parents: DATA_SET,
    children: DATA_SET,
    containers: DATA_SET,
    components: DATA_SET,
    sampleProperties: SAMPLE,
  }),
  [PROJECT]: {
    space: SPACE,
    experiments: EXPERIMENT,
    samples: SAMPLE,
    registrator: PERSON,
    modifier: PERSON,
    leader: PERSON,
    attachments: ATTACHMENT,
    history: HISTORY,
  },
  [SPACE]: { registrator: PERSON, projects: PROJECT, samples: SAMPLE },
  [PERSON]: { space: SPACE, registrator: PERSON, roleAssignments: ROLE },
  [`${P}material.fetchoptions.MaterialTypeFetchOptions`]: entityType,
  [VOCABULARY]: { terms: `${P}vocabulary.fetchoptions.VocabularyTermFetchOptions`, registrator: PERSON },
  [PLUGIN]: { registrator: PERSON },
  [`${P}dataset.fetchoptions.PhysicalDataFetchOptions`]: {
    storageFormat: `${P}dataset.fetchoptions.StorageFormatFetchOptions`,
    fileFormatType: `${P}dataset.fetchoptions.FileFormatTypeFetchOptions`,
    locatorType: `${P}dataset.fetchoptions.LocatorTypeFetchOptions`,
  },
  [`${P}dataset.fetchoptions.LinkedDataFetchOptions`]: {
    externalDms: `${P}externaldms.fetchoptions.ExternalDmsFetchOptions`,
  },
  [ROLE]: { user: PERSON, space: SPACE, project: PROJECT, registrator: PERSON },
  [SAMPLE_TYPE]: entityType,
  [EXPERIMENT_TYPE]: entityType,
  [DATA_SET_TYPE]: entityType,
  [ASSIGNMENT]: {
    propertyType: PROPERTY_TYPE,
    plugin: PLUGIN,
    registrator: PERSON,
    semanticAnnotations: ANNOTATION,
  },
  [PROPERTY_TYPE]: {
    vocabulary: VOCABULARY,
    materialType: `${P}material.fetchoptions.MaterialTypeFetchOptions`,
    sampleType: SAMPLE_TYPE,
    semanticAnnotations: ANNOTATION,
    registrator: PERSON,
  },
  [TAG]: { owner: PERSON, samples: SAMPLE, experiments: EXPERIMENT, dataSets: DATA_SET },
  [ATTACHMENT]: { registrator: PERSON, previousVersion: ATTACHMENT, content: EMPTY },
  [`${P}global.fetchoptions.GlobalSearchObjectFetchOptions`]: {
    sample: SAMPLE,
    experiment: EXPERIMENT,
    dataSet: DATA_SET,
    match: EMPTY,
  },
};

/** The fetch options class each DTO class is fetched with (its relations are that class's fields). */
const FETCHED_WITH: Record<string, string> = {
  [`${P}sample.Sample`]: SAMPLE,
  [`${P}experiment.Experiment`]: EXPERIMENT,
  [`${P}dataset.DataSet`]: DATA_SET,
  [`${P}project.Project`]: PROJECT,
  [`${P}space.Space`]: SPACE,
  [`${P}person.Person`]: PERSON,
  [`${P}roleassignment.RoleAssignment`]: ROLE,
  [`${P}sample.SampleType`]: SAMPLE_TYPE,
  [`${P}experiment.ExperimentType`]: EXPERIMENT_TYPE,
  [`${P}dataset.DataSetType`]: DATA_SET_TYPE,
  [`${P}property.PropertyAssignment`]: ASSIGNMENT,
  [`${P}property.PropertyType`]: PROPERTY_TYPE,
  [`${P}tag.Tag`]: TAG,
  [`${P}attachment.Attachment`]: ATTACHMENT,
  [`${P}global.GlobalSearchObject`]: `${P}global.fetchoptions.GlobalSearchObjectFetchOptions`,
};

/** Keys of fetch options that are not relations (paging and sorting). */
const NOT_RELATIONS = new Set(['@type', '@id', 'sort', 'sortBy', 'from', 'count', 'cacheMode']);

const isDto = (v: Json | undefined): v is Dto => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Refuses fetch options as openBIS's deserializer would: a missing or wrong `@type` for where
 * they stand, or a field their class does not declare.
 */
export function checkFetchOptions(options: Json | undefined, declared: string, where = 'fetchOptions'): Dto {
  if (!isDto(options)) throw new RpcError(`${where}: fetch options must be an object`);
  const type = options['@type'];
  if (type !== declared) {
    throw new RpcError(
      `${where}: Could not resolve type id '${String(type)}' as a subtype of [simple type, class ch.ethz.sis.openbis.generic.${declared}]`,
    );
  }
  const fields = DECLARED[declared] ?? {};
  for (const [key, value] of Object.entries(options)) {
    if (NOT_RELATIONS.has(key) || value === null) continue;
    const fieldClass = fields[key];
    if (fieldClass === undefined)
      throw new RpcError(`${where}: Unrecognized field "${key}" (class ${declared})`);
    checkFetchOptions(value, fieldClass, `${where}.${key}`);
  }
  return options;
}

/** Refuses an id whose `@type` is not one the method declares. */
export function checkIdKind(id: Dto, kinds: readonly string[]): void {
  if (!kinds.includes(String(id['@type']))) {
    throw new RpcError(
      `Could not resolve type id '${String(id['@type'])}' as a subtype of ${kinds.join(' or ')}`,
    );
  }
}

/**
 * A copy of `value` with only the relations `options` names (recursively); equal requests for
 * one object give one copy, so Jackson still sends repeats as back-references.
 */
export function pruneToFetchOptions(value: Json, options: Dto): Json {
  const memo = new Map<object, Map<string, Dto>>();
  const walk = (node: Json, fo: Dto): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, fo));
    if (!isDto(node)) return node;
    const foClass = FETCHED_WITH[String(node['@type'])];
    if (foClass === undefined) return node;
    const key = JSON.stringify(fo);
    const known = memo.get(node)?.get(key);
    if (known !== undefined) return known;
    const copy: Dto = {};
    memo.set(node, (memo.get(node) ?? new Map<string, Dto>()).set(key, copy));
    const relations = DECLARED[foClass] ?? {};
    for (const [field, child] of Object.entries(node)) if (!(field in relations)) copy[field] = child;
    // openBIS serialises every relation of the DTO: null when not fetched (pybis reads the keys).
    for (const field of Object.keys(relations)) {
      const sub = fo[field];
      copy[field] = isDto(sub) && node[field] !== undefined ? walk(node[field] ?? null, sub) : null;
    }
    return copy;
  };
  return walk(value, options);
}

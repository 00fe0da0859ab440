// The openBIS TEST DOUBLE's search* methods (the ones pybis calls): search criteria trees as
// openBIS's V3 API writes them (an entity's criteria AND/OR-ed; a nested entity criteria
// applies to the related entity: a sample's space, an experiment's project, a data set's
// experiment, …), checked fetch options, a SearchResult of pruned copies. A criteria class the
// double does not know is refused, so that a client's search is never answered wrongly.
import type { Json } from '../../lib/extractor/openbis/jackson.ts';
import type { DoubleData, Dto } from './openbis-double-data.ts';
import { RpcError, checkFetchOptions, pruneToFetchOptions } from './openbis-double-strict.ts';

type Kind = Parameters<DoubleData['find']>[0];

const isDto = (v: Json | undefined): v is Dto => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const idText = (v: Json | undefined): string | undefined =>
  isDto(v) ? (str(v['permId']) ?? str(v['identifier'])) : str(v);

/** Each search method: what it searches, its criteria class and its fetch options class. */
export const SEARCHES: Record<string, [Kind | 'propertyType', string, string]> = {
  searchSamples: ['sample', 'sample.search.SampleSearchCriteria', 'sample.fetchoptions.SampleFetchOptions'],
  searchExperiments: [
    'experiment',
    'experiment.search.ExperimentSearchCriteria',
    'experiment.fetchoptions.ExperimentFetchOptions',
  ],
  searchDataSets: [
    'dataSet',
    'dataset.search.DataSetSearchCriteria',
    'dataset.fetchoptions.DataSetFetchOptions',
  ],
  searchProjects: [
    'project',
    'project.search.ProjectSearchCriteria',
    'project.fetchoptions.ProjectFetchOptions',
  ],
  searchSpaces: ['space', 'space.search.SpaceSearchCriteria', 'space.fetchoptions.SpaceFetchOptions'],
  searchPersons: ['person', 'person.search.PersonSearchCriteria', 'person.fetchoptions.PersonFetchOptions'],
  searchPropertyTypes: [
    'propertyType',
    'property.search.PropertyTypeSearchCriteria',
    'property.fetchoptions.PropertyTypeFetchOptions',
  ],
  searchSampleTypes: [
    'sampleType',
    'sample.search.SampleTypeSearchCriteria',
    'sample.fetchoptions.SampleTypeFetchOptions',
  ],
  searchExperimentTypes: [
    'experimentType',
    'experiment.search.ExperimentTypeSearchCriteria',
    'experiment.fetchoptions.ExperimentTypeFetchOptions',
  ],
  searchDataSetTypes: [
    'dataSetType',
    'dataset.search.DataSetTypeSearchCriteria',
    'dataset.fetchoptions.DataSetTypeFetchOptions',
  ],
};

/** A nested entity criteria: the relation it follows and the kind it lands on. */
const NESTED: Record<string, [string, Kind]> = {
  'as.dto.space.search.SpaceSearchCriteria': ['space', 'space'],
  'as.dto.project.search.ProjectSearchCriteria': ['project', 'project'],
  'as.dto.experiment.search.ExperimentSearchCriteria': ['experiment', 'experiment'],
  'as.dto.sample.search.SampleSearchCriteria': ['sample', 'sample'],
  'as.dto.sample.search.SampleTypeSearchCriteria': ['type', 'sampleType'],
  'as.dto.experiment.search.ExperimentTypeSearchCriteria': ['type', 'experimentType'],
  'as.dto.dataset.search.DataSetTypeSearchCriteria': ['type', 'dataSetType'],
};

function matchesValue(actual: string | undefined, fieldValue: Json | undefined): boolean {
  if (!isDto(fieldValue)) throw new RpcError('search criteria: fieldValue must be an object');
  const type = String(fieldValue['@type']).replace(/^as\.dto\.common\.search\./, '');
  if (type === 'AnyStringValue') return true;
  // A null value constrains nothing: pybis lists all property types with one.
  if (fieldValue['value'] === null || fieldValue['value'] === undefined) return true;
  const wanted = str(fieldValue['value']);
  if (actual === undefined || wanted === undefined) return false;
  const a = actual.toUpperCase();
  const w = wanted.toUpperCase();
  switch (type) {
    case 'StringEqualToValue':
      return a === w;
    case 'StringContainsValue':
      return a.includes(w);
    case 'StringStartsWithValue':
      return a.startsWith(w);
    case 'StringEndsWithValue':
      return a.endsWith(w);
    default:
      throw new RpcError(`search criteria: the double does not serve field value ${type}`);
  }
}

export class DoubleSearch {
  private readonly data: DoubleData;
  constructor(data: DoubleData) {
    this.data = data;
  }

  /** The richest indexed entity for a related DTO (fixtures nest bare copies). */
  private full(kind: Kind, dto: Dto): Dto {
    const key = kind === 'space' || kind.endsWith('Type') ? str(dto['code']) : idText(dto['permId']);
    return (key === undefined ? undefined : this.data.find(kind, key)) ?? dto;
  }

  /** Where an experiment or data set has no direct space or project, it is found through its parents. */
  private related(dto: Dto, relation: string, kind: Kind): Dto[] {
    const direct = dto[relation];
    if (isDto(direct)) return [this.full(kind, direct)];
    const via = relation === 'space' ? 'project' : relation === 'project' ? 'experiment' : undefined;
    const up = via === undefined ? undefined : dto[via];
    if (!isDto(up)) return [];
    return this.related(this.full(via as Kind, up), relation, kind);
  }

  matches(dto: Dto, criteria: Json): boolean {
    if (!isDto(criteria)) throw new RpcError('search criteria must be an object');
    const type = String(criteria['@type']);
    const field = (name: string) => matchesValue(str(dto[name]) ?? idText(dto[name]), criteria['fieldValue']);
    switch (type.replace(/^as\.dto\.common\.search\./, '')) {
      case 'CodeSearchCriteria':
        return field('code');
      case 'PermIdSearchCriteria':
        return field('permId');
      case 'IdentifierSearchCriteria':
        return field('identifier');
      case 'UserIdSearchCriteria':
        return field('userId');
    }
    const children = criteria['criteria'] ?? [];
    const list = (Array.isArray(children) ? children : [children]).filter((c) => c !== null);
    const all = (target: Dto): boolean => {
      const results = list.map((c) => this.matches(target, c));
      return criteria['operator'] === 'OR' ? results.some(Boolean) : results.every(Boolean);
    };
    if (!type.endsWith('SearchCriteria')) throw new RpcError(`search criteria: unknown class ${type}`);
    if (criteria['@nested'] === true) return all(dto);
    const nested = NESTED[type];
    if (nested === undefined) throw new RpcError(`search criteria: the double does not serve ${type}`);
    const [relation, kind] = nested;
    return this.related(dto, relation, kind).some(all);
  }

  /** A search method's SearchResult, or undefined when `method` is not one. */
  run(method: string, params: Json[]): Dto | undefined {
    const search = SEARCHES[method];
    if (search === undefined) return undefined;
    const [kind, criteriaClass, optionsClass] = search;
    const criteria = params[1];
    if (!isDto(criteria) || criteria['@type'] !== `as.dto.${criteriaClass}`)
      throw new RpcError(
        `criteria: Could not resolve type id '${String(isDto(criteria) && criteria['@type'])}'`,
      );
    const fetch = checkFetchOptions(params[2], `as.dto.${optionsClass}`);
    const top = { ...criteria, '@nested': true };
    const pool = kind === 'propertyType' ? this.data.propertyTypes : this.data.entities[kind];
    const found = [...pool.values()].filter((dto) => this.matches(dto, top));
    return {
      '@type': 'as.dto.common.search.SearchResult',
      objects: found.map((dto) => pruneToFetchOptions(dto, fetch)),
      totalCount: found.length,
    };
  }
}

// The mapping library: the group whose datasets hold the YARRRML mappings select-mapping ranks
// (the original's group `mappings`, made by hand after first boot there). labld makes it at
// first start, so the library exists — and its page answers — before anyone thinks of it.
import { setting } from '../process/config.ts';
import { DomainError } from '../process/errors.ts';
import { checkName, type Dataset, type Resource } from './model.ts';
import type { CatalogueStore, PrivateFilter } from './store/contract.ts';

const GROUP_VARIABLE = 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_GROUP';

/** The library's group name (a name the catalogue could not hold is refused at start-up). */
export function mappingGroup(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return checkName(setting(GROUP_VARIABLE, env).trim(), GROUP_VARIABLE);
  } catch (error) {
    throw new Error((error as Error).message);
  }
}

/**
 * Makes the library's group unless it exists; several processes starting at once may race,
 * and the one that loses finds the group made.
 */
export async function ensureMappingLibrary(
  store: Pick<CatalogueStore, 'getGroup' | 'createGroup'>,
  name: string = mappingGroup(),
): Promise<'made' | 'there'> {
  if (await store.getGroup(name)) return 'there';
  try {
    await store.createGroup({
      name,
      title: 'Mappings',
      description:
        'The mapping library: the YAML (YARRRML) resources of the datasets in this group are checked against every uploaded CSV, and the best-fitting one converts it.',
    });
    return 'made';
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'conflict' && (await store.getGroup(name)))
      return 'there';
    throw error;
  }
}

/** A stored YAML (YARRRML) file: what the library's datasets hold as mappings. */
export function isMappingFile(resource: Resource): boolean {
  const yaml = resource.format.toLowerCase() === 'yaml' || /\.ya?ml$/i.test(resource.url);
  return yaml && resource.url_type === 'upload' && resource.blob_key !== null;
}

/** A dataset of the library and its mappings. */
export interface Shelf {
  dataset: Dataset;
  mappings: Resource[];
}

/**
 * The library's datasets that `filter` lets in (the chain: all; a page: those its viewer may
 * read), each with its mappings, in library order (dataset name, then resource position).
 */
export async function libraryShelves(
  store: Pick<CatalogueStore, 'getGroup' | 'searchDatasets' | 'listResources'>,
  filter: PrivateFilter,
  group: string = mappingGroup(),
): Promise<Shelf[]> {
  if (!(await store.getGroup(group))) return [];
  const datasets = await store.searchDatasets({ group, ...filter, limit: 1000 });
  const shelves: Shelf[] = [];
  for (const dataset of datasets.results) {
    shelves.push({ dataset, mappings: (await store.listResources(dataset.id)).filter(isMappingFile) });
  }
  return shelves;
}

// The starter mapping library (issue 28): on a fresh install the library holds one mapping, for
// the kind of export the seed's example.csv is (a German tensile test), with its template, so
// the first upload is converted without anyone writing YARRRML. Both files are labld's own
// (lib/catalogue/starter/README.md says why the seed's template is not shipped).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { text as readText } from 'node:stream/consumers';
import type { BlobStore } from '../blobs/blob-store.ts';
import { contentTypeOf } from '../blobs/published.ts';
import { downloadUrl } from '../contracts/catalogue.ts';
import { setting } from '../process/config.ts';
import { DomainError } from '../process/errors.ts';
import { formatOf } from './actions/resources.ts';
import type { Dataset } from './model.ts';
import type { CatalogueStore } from './store/contract.ts';

export const STARTER_DATASET = 'starter-mappings';
export const STARTER_TEMPLATE = 'tensile-test-template.ttl';
export const STARTER_MAPPING = 'tensile-test-map.yaml';
/** The template URL the shipped mapping is written with: the stored template's replaces it. */
export const SHIPPED_TEMPLATE_URL = 'https://labld.invalid/starter/tensile-test-template.ttl';

const VARIABLE = 'LABLD_STARTER_MAPPINGS';
const shipped = (file: string) => readFileSync(new URL(`./starter/${file}`, import.meta.url), 'utf8');

/** Whether labld makes the starter library at first start (a misspelt value stops the start). */
export function starterWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = setting(VARIABLE, env).trim().toLowerCase();
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`${VARIABLE} must be true or false, got ${JSON.stringify(value)}`);
}

/** The shipped template's text. */
export function starterTemplate(): string {
  return shipped(STARTER_TEMPLATE);
}

/** The shipped mapping, its template named by `templateUrl`. */
export function starterMapping(templateUrl: string): string {
  return shipped(STARTER_MAPPING).replaceAll(SHIPPED_TEMPLATE_URL, templateUrl);
}

/** A shipped file stored as an upload resource's fields (what resource_create would write). */
async function stored(blobs: BlobStore, name: string, text: string, description: string, id?: string) {
  const key = await blobs.putBytes(text);
  return {
    ...(id === undefined ? {} : { id }),
    name,
    description,
    url: name,
    url_type: 'upload' as const,
    size: Buffer.byteLength(text),
    hash: key,
    blob_key: key,
    mimetype: contentTypeOf(name),
    format: formatOf(name),
    creator_user_id: null,
  };
}

/**
 * Makes the public dataset `starter-mappings` in the library's group `group`, holding the
 * template and the mapping, unless a dataset of that name exists. Called when the library's
 * group is made (first start), so a starter someone deleted is not made again. The mapping
 * names the template by its download URL at `siteUrl`, which convert reads from the
 * catalogue's store. One transaction: processes starting at once may race, and the one that
 * loses on the name finds the dataset made.
 */
export async function ensureStarterLibrary(
  store: Pick<CatalogueStore, 'getDataset' | 'transaction'>,
  blobs: BlobStore,
  options: { siteUrl: string; group: string },
): Promise<'made' | 'there'> {
  if (await store.getDataset(STARTER_DATASET)) return 'there';
  const datasetId = randomUUID();
  const templateId = randomUUID();
  const templateUrl = downloadUrl(options.siteUrl, {
    id: templateId,
    package_id: datasetId,
    url: STARTER_TEMPLATE,
  });
  const template = await stored(
    blobs,
    STARTER_TEMPLATE,
    starterTemplate(),
    'A tensile test as named individuals (specimen, its dimensions, set points, measured columns, results) that a mapping links data to.',
    templateId,
  );
  const mapping = await stored(
    blobs,
    STARTER_MAPPING,
    starterMapping(templateUrl),
    'Links the metadata rows and columns of a German tensile-test export (as the seed example.csv) to the tensile-test template beside it.',
  );
  try {
    await store.transaction(async (tx) => {
      const dataset: Dataset = await tx.createDataset({
        id: datasetId,
        name: STARTER_DATASET,
        title: 'Starter mappings',
        notes:
          'Made by labld at its first start: a mapping for tensile-test exports and its template, both labld’s own (MIT licence). Edit, add to or delete it as you like: labld makes it only with the library itself.',
        private: false,
        creator_user_id: null,
      });
      await tx.addGroupMember(options.group, dataset.id);
      await tx.createResource(dataset.id, template);
      await tx.createResource(dataset.id, mapping);
    });
    return 'made';
  } catch (error) {
    if (
      error instanceof DomainError &&
      error.kind === 'conflict' &&
      (await store.getDataset(STARTER_DATASET))
    )
      return 'there';
    throw error;
  }
}

/**
 * The starter mapping names its template by a URL of this site; started later at another URL
 * (BASE_URL set, another port) labld would see an address it no longer answers at, which
 * convert refuses. So at each start a starter mapping nobody edited is re-pointed at the
 * template's URL here; an edited one is its editor's. Whether it was re-pointed.
 */
export async function repointStarterMapping(
  store: Pick<CatalogueStore, 'getDataset' | 'listResources' | 'updateResource'>,
  blobs: BlobStore,
  siteUrl: string,
): Promise<boolean> {
  const dataset = await store.getDataset(STARTER_DATASET);
  if (!dataset) return false;
  const resources = await store.listResources(dataset.id);
  const file = (name: string) => resources.find((r) => r.name === name && r.blob_key !== null);
  const template = file(STARTER_TEMPLATE);
  const mapping = file(STARTER_MAPPING);
  if (!template || !mapping || !blobs.has(mapping.blob_key!)) return false;
  const text = await readText(blobs.open(mapping.blob_key!));
  const wanted = starterMapping(downloadUrl(siteUrl, template));
  if (text === wanted) return false;
  const written = /^ {2}template: (\S+)\/$/m.exec(text)?.[1];
  if (written === undefined || text !== starterMapping(written)) return false;
  const key = await blobs.putBytes(wanted);
  await store.updateResource(mapping.id, { blob_key: key, hash: key, size: Buffer.byteLength(wanted) });
  return true;
}

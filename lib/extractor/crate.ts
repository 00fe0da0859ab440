// `ro-crate-metadata.json` of an export bundle, valid RO-Crate 1.1 (RECOMMENDED level too): the
// metadata descriptor (conformsTo, about), a root data set with name, description, licence,
// date, author (Person) and publisher (Organization), one Dataset
// per openBIS data set (`<permId>/`) and one File per file (`<permId>/<path>`, with size and
// encoding format), and the export as a CreateAction (instrument: this service; object: the
// records it read; result: the root). A file that could not be fetched stays named: a File
// entity at its download URL, outside the ZIP, with the reason, listed in the action's error.
import { setting } from '../process/config.ts';

export const RO_CRATE_CONTEXT = 'https://w3id.org/ro/crate/1.1/context';
export const RO_CRATE_PROFILE = 'https://w3id.org/ro/crate/1.1';

export interface CrateFile {
  dataSetPermId: string;
  path: string;
  size: number | undefined;
  encodingFormat: string;
  /** The file's record: {extractor_url}/distribution/<permId>/<path>. */
  record: string;
  /** Where labld serves its bytes. */
  downloadUrl: string;
  /** Set when the bytes are not in the ZIP: why. */
  missing?: string;
}

export interface CrateDataSet {
  permId: string;
  record: string;
  name: string;
  /** Who registered it in openBIS: their user record and name. */
  author?: { id: string; name: string };
}

export interface CrateInput {
  service: string;
  /** The records named by the selection. */
  selected: string[];
  dataSets: CrateDataSet[];
  files: CrateFile[];
  startTime: Date;
  endTime: Date;
}

type Entity = Record<string, unknown>;
const ref = (id: string) => ({ '@id': id });
/** RO-Crate 1.1 wants a single value where there is one (no singleton arrays). */
const one = <T>(list: T[]): T | T[] => (list.length === 1 ? list[0]! : list);

/** A ZIP entry name and crate id for a file (segments kept, nothing percent-encoded twice). */
export const entryName = (permId: string, path: string): string => `${permId}/${path}`;

/** RO-Crate ids of data entities are URI paths: each segment percent-encoded. */
const crateId = (name: string): string => name.split('/').map(encodeURIComponent).join('/');

export function crateMetadata(input: CrateInput): Entity {
  const configured = setting('LABLD_EXTRACTOR_LICENSE');
  const license = URL.canParse(configured)
    ? configured
    : `https://spdx.org/licenses/${encodeURIComponent(configured)}`;
  const present = input.files.filter((f) => f.missing === undefined);
  const missing = input.files.filter((f) => f.missing !== undefined);
  const dataSetIds = input.dataSets.map((d) => `${crateId(d.permId)}/`);
  // RO-Crate recommends an author (the data sets' registrators; else this service) and a publisher.
  const authors = new Map(input.dataSets.flatMap((d) => (d.author ? [[d.author.id, d.author.name]] : [])));
  const publisher = `${new URL(input.service).origin}/`;
  const graph: Entity[] = [
    {
      '@id': 'ro-crate-metadata.json',
      '@type': 'CreativeWork',
      conformsTo: ref(RO_CRATE_PROFILE),
      about: ref('./'),
    },
    {
      '@id': './',
      '@type': 'Dataset',
      name: `openBIS export of ${input.selected.length} record(s)`,
      description:
        `Files of ${input.dataSets.length} openBIS data set(s) with their metadata, exported by the labld extractor ` +
        `from the records ${input.selected.join(', ')}.`,
      datePublished: input.endTime.toISOString(),
      license: ref(license),
      author: one(authors.size > 0 ? [...authors.keys()].map(ref) : [ref(input.service)]),
      publisher: ref(publisher),
      hasPart: one([...dataSetIds.map(ref), ...missing.map((f) => ref(f.downloadUrl))]),
      mentions: ref('#export'),
    },
    { '@id': license, '@type': 'CreativeWork', name: configured },
    // A user of this lab's openBIS: affiliated with the lab that publishes the bundle.
    ...[...authors].map(([id, name]) => ({
      '@id': id,
      '@type': 'Person',
      name,
      affiliation: ref(publisher),
    })),
    {
      '@id': publisher,
      '@type': 'Organization',
      name: `labld at ${new URL(input.service).host}`,
      url: publisher,
    },
    ...input.dataSets.map((d) => ({
      '@id': `${crateId(d.permId)}/`,
      '@type': 'Dataset',
      name: d.name,
      identifier: d.record,
      sameAs: ref(d.record),
      hasPart: one(
        present
          .filter((f) => f.dataSetPermId === d.permId)
          .map((f) => ref(crateId(entryName(f.dataSetPermId, f.path)))),
      ),
    })),
    ...present.map((f) => file(crateId(entryName(f.dataSetPermId, f.path)), f)),
    ...missing.map((f) => ({
      ...file(f.downloadUrl, f),
      description: `not in this bundle: ${f.missing}`,
    })),
    {
      '@id': '#export',
      '@type': 'CreateAction',
      name: 'Export from openBIS',
      instrument: ref(input.service),
      object: one(input.selected.map(ref)),
      result: ref('./'),
      startTime: input.startTime.toISOString(),
      endTime: input.endTime.toISOString(),
      actionStatus: ref(
        missing.length === 0
          ? 'http://schema.org/CompletedActionStatus'
          : 'http://schema.org/FailedActionStatus',
      ),
      ...(missing.length === 0
        ? {}
        : {
            error: `${missing.length} file(s) could not be fetched: ${missing.map((f) => entryName(f.dataSetPermId, f.path)).join(', ')}`,
          }),
    },
    { '@id': input.service, '@type': 'SoftwareApplication', name: 'labld extractor', url: input.service },
  ];
  return { '@context': RO_CRATE_CONTEXT, '@graph': graph };
}

function file(id: string, f: CrateFile): Entity {
  return {
    '@id': id,
    '@type': 'File',
    name: f.path.split('/').pop() ?? f.path,
    ...(f.size === undefined ? {} : { contentSize: String(f.size) }),
    encodingFormat: f.encodingFormat,
    sameAs: ref(f.record),
  };
}

// An RO-Crate ZIP as conversion data (spec, extractor section: "The ZIP can be fed into the RDF
// conversion service"): the crate's `ro-crate-metadata.json` is the source. The ZIP is read
// from labld's own blob file, entry by entry (yauzl); only the metadata file is inflated, and
// never past a size limit whatever its header claims, so a zip bomb costs nothing.
import { text } from 'node:stream/consumers';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { DomainError, type ErrorKind } from '../process/errors.ts';

export const CRATE_METADATA = 'ro-crate-metadata.json';
/** Largest metadata file inflated. */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 100_000;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function isZip(head: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => head[i] === byte);
}

const refuse = (kind: ErrorKind, detail: string, field: string) =>
  new DomainError(kind, `${field}: ${detail}`, field);

/** The metadata JSON of the crate in the ZIP at `path` (the shallowest `ro-crate-metadata.json`). */
export async function readCrateMetadata(path: string, field = 'file'): Promise<string> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false, // the metadata is read after every entry was listed
      strictFileNames: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw refuse('invalid', `not a readable ZIP: ${(error as Error).message}`, field);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES)
      throw refuse('invalid', `the ZIP has more than ${MAX_ENTRIES} entries`, field);
    let found: Entry | undefined;
    for await (const entry of entries(zip, field)) {
      if (entry.fileName.split('/').pop() !== CRATE_METADATA) continue;
      const depth = entry.fileName.split('/').length;
      if (!found || depth < found.fileName.split('/').length) found = entry;
    }
    if (!found) throw refuse('invalid', `the ZIP is no RO-Crate: it has no ${CRATE_METADATA}`, field);
    if (found.isEncrypted()) throw refuse('invalid', encrypted(`entry ${found.fileName}`), field);
    if (found.uncompressedSize > MAX_METADATA_BYTES) {
      throw refuse(
        'too-large',
        `${found.fileName} inflates to ${found.uncompressedSize} bytes; the limit is ${MAX_METADATA_BYTES}`,
        field,
      );
    }
    try {
      return await text(await zip.openReadStreamPromise(found));
    } catch (error) {
      throw refuse('invalid', `${found.fileName} cannot be read: ${(error as Error).message}`, field);
    }
  } finally {
    zip.close();
  }
}

const encrypted = (what: string) => `${what} is encrypted; labld reads unencrypted ZIP files`;

/** yauzl's complaint about the ZIP's directory; strong encryption stops it before any name. */
function zipProblem(error: Error): string {
  if (/strong encryption/.test(error.message)) return encrypted('an entry (strong encryption)');
  return `not a readable ZIP: ${error.message}`;
}

async function* entries(zip: ZipFile, field: string): AsyncGenerator<Entry> {
  for (;;) {
    const entry = await new Promise<Entry | undefined>((resolve, reject) => {
      const onEntry = (e: Entry) => done(() => resolve(e));
      const onEnd = () => done(() => resolve(undefined));
      const onError = (error: Error) => done(() => reject(refuse('invalid', zipProblem(error), field)));
      const done = (then: () => void) => {
        zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
        then();
      };
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

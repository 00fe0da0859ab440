// An uploaded file, read from labld's blob file: createrdfupload takes an RO-Crate ZIP (its
// metadata is the data) or the data itself; normalizeyarrrml takes the mapping text.
import { open, readFile } from 'node:fs/promises';
import { invalid } from '../process/errors.ts';
import { isZip, readCrateMetadata } from './rocrate.ts';

/** The file as UTF-8 text; other bytes are a 422 naming `file`. */
export async function uploadedText(path: string): Promise<string> {
  const bytes = await readFile(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('file: is not UTF-8 text', 'file');
  }
}

/** Conversion data: an RO-Crate ZIP's metadata JSON-LD, else the file's text. */
export async function uploadedData(path: string): Promise<string> {
  return isZip(await head(path)) ? readCrateMetadata(path) : uploadedText(path);
}

async function head(path: string): Promise<Uint8Array> {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(4), 0, 4, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

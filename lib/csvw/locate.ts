// Locating metadata for a CSV file (Model for Tabular Data §5): a Link header with
// rel="describedby", then the site-wide configuration at /.well-known/csvm (default
// `{+url}-metadata.json` and `csv-metadata.json`). A candidate that does not describe the
// file is ignored with a warning. Every fetch goes through the injected loader.
import { resolveUrl } from './common.ts';
import {
  loadResource,
  resourceText,
  type LoadedResource,
  type ResourceLoader,
  type Warnings,
} from './types.ts';
import { expandTemplate } from './uri-template.ts';
import { LimitError, parseJson } from '../limits.ts';

export interface FoundMetadata {
  url: string;
  document: Record<string, unknown>;
}

const DEFAULT_LOCATIONS = ['{+url}-metadata.json', 'csv-metadata.json'];
const METADATA_TYPES = new Set(['application/csvm+json', 'application/ld+json', 'application/json']);

/** `describedby` targets of a Link header, in order. */
function describedBy(header: string | undefined, base: string): string[] {
  if (!header) return [];
  const targets: string[] = [];
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /rel\s*=\s*"?([^";]*)"?/i.exec(params)?.[1] ?? '';
    const type = /type\s*=\s*"?([^";]*)"?/i.exec(params)?.[1];
    if (!rel.split(/\s+/).includes('describedby')) continue;
    if (type !== undefined && !METADATA_TYPES.has(type.trim())) continue;
    targets.push(resolveUrl(match[1] ?? '', base));
  }
  return targets;
}

async function tryJson(
  url: string,
  load: ResourceLoader,
  field: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    const resource = await loadResource(load, url, field);
    const parsed: unknown = parseJson(await resourceText(resource), field);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch (error) {
    if (error instanceof LimitError) throw error; // there, but refused
    return undefined; // not there, or not JSON: not a metadata file
  }
}

const withoutFragment = (url: string): string => url.split('#')[0] ?? url;

/** Whether a metadata document describes `csvUrl` (one of its tables has that url). */
export function describes(document: Record<string, unknown>, metadataUrl: string, csvUrl: string): boolean {
  let base = metadataUrl;
  const context = document['@context'];
  if (Array.isArray(context) && context[1] && typeof context[1] === 'object') {
    const declared = (context[1] as Record<string, unknown>)['@base'];
    if (typeof declared === 'string') base = resolveUrl(declared, metadataUrl);
  }
  const tables = Array.isArray(document['tables']) ? document['tables'] : [document];
  return tables.some(
    (table) =>
      table !== null &&
      typeof table === 'object' &&
      typeof (table as Record<string, unknown>)['url'] === 'string' &&
      withoutFragment(resolveUrl((table as Record<string, string>)['url'] as string, base)) ===
        withoutFragment(csvUrl),
  );
}

async function siteLocations(csvUrl: string, load: ResourceLoader, field: string): Promise<string[]> {
  let origin: string;
  try {
    origin = new URL(csvUrl).origin;
  } catch {
    return DEFAULT_LOCATIONS;
  }
  try {
    const text = await resourceText(await loadResource(load, `${origin}/.well-known/csvm`, field));
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    return lines.length > 0 ? lines : DEFAULT_LOCATIONS;
  } catch {
    return DEFAULT_LOCATIONS;
  }
}

/** Finds the metadata for a CSV file, or undefined (then only its header describes it). */
export async function locateMetadata(
  csvUrl: string,
  csv: LoadedResource,
  load: ResourceLoader,
  warnings: Warnings,
  field: string,
): Promise<FoundMetadata | undefined> {
  for (const url of describedBy(csv.linkHeader, csvUrl)) {
    const document = await tryJson(url, load, field);
    if (!document) continue;
    if (describes(document, url, csvUrl)) return { url, document };
    warnings.add(`metadata ${url} from the Link header does not describe ${csvUrl}; ignored`);
  }
  for (const template of await siteLocations(csvUrl, load, field)) {
    const url = resolveUrl(
      expandTemplate(template, (name) => (name === 'url' ? csvUrl : undefined)),
      csvUrl,
    );
    const document = await tryJson(url, load, field);
    if (!document) continue;
    if (describes(document, url, csvUrl)) return { url, document };
    warnings.add(`metadata ${url} does not describe ${csvUrl}; ignored`);
  }
  return undefined;
}

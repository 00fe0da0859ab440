// Property helpers shared by the description readers: inherited properties (§5.7), @id,
// @type, @context and loading referenced JSON documents.
import { loadResource, metadataError, resourceText, type ResourceLoader } from './types.ts';
import { isLanguageTag, resolveUrl, type JsonLdValue, type MetadataContext } from './common.ts';
import { readDatatype, type Datatype } from './datatype.ts';
import { CSVW_CONTEXT } from './vocab.ts';
import { LimitError, parseJson } from '../limits.ts';

export type CommonProperties = [string, JsonLdValue[]][];

export interface Inherited {
  aboutUrl?: string;
  datatype?: Datatype;
  default?: string;
  lang?: string;
  null?: string[];
  ordered?: boolean;
  propertyUrl?: string;
  required?: boolean;
  separator?: string | null;
  textDirection?: string;
  valueUrl?: string;
}

export interface ReadContext extends MetadataContext {
  load: ResourceLoader;
}

export const INHERITED_KEYS = new Set([
  'aboutUrl',
  'datatype',
  'default',
  'lang',
  'null',
  'ordered',
  'propertyUrl',
  'required',
  'separator',
  'textDirection',
  'valueUrl',
]);

/** Reads one inherited property into `target`; invalid values warn and are dropped. */
export function readInherited(key: string, value: unknown, target: Inherited, ctx: MetadataContext): void {
  const invalid = (): void => ctx.warnings.add(`invalid ${key} ${JSON.stringify(value)}; ignored`);
  switch (key) {
    case 'aboutUrl':
    case 'propertyUrl':
    case 'valueUrl':
      // An invalid URI template counts as the empty template (so as the table's URL).
      if (typeof value === 'string') target[key] = value;
      else {
        invalid();
        target[key] = '';
      }
      return;
    case 'default':
      if (typeof value === 'string') target[key] = value;
      else invalid();
      return;
    case 'datatype': {
      const datatype = readDatatype(value, ctx);
      if (datatype) target.datatype = datatype;
      return;
    }
    case 'lang':
      if (isLanguageTag(value)) target.lang = value;
      else invalid();
      return;
    case 'null': {
      const values = Array.isArray(value) ? value : [value];
      const strings = values.filter((item): item is string => typeof item === 'string');
      if (strings.length !== values.length) invalid();
      if (strings.length > 0 || values.length === 0) target.null = strings;
      return;
    }
    case 'ordered':
    case 'required':
      if (typeof value === 'boolean') target[key] = value;
      else invalid();
      return;
    case 'separator':
      if (typeof value === 'string' || value === null) target.separator = value;
      else invalid();
      return;
    case 'textDirection':
      if (['ltr', 'rtl', 'auto', 'inherit'].includes(value as string)) target.textDirection = value as string;
      else invalid();
      return;
  }
}

/** `@id` of a description: a blank node is an error, a non-string warns and counts as "". */
export function readId(value: unknown, where: string, ctx: MetadataContext): string {
  if (typeof value !== 'string') {
    ctx.warnings.add(`${where}: @id must be a string; ignored`);
    return resolveUrl('', ctx.base);
  }
  if (value.startsWith('_:')) throw metadataError(`${where}: @id must not be a blank node`, ctx.field);
  return resolveUrl(value, ctx.base);
}

export function checkType(value: unknown, expected: string, where: string, ctx: MetadataContext): void {
  if (value !== expected)
    throw metadataError(`${where}: @type must be ${expected}, not ${JSON.stringify(value)}`, ctx.field);
}

/** Reads `@context`: the CSVW context, optionally with @base and @language. */
export function readContext(
  document: Record<string, unknown>,
  url: string,
  ctx: MetadataContext,
  required: boolean,
): MetadataContext {
  const context = document['@context'];
  if (context === undefined) {
    if (required) throw metadataError('the metadata document has no @context', ctx.field);
    return { ...ctx, base: url };
  }
  const next: MetadataContext = { ...ctx, base: url, language: undefined };
  const isCsvw = (value: unknown): boolean =>
    value === CSVW_CONTEXT || value === CSVW_CONTEXT + '#' || value === 'https://www.w3.org/ns/csvw';
  if (isCsvw(context)) return next;
  if (!Array.isArray(context) || context.length === 0 || !isCsvw(context[0]) || context.length > 2)
    throw metadataError(
      '@context must be "http://www.w3.org/ns/csvw" or [that, {"@base", "@language"}]',
      ctx.field,
    );
  const local = context[1] as Record<string, unknown> | undefined;
  if (local === undefined) return next;
  if (local === null || typeof local !== 'object' || Array.isArray(local))
    throw metadataError('the local @context must be an object', ctx.field);
  for (const [key, value] of Object.entries(local)) {
    if (key === '@base') {
      if (typeof value === 'string') next.base = resolveUrl(value, url);
      else ctx.warnings.add('@context @base must be a string; ignored');
    } else if (key === '@language') {
      if (isLanguageTag(value)) next.language = value;
      else ctx.warnings.add(`@context @language ${JSON.stringify(value)} is not a language tag; ignored`);
    } else {
      throw metadataError(`@context may only define @base and @language, not ${key}`, ctx.field);
    }
  }
  return next;
}

/** Loads a referenced JSON document (a schema or dialect given by URL). */
export async function loadJson(url: string, ctx: ReadContext): Promise<Record<string, unknown>> {
  const resource = await loadResource(ctx.load, url, ctx.field);
  let parsed: unknown;
  try {
    parsed = parseJson(await resourceText(resource), ctx.field);
  } catch (error) {
    if (error instanceof LimitError) throw error;
    throw metadataError(`${url} is not JSON: ${(error as Error).message}`, ctx.field);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw metadataError(`${url} is not a JSON object`, ctx.field);
  return parsed as Record<string, unknown>;
}

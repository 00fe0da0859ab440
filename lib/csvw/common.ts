// Common properties and notes (Metadata Vocabulary §5.8, normalization §6): JSON-LD-like values
// restricted by CSVW. Strings gain the default language, @id is expanded and resolved, and
// the forbidden JSON-LD features (@context, @list, @set, other keywords, blank-node ids) are
// errors.
import { metadataError, type Warnings } from './types.ts';
import { CSVW, CSVW_TERMS, expandPrefixed, isAbsoluteIri, isPrefixedName } from './vocab.ts';
import { isWellFormedLanguageTag } from '../rdf/vocab.ts';

/** A normalized common-property value: a value object or a node object. */
export type JsonLdValue = ValueObject | NodeObject;

export interface ValueObject {
  '@value': string | number | boolean;
  '@type'?: string;
  '@language'?: string;
}

export interface NodeObject {
  '@id'?: string;
  '@type'?: string[];
  properties: [string, JsonLdValue[]][];
}

export interface MetadataContext {
  base: string;
  /** Default language (@context @language). */
  language: string | undefined;
  warnings: Warnings;
  field: string;
}

export function isLanguageTag(value: unknown): value is string {
  return typeof value === 'string' && isWellFormedLanguageTag(value);
}

/** Resolves a reference against a base; an unresolvable one is left as it is. */
export function resolveUrl(reference: string, base: string): string {
  // An absolute IRI stays exactly as written (WHATWG URL parsing would normalise it).
  if (isAbsoluteIri(reference)) return reference;
  try {
    return new URL(reference, base).href;
  } catch {
    return reference;
  }
}

/** Whether a property name is a common property (prefixed name or absolute IRI). */
export function isCommonPropertyName(key: string): boolean {
  return isPrefixedName(key) || (isAbsoluteIri(key) && !key.startsWith('_:'));
}

export function expandPropertyName(key: string): string {
  return expandPrefixed(key);
}

function expandType(type: unknown, where: string, ctx: MetadataContext): string {
  if (typeof type !== 'string') throw metadataError(`${where}: @type must be a string`, ctx.field);
  if (type.startsWith('_:')) throw metadataError(`${where}: @type must not be a blank node`, ctx.field);
  if (CSVW_TERMS.has(type)) return CSVW + type;
  if (isPrefixedName(type)) return expandPrefixed(type);
  if (isAbsoluteIri(type)) return type;
  throw metadataError(
    `${where}: @type ${JSON.stringify(type)} is not a term, prefixed name or absolute URL`,
    ctx.field,
  );
}

function valueObject(value: Record<string, unknown>, where: string, ctx: MetadataContext): ValueObject {
  for (const key of Object.keys(value)) {
    if (key !== '@value' && key !== '@type' && key !== '@language')
      throw metadataError(`${where}: a @value object must not have ${key}`, ctx.field);
  }
  if ('@type' in value && '@language' in value)
    throw metadataError(`${where}: a @value object must not have both @type and @language`, ctx.field);
  const raw = value['@value'];
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
    throw metadataError(`${where}: @value must be a string, number or boolean`, ctx.field);
  const result: ValueObject = { '@value': raw };
  if ('@type' in value) result['@type'] = expandType(value['@type'], where, ctx);
  if ('@language' in value) {
    if (!isLanguageTag(value['@language']))
      throw metadataError(`${where}: invalid @language ${JSON.stringify(value['@language'])}`, ctx.field);
    result['@language'] = value['@language'];
  }
  return result;
}

function nodeObject(value: Record<string, unknown>, where: string, ctx: MetadataContext): NodeObject {
  const node: NodeObject = { properties: [] };
  for (const [key, member] of Object.entries(value)) {
    if (key === '@id') {
      if (typeof member !== 'string') throw metadataError(`${where}: @id must be a string`, ctx.field);
      if (member.startsWith('_:')) throw metadataError(`${where}: @id must not be a blank node`, ctx.field);
      node['@id'] = resolveUrl(expandPrefixed(member), ctx.base);
    } else if (key === '@type') {
      const types = Array.isArray(member) ? member : [member];
      node['@type'] = types.map((type) => expandType(type, where, ctx));
    } else if (key === '@language') {
      throw metadataError(`${where}: @language is only allowed with @value`, ctx.field);
    } else if (key.startsWith('@')) {
      throw metadataError(`${where}: ${key} is not allowed in metadata`, ctx.field);
    } else if (isCommonPropertyName(key)) {
      node.properties.push([expandPropertyName(key), normalizeCommon(member, `${where} ${key}`, ctx)]);
    } else {
      ctx.warnings.add(`${where}: property ${key} is not a prefixed name or absolute URL; ignored`);
    }
  }
  return node;
}

/** Normalizes the value of a common property (or notes) into a list of values. */
export function normalizeCommon(value: unknown, where: string, ctx: MetadataContext): JsonLdValue[] {
  if (Array.isArray(value)) return value.flatMap((item) => normalizeCommon(item, where, ctx));
  if (typeof value === 'string') {
    return [ctx.language ? { '@value': value, '@language': ctx.language } : { '@value': value }];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [{ '@value': value }];
  if (value === null) return [];
  const object = value as Record<string, unknown>;
  if ('@context' in object)
    throw metadataError(`${where}: a common property must not have @context`, ctx.field);
  if ('@list' in object || '@set' in object)
    throw metadataError(`${where}: @list and @set are not allowed in metadata`, ctx.field);
  if ('@value' in object) return [valueObject(object, where, ctx)];
  return [nodeObject(object, where, ctx)];
}

/** Natural-language property (titles): a map language → strings. Bad parts only warn. */
export function naturalLanguage(
  value: unknown,
  where: string,
  ctx: MetadataContext,
): Map<string, string[]> | undefined {
  const language = ctx.language ?? 'und';
  const result = new Map<string, string[]>();
  const add = (lang: string, text: string): void => {
    const list = result.get(lang) ?? [];
    list.push(text);
    result.set(lang, list);
  };
  if (typeof value === 'string') {
    add(language, value);
  } else if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'string') add(language, item);
      else ctx.warnings.add(`${where}: title ${JSON.stringify(item)} is not a string; ignored`);
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [lang, texts] of Object.entries(value)) {
      if (!isLanguageTag(lang)) {
        ctx.warnings.add(`${where}: ${JSON.stringify(lang)} is not a language tag; ignored`);
        continue;
      }
      for (const text of Array.isArray(texts) ? texts : [texts]) {
        if (typeof text === 'string') add(lang, text);
        else ctx.warnings.add(`${where}: title ${JSON.stringify(text)} is not a string; ignored`);
      }
    }
  } else {
    ctx.warnings.add(`${where}: invalid titles ${JSON.stringify(value)}; ignored`);
    return undefined;
  }
  return result;
}

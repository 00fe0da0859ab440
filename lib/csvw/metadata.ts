// Metadata documents (Metadata Vocabulary §5–6): a table group or table description is read,
// validated and normalized into plain objects. Invalid property values warn and fall back to
// the default; structural problems (wrong @type, blank-node @id, missing tables or url,
// duplicate names, …) are errors. Referenced schemas and dialects are loaded.
import { metadataError, type ResourceLoader, type Warnings } from './types.ts';
import {
  isCommonPropertyName,
  normalizeCommon,
  resolveUrl,
  expandPropertyName,
  type JsonLdValue,
  type MetadataContext,
} from './common.ts';
import {
  INHERITED_KEYS,
  checkType,
  loadJson,
  readContext,
  readId,
  readInherited,
  type CommonProperties,
  type Inherited,
  type ReadContext,
} from './properties.ts';
import { checkForeignKeys, readSchema, type SchemaDescription } from './schema.ts';

export interface TableDescription {
  inherited: Inherited;
  url: string;
  id?: string;
  schema?: SchemaDescription;
  dialect?: Record<string, unknown>;
  notes: JsonLdValue[];
  suppressOutput: boolean;
  common: CommonProperties;
  /** No metadata document: the CSV header alone describes the table. */
  embedded?: boolean;
}

export interface TableGroupDescription {
  inherited: Inherited;
  id?: string;
  tables: TableDescription[];
  notes: JsonLdValue[];
  common: CommonProperties;
}

function readNotes(value: unknown, where: string, ctx: MetadataContext): JsonLdValue[] {
  if (!Array.isArray(value)) {
    ctx.warnings.add(`${where}: notes must be an array; ignored`);
    return [];
  }
  return normalizeCommon(value, `${where} notes`, ctx);
}

function readTransformations(value: unknown, ctx: MetadataContext): void {
  if (!Array.isArray(value)) {
    ctx.warnings.add('transformations must be an array; ignored');
    return;
  }
  const keys = new Set(['@id', '@type', 'url', 'scriptFormat', 'targetFormat', 'source', 'titles']);
  for (const item of value) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      ctx.warnings.add('a transformation must be an object; ignored');
      continue;
    }
    const object = item as Record<string, unknown>;
    if ('@id' in object) readId(object['@id'], 'transformation', ctx);
    if ('@type' in object) checkType(object['@type'], 'Template', 'transformation', ctx);
    for (const key of Object.keys(object)) {
      if (!keys.has(key) && !isCommonPropertyName(key))
        ctx.warnings.add(`transformation: unknown property ${key}`);
    }
  }
}

async function readDialectValue(
  value: unknown,
  ctx: ReadContext,
): Promise<Record<string, unknown> | undefined> {
  if (typeof value === 'string') value = await loadJson(resolveUrl(value, ctx.base), ctx);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    ctx.warnings.add(`dialect must be an object; ignored`);
    return undefined;
  }
  const object = value as Record<string, unknown>;
  if ('@id' in object) readId(object['@id'], 'dialect', ctx);
  if ('@type' in object) checkType(object['@type'], 'Dialect', 'dialect', ctx);
  return object;
}

/** Members shared by table groups and tables. */
interface Shared {
  inherited: Inherited;
  notes: JsonLdValue[];
  common: CommonProperties;
  dialect?: Record<string, unknown>;
  schema?: SchemaDescription;
  id?: string;
}

async function readShared(
  key: string,
  value: unknown,
  target: Shared,
  where: string,
  ctx: ReadContext,
): Promise<boolean> {
  if (INHERITED_KEYS.has(key)) readInherited(key, value, target.inherited, ctx);
  else if (key === '@id') target.id = readId(value, where, ctx);
  else if (key === 'notes') target.notes = readNotes(value, where, ctx);
  else if (key === 'dialect') {
    const dialect = await readDialectValue(value, ctx);
    if (dialect) target.dialect = dialect;
  } else if (key === 'tableSchema') {
    const schema = await readSchema(value, ctx);
    if (schema) target.schema = schema;
  } else if (key === 'transformations') readTransformations(value, ctx);
  else if (key === 'tableDirection') {
    if (!['rtl', 'ltr', 'auto'].includes(value as string))
      ctx.warnings.add(`invalid tableDirection ${JSON.stringify(value)}`);
  } else if (key === '@context') {
    // read by readContext
  } else if (isCommonPropertyName(key))
    target.common.push([expandPropertyName(key), normalizeCommon(value, `${where} ${key}`, ctx)]);
  else if (key.startsWith('@')) throw metadataError(`${where}: ${key} is not allowed`, ctx.field);
  else return false;
  return true;
}

async function readTable(
  object: Record<string, unknown>,
  ctx: ReadContext,
  shared: Partial<Shared>,
): Promise<TableDescription> {
  const table: TableDescription & Shared = {
    inherited: {},
    url: '',
    notes: [],
    suppressOutput: false,
    common: [],
  };
  if (typeof object['url'] !== 'string') throw metadataError('a table must have a url (a string)', ctx.field);
  table.url = resolveUrl(object['url'], ctx.base);
  if ('@type' in object) checkType(object['@type'], 'Table', 'table', ctx);
  for (const [key, value] of Object.entries(object)) {
    if (key === 'url' || key === '@type') continue;
    if (key === 'suppressOutput') {
      if (typeof value === 'boolean') table.suppressOutput = value;
      else ctx.warnings.add(`invalid suppressOutput ${JSON.stringify(value)}; ignored`);
    } else if (!(await readShared(key, value, table, 'table', ctx))) {
      ctx.warnings.add(`table: property ${key} is not allowed here; ignored`);
    }
  }
  table.dialect ??= shared.dialect;
  table.schema ??= shared.schema;
  return table;
}

/**
 * Reads a metadata document into a table group (a single table description is wrapped).
 * `url` is the document's URL (the base for relative URLs).
 */
export async function readMetadata(
  document: unknown,
  url: string,
  options: { load: ResourceLoader; warnings: Warnings; field: string },
): Promise<TableGroupDescription> {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw metadataError('the metadata document must be a JSON object', options.field);
  const object = document as Record<string, unknown>;
  const base: MetadataContext = {
    base: url,
    language: undefined,
    warnings: options.warnings,
    field: options.field,
  };
  const ctx: ReadContext = { ...readContext(object, url, base, true), load: options.load };
  const isGroup = 'tables' in object || object['@type'] === 'TableGroup';
  if (!isGroup) {
    const table = await readTable(object, ctx, {});
    const group = { inherited: {}, tables: [table], notes: [], common: [] };
    checkForeignKeys(group.tables, ctx);
    return group;
  }
  if ('@type' in object) checkType(object['@type'], 'TableGroup', 'table group', ctx);
  const group: TableGroupDescription & Shared = { inherited: {}, tables: [], notes: [], common: [] };
  for (const [key, value] of Object.entries(object)) {
    if (key === 'tables' || key === '@type') continue;
    if (!(await readShared(key, value, group, 'table group', ctx)))
      ctx.warnings.add(`table group: property ${key} is not allowed here; ignored`);
  }
  const tables = object['tables'];
  if (!Array.isArray(tables) || tables.length === 0)
    throw metadataError('tables must be a non-empty array of table descriptions', ctx.field);
  for (const item of tables) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      ctx.warnings.add('a table description must be an object; ignored');
      continue;
    }
    group.tables.push(await readTable(item as Record<string, unknown>, ctx, group));
  }
  if (group.tables.length === 0) throw metadataError('no valid table description', ctx.field);
  checkForeignKeys(group.tables, ctx);
  const { dialect: _dialect, schema: _schema, ...result } = group;
  return result;
}

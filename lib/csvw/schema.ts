// Schemas and columns (Metadata Vocabulary §5.5–5.6): column names (given, or from the first
// title, percent-encoded), titles, virtual columns, primary keys, row titles and foreign keys.
import { metadataError } from './types.ts';
import {
  expandPropertyName,
  isCommonPropertyName,
  naturalLanguage,
  normalizeCommon,
  resolveUrl,
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
import type { TableDescription } from './metadata.ts';

export interface ColumnDescription {
  inherited: Inherited;
  name?: string;
  titles?: Map<string, string[]>;
  /** First title in the document's default language (or und): the name when none is given. */
  titleName?: string;
  suppressOutput: boolean;
  virtual: boolean;
  id?: string;
  common: CommonProperties;
}

export interface ForeignKey {
  columnReference: string[];
  resource?: string;
  schemaReference?: string;
  referencedColumns: string[];
}

export interface SchemaDescription {
  inherited: Inherited;
  id?: string;
  columns: ColumnDescription[];
  primaryKey?: string[];
  rowTitles?: string[];
  foreignKeys: ForeignKey[];
  common: CommonProperties;
}

const NAME = /^(?:[A-Za-z0-9]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** A column name from a title: every character but letters, digits, `_` and `.` encoded. */
export function encodeName(title: string): string {
  let out = '';
  for (const char of title) {
    if (/[A-Za-z0-9_.]/.test(char)) out += char;
    else
      for (const byte of new TextEncoder().encode(char))
        out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function readColumn(raw: unknown, index: number, ctx: MetadataContext): ColumnDescription | undefined {
  const where = `column ${index + 1}`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    ctx.warnings.add(`${where}: a column description must be an object; ignored`);
    return undefined;
  }
  const column: ColumnDescription = { inherited: {}, suppressOutput: false, virtual: false, common: [] };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (INHERITED_KEYS.has(key)) readInherited(key, value, column.inherited, ctx);
    else if (key === 'name') {
      if (typeof value === 'string' && NAME.test(value)) column.name = value;
      else ctx.warnings.add(`${where}: invalid name ${JSON.stringify(value)}; ignored`);
    } else if (key === 'titles') {
      const titles = naturalLanguage(value, where, ctx);
      if (titles) column.titles = titles;
      const name = titles?.get(ctx.language ?? 'und')?.[0];
      if (name !== undefined) column.titleName = name;
    } else if (key === 'suppressOutput' || key === 'virtual') {
      if (typeof value === 'boolean') column[key] = value;
      else ctx.warnings.add(`${where}: invalid ${key} ${JSON.stringify(value)}; ignored`);
    } else if (key === '@id') column.id = readId(value, where, ctx);
    else if (key === '@type') checkType(value, 'Column', where, ctx);
    else if (isCommonPropertyName(key))
      column.common.push([expandPropertyName(key), normalizeCommon(value, `${where} ${key}`, ctx)]);
    else if (key.startsWith('@')) throw metadataError(`${where}: ${key} is not allowed`, ctx.field);
    else ctx.warnings.add(`${where}: property ${key} is not allowed here; ignored`);
  }
  return column;
}

function columnList(
  value: unknown,
  names: Set<string>,
  what: string,
  ctx: MetadataContext,
): string[] | undefined {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    ctx.warnings.add(`invalid ${what} ${JSON.stringify(value)}; ignored`);
    return undefined;
  }
  const missing = list.filter((name) => !names.has(name));
  if (missing.length > 0) {
    ctx.warnings.add(`${what} names unknown columns ${missing.join(', ')}; ignored`);
    return undefined;
  }
  return list;
}

function readForeignKey(raw: unknown, names: Set<string>, ctx: MetadataContext): ForeignKey {
  const fail = (why: string): never => {
    throw metadataError(`foreign key: ${why}`, ctx.field);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('must be an object');
  const object = raw as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (key !== 'columnReference' && key !== 'reference') fail(`property ${key} is not allowed`);
  }
  const columns =
    typeof object['columnReference'] === 'string' ? [object['columnReference']] : object['columnReference'];
  if (!Array.isArray(columns) || columns.length === 0) return fail('columnReference is missing');
  for (const name of columns)
    if (!names.has(name as string)) fail(`column ${JSON.stringify(name)} does not exist`);
  const reference = object['reference'];
  if (reference === null || typeof reference !== 'object' || Array.isArray(reference))
    return fail('reference must be an object');
  const ref = reference as Record<string, unknown>;
  for (const key of Object.keys(ref)) {
    if (!['resource', 'schemaReference', 'columnReference'].includes(key))
      fail(`reference property ${key} is not allowed`);
  }
  if ('resource' in ref === 'schemaReference' in ref)
    fail('reference needs exactly one of resource and schemaReference');
  const referenced =
    typeof ref['columnReference'] === 'string' ? [ref['columnReference']] : ref['columnReference'];
  if (!Array.isArray(referenced) || referenced.length === 0)
    return fail('reference columnReference is missing');
  const key: ForeignKey = { columnReference: columns as string[], referencedColumns: referenced as string[] };
  if (typeof ref['resource'] === 'string') key.resource = resolveUrl(ref['resource'], ctx.base);
  if (typeof ref['schemaReference'] === 'string')
    key.schemaReference = resolveUrl(ref['schemaReference'], ctx.base);
  return key;
}

/** Reads a `tableSchema` value: an object, or the URL of a schema document. */
export async function readSchema(value: unknown, outer: ReadContext): Promise<SchemaDescription | undefined> {
  let ctx: ReadContext = outer;
  let id: string | undefined;
  if (typeof value === 'string') {
    const url = resolveUrl(value, outer.base);
    value = await loadJson(url, outer);
    ctx = { ...readContext(value as Record<string, unknown>, url, outer, false), load: outer.load };
    id = url;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    outer.warnings.add('tableSchema must be an object; ignored');
    return undefined;
  }
  const object = value as Record<string, unknown>;
  const schema: SchemaDescription = { inherited: {}, columns: [], foreignKeys: [], common: [] };
  if (id) schema.id = id;
  if (Array.isArray(object['columns'])) {
    object['columns'].forEach((raw, i) => {
      const column = readColumn(raw, i, ctx);
      if (column) schema.columns.push(column);
    });
  } else if ('columns' in object) {
    ctx.warnings.add('columns must be an array; ignored');
  }
  const names = new Set<string>();
  let virtualSeen = false;
  for (const column of schema.columns) {
    if (column.name !== undefined) {
      if (names.has(column.name)) throw metadataError(`duplicate column name ${column.name}`, ctx.field);
      names.add(column.name);
    }
    if (column.virtual) virtualSeen = true;
    else if (virtualSeen) throw metadataError('virtual columns must come after all other columns', ctx.field);
  }
  for (const [key, member] of Object.entries(object)) {
    if (key === 'columns' || key === '@context') continue;
    if (INHERITED_KEYS.has(key)) readInherited(key, member, schema.inherited, ctx);
    else if (key === 'primaryKey' || key === 'rowTitles') {
      const list = columnList(member, names, key, ctx);
      if (list) schema[key] = list;
    } else if (key === 'foreignKeys') {
      if (Array.isArray(member)) {
        for (const item of member) {
          if (item !== null && typeof item === 'object' && !Array.isArray(item))
            schema.foreignKeys.push(readForeignKey(item, names, ctx));
          else ctx.warnings.add(`foreign key ${JSON.stringify(item)} is not an object; ignored`);
        }
      } else ctx.warnings.add('foreignKeys must be an array; ignored');
    } else if (key === '@id') schema.id = readId(member, 'schema', ctx);
    else if (key === '@type') checkType(member, 'Schema', 'schema', ctx);
    else if (isCommonPropertyName(key))
      schema.common.push([expandPropertyName(key), normalizeCommon(member, `schema ${key}`, ctx)]);
    else if (key.startsWith('@')) throw metadataError(`schema: ${key} is not allowed`, ctx.field);
    else ctx.warnings.add(`schema: property ${key} is not allowed here; ignored`);
  }
  return schema;
}

/** Foreign keys must reference a table of the group and columns it has (an error if not). */
export function checkForeignKeys(tables: TableDescription[], ctx: MetadataContext): void {
  for (const table of tables) {
    for (const key of table.schema?.foreignKeys ?? []) {
      const target = tables.find((candidate) =>
        key.resource !== undefined
          ? candidate.url === key.resource
          : candidate.schema?.id === key.schemaReference,
      );
      if (!target)
        throw metadataError(
          `foreign key references ${key.resource ?? key.schemaReference}, not a table of the group`,
          ctx.field,
        );
      const names = new Set((target.schema?.columns ?? []).map((column) => column.name));
      for (const name of key.referencedColumns) {
        if (!names.has(name))
          throw metadataError(`foreign key references column ${name}, which ${target.url} lacks`, ctx.field);
      }
    }
  }
}

// Datastore fields from a CSVW descriptor: the columns the CSV has (the annotator's GID and
// other suppressed or virtual columns are not in the file — as /api/rdf reads it), each named
// by its header (first title) and typed by its datatype — the annotator's `format: {"@id":
// xsd:…}` or a standard CSVW `datatype` — so that numbers are numbers, written as the datatype's
// format says (decimalChar, groupChar: lib/csvw/column-format.ts reads them, as describe does);
// the QUDT unit and the other titles go to the field's info.
import { invalid } from '../process/errors.ts';
import type { DescriptorDialect } from '../csvw/descriptor-rows.ts';
import { describedDialect, numberStyleOf, NUMERIC_TYPES, type NumberStyle } from '../csvw/column-format.ts';
import type { Field, FieldType } from './contract.ts';
import { isObject } from '../json.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** A column's type by its XSD name (column-format.ts says which are numbers); anything else is text. */
function fieldType(name: string): FieldType {
  // integer too: sampled from the first rows by the annotator, a later 2.5 must fit
  if (NUMERIC_TYPES.has(name)) return 'numeric';
  if (name === 'boolean') return 'bool';
  if (name === 'date') return 'date';
  return name === 'dateTime' || name === 'datetime' ? 'timestamp' : 'text';
}

export interface DescriptorTable {
  /** The CSV the table describes (`url`), resolved by the caller. */
  url: string | undefined;
  dialect: DescriptorDialect;
  fields: Field[];
  /** Per field, how its numbers are written (column-format.ts). */
  styles: NumberStyle[];
}

type Json = Record<string, unknown>;

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (isObject(value))
    return '@value' in value ? texts(value['@value']) : Object.values(value).flatMap(texts);
  return [];
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value)) return idOf(value['@id'] ?? value.base);
  return undefined;
}

function typeOf(column: Json): FieldType {
  const datatype = idOf(column.format) ?? idOf(column.datatype) ?? 'string';
  return fieldType(datatype.startsWith(XSD) ? datatype.slice(XSD.length) : datatype.replace(/^xsd:/, ''));
}

/** A table's dialect, else the table group's. */
function dialectOf(descriptor: Json, table: unknown): Json {
  if (isObject(table) && isObject(table.dialect)) return table.dialect;
  return isObject(descriptor.dialect) ? descriptor.dialect : {};
}

/** The number of tables of a table group (1 for a lone table). */
export function tableCount(descriptor: unknown): number {
  return isObject(descriptor) && Array.isArray(descriptor.tables) ? descriptor.tables.length : 1;
}

/**
 * Which table of a table group the datastore keeps (one table per resource): the one with room
 * for the most rows, from its first data line to the next table's first line (the last one to
 * the file's end, `lines`). Machine exports put settings, specimen dimensions or a first short
 * acquisition as small tables before their measurements (Shimadzu Trapezium, MTS 793); the
 * first of equals wins.
 */
export function mainTableIndex(descriptor: unknown, lines: number): number {
  if (!isObject(descriptor) || !Array.isArray(descriptor.tables)) return 0;
  // Blocks of one file only: a table group of several files keeps its first table.
  const urls = new Set(descriptor.tables.map((table: unknown) => (isObject(table) ? table.url : undefined)));
  if (urls.size > 1) return 0;
  const starts = descriptor.tables.map((table: unknown) => {
    const { skipRows, headerRowCount } = describedDialect(dialectOf(descriptor, table));
    return { first: skipRows, data: skipRows + headerRowCount };
  });
  let best = 0;
  let room = -1;
  starts.forEach(({ data }, i) => {
    const end = starts[i + 1]?.first ?? lines;
    if (end - data > room) [best, room] = [i, end - data];
  });
  return best;
}

/** A table of a descriptor (a table group's, the first by default, or a lone table) as datastore fields. */
export function descriptorTable(descriptor: unknown, index = 0): DescriptorTable {
  const fail = (detail: string) => invalid(`metadata_url: ${detail}`, 'metadata_url');
  if (!isObject(descriptor)) throw fail('a CSVW descriptor (a JSON object)');
  const table = Array.isArray(descriptor.tables) ? descriptor.tables[index] : descriptor;
  if (!isObject(table) || !isObject(table.tableSchema) || !Array.isArray(table.tableSchema.columns)) {
    throw fail('no table with a tableSchema and columns');
  }
  const dialect = dialectOf(descriptor, table);
  const fields: Field[] = [];
  const styles: NumberStyle[] = [];
  const taken = new Set<string>();
  for (const column of table.tableSchema.columns as unknown[]) {
    if (!isObject(column) || column.virtual === true || column.suppressOutput === true) continue;
    const titles = texts(column.titles);
    const name = typeof column.name === 'string' ? column.name : undefined;
    // The header as the user sees it; the column's name when the header is missing or taken,
    // then a position (CKAN's ids are unique and may not start with `_`).
    const candidates = [titles[0], name, `column ${fields.length + 1}`].filter(
      (id): id is string =>
        typeof id === 'string' && id.trim() !== '' && !id.startsWith('_') && !taken.has(id),
    );
    const id = candidates[0] ?? `column ${fields.length + 1} (${taken.size})`;
    taken.add(id);
    const unit = idOf(column['qudt:unit'] ?? column['http://qudt.org/schema/qudt/unit']);
    const label = titles.slice(1).join(' · ');
    fields.push({
      id,
      type: typeOf(column),
      ...(unit || label ? { info: { ...(label ? { label } : {}), ...(unit ? { unit } : {}) } } : {}),
    });
    styles.push(numberStyleOf(column.datatype));
  }
  if (fields.length === 0) throw fail('the table describes no columns');
  return {
    url: typeof table.url === 'string' ? table.url : undefined,
    dialect: describedDialect(dialect),
    fields,
    styles,
  };
}

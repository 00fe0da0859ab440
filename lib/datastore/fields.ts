// Datastore fields from a CSVW descriptor: the columns the CSV has (the annotator's GID and
// other suppressed or virtual columns are not in the file — as /api/rdf reads it), each named
// by its header (first title) and typed by its datatype — the annotator's `format: {"@id":
// xsd:…}` or a standard CSVW `datatype` — so that numbers are numbers; the QUDT unit and the
// other titles go to the field's info.
import { invalid } from '../process/errors.ts';
import type { DescriptorDialect } from '../csvw/descriptor-rows.ts';
import type { Field, FieldType } from './contract.ts';
import { isObject } from '../json.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** XSD and CSVW datatype names → CKAN types (anything else is text). */
const TYPE_OF: Record<string, FieldType> = {
  integer: 'numeric', // sampled from the first rows by the annotator: a later 2.5 must fit
  int: 'numeric',
  long: 'numeric',
  short: 'numeric',
  byte: 'numeric',
  nonNegativeInteger: 'numeric',
  positiveInteger: 'numeric',
  nonPositiveInteger: 'numeric',
  negativeInteger: 'numeric',
  unsignedLong: 'numeric',
  unsignedInt: 'numeric',
  unsignedShort: 'numeric',
  unsignedByte: 'numeric',
  decimal: 'numeric',
  double: 'numeric',
  float: 'numeric',
  number: 'numeric',
  boolean: 'bool',
  date: 'date',
  dateTime: 'timestamp',
  datetime: 'timestamp',
};

export interface DescriptorTable {
  /** The CSV the table describes (`url`), resolved by the caller. */
  url: string | undefined;
  dialect: DescriptorDialect;
  fields: Field[];
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
  const name = datatype.startsWith(XSD) ? datatype.slice(XSD.length) : datatype.replace(/^xsd:/, '');
  return TYPE_OF[name] ?? 'text';
}

function count(value: unknown, fallback: number): number {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : fallback;
}

/** The first table of a descriptor (a table group's or a lone table) as datastore fields. */
export function descriptorTable(descriptor: unknown): DescriptorTable {
  const fail = (detail: string) => invalid(`metadata_url: ${detail}`, 'metadata_url');
  if (!isObject(descriptor)) throw fail('a CSVW descriptor (a JSON object)');
  const table = Array.isArray(descriptor.tables) ? descriptor.tables[0] : descriptor;
  if (!isObject(table) || !isObject(table.tableSchema) || !Array.isArray(table.tableSchema.columns)) {
    throw fail('no table with a tableSchema and columns');
  }
  const dialect = isObject(table.dialect)
    ? table.dialect
    : isObject(descriptor.dialect)
      ? descriptor.dialect
      : {};
  const fields: Field[] = [];
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
  }
  if (fields.length === 0) throw fail('the table describes no columns');
  return {
    url: typeof table.url === 'string' ? table.url : undefined,
    dialect: {
      skipRows: count(dialect.skipRows, 0),
      headerRowCount: count(dialect.headerRowCount ?? (dialect.header === false ? 0 : undefined), 1),
      delimiter: typeof dialect.delimiter === 'string' ? dialect.delimiter : ',',
      encoding: typeof dialect.encoding === 'string' ? dialect.encoding : 'utf-8',
    },
    fields,
  };
}

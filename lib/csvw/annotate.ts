// Annotated tables (Model for Tabular Data §6): the columns of a table from its description
// (inherited properties resolved) and from the CSV header, the compatibility check between the
// two, and per row the cell values with their about, property and value URLs.
import type { Datatype } from './datatype.ts';
import { STRING_DATATYPE } from './datatype.ts';
import { resolveUrl } from './common.ts';
import type { TableDescription, TableGroupDescription } from './metadata.ts';
import type { CommonProperties, Inherited } from './properties.ts';
import { encodeName, type ColumnDescription } from './schema.ts';
import type { Warnings } from './types.ts';
import { expandTemplate, type TemplateValue } from './uri-template.ts';
import { parseCell, type CellValue, type ColumnValueSpec } from './values.ts';
import { expandPrefixed } from './vocab.ts';

export interface Column {
  /** 1-based position among the table's columns. */
  number: number;
  sourceNumber: number;
  name: string;
  titles: Map<string, string[]>;
  virtual: boolean;
  suppressOutput: boolean;
  spec: ColumnValueSpec;
  ordered: boolean;
  aboutUrl: string | undefined;
  propertyUrl: string | undefined;
  valueUrl: string | undefined;
  common: CommonProperties;
}

export interface Cell {
  column: Column;
  value: CellValue;
  aboutUrl: string | undefined;
  propertyUrl: string;
  valueUrl: string | undefined;
}

function merged(levels: Inherited[]): Inherited {
  const result: Inherited = {};
  for (const level of levels.toReversed()) Object.assign(result, level);
  return result;
}

function makeColumn(
  description: ColumnDescription | undefined,
  index: number,
  skipColumns: number,
  levels: Inherited[],
): Column {
  const inherited = merged(description ? [description.inherited, ...levels] : levels);
  const titles = description?.titles ?? new Map<string, string[]>();
  const firstTitle = description?.titleName;
  const name = description?.name ?? (firstTitle !== undefined ? encodeName(firstTitle) : `_col.${index + 1}`);
  const datatype: Datatype = inherited.datatype ?? STRING_DATATYPE;
  return {
    number: index + 1,
    sourceNumber: index + 1 + skipColumns,
    name,
    titles,
    virtual: description?.virtual ?? false,
    suppressOutput: description?.suppressOutput ?? false,
    spec: {
      datatype,
      lang: inherited.lang ?? 'und',
      nulls: inherited.null ?? [''],
      default: inherited.default ?? '',
      separator: inherited.separator ?? null,
      required: inherited.required ?? false,
    },
    ordered: inherited.ordered ?? false,
    aboutUrl: inherited.aboutUrl,
    propertyUrl: inherited.propertyUrl,
    valueUrl: inherited.valueUrl,
    common: description?.common ?? [],
  };
}

function languagesMatch(a: string, b: string): boolean {
  if (a === 'und' || b === 'und') return true;
  const length = Math.min(a.length, b.length);
  return a.slice(0, length).toLowerCase() === b.slice(0, length).toLowerCase();
}

function compatible(
  description: ColumnDescription,
  embedded: string[] | undefined,
  embeddedLang: string,
): boolean {
  const titles = description.titles;
  if (!embedded || embedded.length === 0) return true; // no header: nothing to compare
  if (!titles) return true; // no titles, or a name only: matched by position when not validating
  for (const [lang, texts] of titles) {
    if (languagesMatch(lang, embeddedLang) && texts.some((text) => embedded.includes(text))) return true;
  }
  return false;
}

/** The columns of a table, given its description and the titles of the CSV header. */
export class TableColumns {
  readonly columns: Column[];
  private readonly table: TableDescription;
  private readonly levels: Inherited[];
  private readonly skipColumns: number;

  constructor(
    table: TableDescription,
    group: TableGroupDescription,
    headerTitles: string[][],
    skipColumns: number,
    warnings: Warnings,
  ) {
    this.table = table;
    this.skipColumns = skipColumns;
    const schema = table.schema;
    this.levels = [schema?.inherited ?? {}, table.inherited, group.inherited];
    const described = schema?.columns ?? [];
    const real = described.filter((column) => !column.virtual);
    if (schema && headerTitles.length > 0 && headerTitles.length !== real.length) {
      warnings.add(`${table.url}: the CSV has ${headerTitles.length} columns, the metadata ${real.length}`);
    }
    // The header's titles are in the table's language (CSVW: embedded metadata takes `lang`).
    const embeddedLang = merged(this.levels).lang ?? 'und';
    this.columns = [];
    const count = Math.max(real.length, headerTitles.length);
    for (let i = 0; i < count; i++) {
      const description = real[i];
      if (description && !compatible(description, headerTitles[i], embeddedLang)) {
        warnings.add(
          `${table.url}: column ${i + 1} titles do not match the CSV header ${JSON.stringify(headerTitles[i])}`,
        );
      }
      const column = makeColumn(description, i, skipColumns, this.levels);
      if (table.embedded && headerTitles[i]) {
        column.titles = new Map([['und', headerTitles[i] as string[]]]);
        column.name = encodeName(headerTitles[i]?.[0] as string);
      }
      this.columns.push(column);
    }
    for (const description of described.filter((column) => column.virtual)) {
      this.columns.push(makeColumn(description, this.columns.length, skipColumns, this.levels));
    }
  }

  /** Adds columns for cells beyond the known ones (rows wider than the header). */
  widen(width: number): void {
    const real = this.columns.filter((column) => !column.virtual).length;
    for (let i = real; i < width; i++) {
      const column = makeColumn(undefined, i, this.skipColumns, this.levels);
      this.columns.splice(i, 0, column);
    }
    this.columns.forEach((column, i) => (column.number = i + 1));
  }

  /** The cells of one row, with values parsed and URL templates expanded. */
  cells(cells: string[], rowNumber: number, sourceRow: number, warnings: Warnings): Cell[] {
    const width = this.columns.filter((column) => !column.virtual).length;
    if (cells.length !== width) {
      // Ragged rows are allowed by CSVW (missing cells are empty, extra ones get new columns).
      if (width > 0)
        warnings.add(`${this.table.url} row ${rowNumber}: ${cells.length} cells for ${width} columns`);
      if (cells.length > width) this.widen(cells.length);
    }
    const values = this.columns.map((column, i) => {
      if (column.virtual) return { literals: [], list: false, template: null, errors: [] } as CellValue;
      const value = parseCell(cells[i] ?? '', column.spec);
      for (const error of value.errors)
        warnings.add(`${this.table.url} row ${rowNumber} ${column.name}: ${error}`);
      return value;
    });
    const byName = new Map<string, TemplateValue>();
    this.columns.forEach((column, i) => byName.set(column.name, values[i]?.template));
    const base = this.table.url;
    return this.columns.map((column, i) => {
      const value = values[i] as CellValue;
      const vars = (name: string): TemplateValue => {
        if (name === '_row') return String(rowNumber);
        if (name === '_sourceRow') return String(sourceRow);
        if (name === '_column') return String(column.number);
        if (name === '_sourceColumn') return String(column.sourceNumber);
        if (name === '_name') return safeDecode(column.name);
        return byName.get(name);
      };
      const expand = (template: string | undefined): string | undefined =>
        template === undefined ? undefined : resolveUrl(expandPrefixed(expandTemplate(template, vars)), base);
      const hasValue = value.template !== null || column.virtual;
      return {
        column,
        value,
        aboutUrl: expand(column.aboutUrl),
        propertyUrl: expand(column.propertyUrl) ?? `${base.split('#')[0]}#${column.name}`,
        valueUrl: hasValue ? expand(column.valueUrl) : undefined,
      };
    });
  }
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

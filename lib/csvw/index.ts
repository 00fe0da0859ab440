// labld's CSVW → RDF converter (W3C "Generating RDF from Tabular Data on the Web", standard
// and minimal modes), and the original annotator's /api/rdf output built on the same reader.
// Start from a metadata document, or from a CSV file whose metadata is found by the CSVW rules.
import type * as RDF from '@rdfjs/types';
import { TableColumns } from './annotate.ts';
import { csvEvents } from './csv-reader.ts';
import { readDialect } from './dialect.ts';
import { Emitter, type QuadSink } from './emit.ts';
import { locateMetadata } from './locate.ts';
import { readMetadata, type TableDescription, type TableGroupDescription } from './metadata.ts';
import {
  CSV_FIELD,
  METADATA_FIELD,
  Warnings,
  loadResource,
  metadataError,
  resourceText,
  textChunks,
  type CsvwInput,
  type CsvwOptions,
  type LoadedResource,
} from './types.ts';
import type { Literal } from './values.ts';
import { LimitError, maxColumns, parseJson } from '../limits.ts';

export type { CsvwInput, CsvwOptions, LoadedResource, ResourceLoader, Mode } from './types.ts';
export type { QuadSink } from './emit.ts';
export {
  ORIGINAL_AGENT,
  descriptorGraph,
  descriptorToRdf,
  type DescriptorGraph,
  type DescriptorInput,
  type DescriptorOptions,
} from './descriptor-rdf.ts';
export { descriptorTurtle, type DescriptorTurtle } from './descriptor-turtle.ts';

export interface CsvwResult {
  quads: RDF.Quad[];
  warnings: string[];
}

const EMBEDDED_BASE = 'urn:labld:metadata';

async function metadataDocument(input: CsvwInput, options: CsvwOptions, field: string): Promise<unknown> {
  if (input.metadata !== undefined) return input.metadata;
  const url = input.metadataUrl as string;
  const text = await resourceText(await loadResource(options.load, url, field));
  try {
    return parseJson(text, field);
  } catch (error) {
    if (error instanceof LimitError) throw error;
    throw metadataError(`${url} is not JSON: ${(error as Error).message}`, field);
  }
}

/** The table group to convert, and the already-loaded CSV when we started from one. */
async function startingPoint(
  input: CsvwInput,
  options: CsvwOptions,
  warnings: Warnings,
): Promise<{ group: TableGroupDescription; loaded: Map<string, LoadedResource> }> {
  const metadataField = options.metadataField ?? METADATA_FIELD;
  const csvField = options.csvField ?? CSV_FIELD;
  const read = (document: unknown, url: string): Promise<TableGroupDescription> =>
    readMetadata(document, url, { load: options.load, warnings, field: metadataField });
  const loaded = new Map<string, LoadedResource>();
  const hasMetadata = input.metadata !== undefined || input.metadataUrl !== undefined;
  if (hasMetadata) {
    const document = await metadataDocument(input, options, metadataField);
    return { group: await read(document, input.metadataUrl ?? input.csvUrl ?? EMBEDDED_BASE), loaded };
  }
  if (input.csvUrl === undefined) throw metadataError('give a metadata document or a CSV URL', metadataField);
  const csvUrl = input.csvUrl;
  const csv = await loadResource(options.load, csvUrl, csvField);
  loaded.set(csvUrl, csv);
  const found = await locateMetadata(csvUrl, csv, options.load, warnings, metadataField);
  if (found) return { group: await read(found.document, found.url), loaded };
  const table: TableDescription = {
    inherited: {},
    url: csvUrl,
    notes: [],
    suppressOutput: false,
    common: [],
    embedded: true,
  };
  if (csv.contentType && /header\s*=\s*absent/i.test(csv.contentType)) table.dialect = { header: false };
  return { group: { inherited: {}, tables: [table], notes: [], common: [] }, loaded };
}

async function convertTable(
  table: TableDescription,
  group: TableGroupDescription,
  groupNode: RDF.Quad_Subject | undefined,
  emitter: Emitter,
  resource: LoadedResource,
  warnings: Warnings,
  field: string,
): Promise<void> {
  const dialect = readDialect(table.dialect, warnings);
  const tableNode =
    emitter.standard && groupNode
      ? emitter.table(groupNode, table.id, table.url, table.notes, table.common)
      : undefined;
  let columns: TableColumns | undefined;
  const rowTitles = table.schema?.rowTitles ?? [];
  const limits = { field, url: table.url, maxColumns: maxColumns() };
  for await (const event of csvEvents(textChunks(resource, dialect.encoding), dialect, undefined, limits)) {
    if (event.kind === 'comment') {
      if (tableNode) emitter.comment(tableNode, event.text);
    } else if (event.kind === 'header') {
      columns = new TableColumns(table, group, event.titles, dialect.skipColumns, warnings);
    } else if (columns) {
      const cells = columns.cells(event.cells, event.number, event.sourceNumber, warnings);
      const titles: Literal[] = [];
      for (const name of rowTitles) {
        const cell = cells.find((candidate) => candidate.column.name === name);
        if (cell) titles.push(...cell.value.literals);
      }
      emitter.row(tableNode, table.url, event.number, event.sourceNumber, titles, cells);
    }
  }
}

/**
 * Converts tabular data to RDF, handing each quad to `sink` as it is made. Errors are
 * DomainErrors naming metadata_url or csv_url; warnings are returned (and passed to
 * options.onWarning).
 */
export async function csvwToRdfStream(
  input: CsvwInput,
  options: CsvwOptions,
  sink: QuadSink,
): Promise<{ warnings: string[] }> {
  const warnings = new Warnings(options.onWarning);
  const { group, loaded } = await startingPoint(input, options, warnings);
  const emitter = new Emitter(sink, options.mode ?? 'standard');
  const groupNode = emitter.standard ? emitter.group(group.id, group.notes, group.common) : undefined;
  const csvField = options.csvField ?? CSV_FIELD;
  for (const table of group.tables) {
    if (table.suppressOutput) continue;
    const resource = loaded.get(table.url) ?? (await loadResource(options.load, table.url, csvField));
    loaded.delete(table.url);
    await convertTable(table, group, groupNode, emitter, resource, warnings, csvField);
  }
  return { warnings: warnings.list };
}

/** Converts tabular data to RDF: all quads in memory. */
export async function csvwToRdf(input: CsvwInput, options: CsvwOptions): Promise<CsvwResult> {
  const quads: RDF.Quad[] = [];
  const { warnings } = await csvwToRdfStream(input, options, (quad) => quads.push(quad));
  return { quads, warnings };
}

// TEST DOUBLE of the catalogue's CatalogueSource: an in-memory demo catalogue (datasets, one CSV
// resource with datastore rows, the `mappings` group, tokens) that serves the pages in tests and
// screenshots until the real stores (catalogue store, datastore, auth) are wired. Not for production.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conflict, invalid, notFound } from '../../../lib/process/errors.ts';
import type {
  Asker,
  CatalogueSource,
  NewDataset,
  TableQuery,
  UploadedResource,
} from '../../../gateways/catalogue/source.ts';
import type {
  ColumnType,
  DatasetSummary,
  DatasetView,
  PageContext,
  ResourceView,
  TablePreviewView,
} from '../../../gateways/catalogue/views.ts';

export const DATASET_PAGE_SIZE = 10;
export const TABLE_PAGE_SIZE = 20;

interface Table {
  columns: { name: string; type: ColumnType }[];
  rows: (string | number | null)[][];
}

interface DoubleResource extends ResourceView {
  path: string;
  contentType: string;
  table?: Table;
}

interface DoubleDataset extends Omit<DatasetView, 'resources'> {
  resources: DoubleResource[];
  modified: string;
  groups: string[];
}

/** 45 rows of a plate-reader run: numbers that sort differently as text (9 < 10 < 100). */
export function demoTable(): Table {
  const operators = ['ada', 'grace', 'lin'];
  const rows: (string | number | null)[][] = [];
  for (let i = 1; i <= 45; i++) {
    rows.push([
      `S-${String(i).padStart(3, '0')}`,
      (i * 37) % 101, // 0..100 in a scrambled order
      i % 7 === 0 ? null : Math.round(((i * 13) % 50) * 1.5 * 10) / 10,
      operators[i % 3]!,
    ]);
  }
  return {
    columns: [
      { name: 'sample', type: 'text' },
      { name: 'temperature', type: 'number' },
      { name: 'yield', type: 'number' },
      { name: 'operator', type: 'text' },
    ],
    rows,
  };
}

function csv(table: Table): string {
  const line = (values: (string | number | null)[]) =>
    values.map((v) => (v === null ? '' : String(v))).join(',');
  return [line(table.columns.map((c) => c.name)), ...table.rows.map(line)].join('\n') + '\n';
}

function compare(
  a: string | number | null,
  b: string | number | null,
  type: ColumnType,
  sign: number,
): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1; // empty cells last either way
  return sign * (type === 'number' ? Number(a) - Number(b) : String(a).localeCompare(String(b)));
}

export class CatalogueSourceDouble implements CatalogueSource {
  private readonly datasetsByName = new Map<string, DoubleDataset>();
  private nextId = 1;
  /** What the upload handler received, for tests to look at. */
  readonly uploads: { dataset: string; filename: string; size: number }[] = [];

  private readonly directory: string;
  private readonly viewer: PageContext;

  private constructor(directory: string, viewer: PageContext) {
    this.directory = directory;
    this.viewer = viewer;
  }

  static async create(
    viewer: PageContext = { user: { name: 'ada' }, csrfToken: 'test-csrf' },
  ): Promise<CatalogueSourceDouble> {
    const double = new CatalogueSourceDouble(
      await mkdtemp(join(tmpdir(), 'labld-catalogue-double-')),
      viewer,
    );
    await double.seed();
    return double;
  }

  async close(): Promise<void> {
    await rm(this.directory, { recursive: true, force: true });
  }

  private async seed(): Promise<void> {
    const topics = ['Plate reader', 'Tensile test', 'Spectroscopy', 'Calorimetry', 'Microscopy', 'Rheology'];
    for (let i = 0; i < 24; i++) {
      const topic = topics[i % topics.length]!;
      const name = `${topic.toLowerCase().replace(/ /g, '-')}-${String(i + 1).padStart(2, '0')}`;
      this.datasetsByName.set(name, {
        name,
        title: `${topic} run ${i + 1}`,
        description: `Measurements of the ${topic.toLowerCase()} campaign, batch ${i + 1}.`,
        organization: i % 2 ? 'Materials lab' : 'Bio lab',
        private: i % 5 === 4,
        steps: [],
        canUpload: true,
        resources: [],
        modified: `2026-11-${String(1 + (i % 24)).padStart(2, '0')}T10:00:00Z`,
        groups: [],
      });
    }
    const first = this.datasetsByName.get('plate-reader-01')!;
    const table = demoTable();
    await this.addStored(
      first,
      'plate-run.csv',
      csv(table),
      'CSV',
      'text/csv',
      { kind: 'user', name: 'ada' },
      table,
    );
    await this.addStored(
      first,
      'plate-run-metadata.json',
      '{"@context":"http://www.w3.org/ns/csvw"}\n',
      'JSON-LD',
      'application/ld+json',
      { kind: 'step', step: 'annotate', chain: 'csv2rdf' },
    );
    first.steps = [
      { step: 'annotate', status: 'done' },
      { step: 'checkmapping', status: 'pending' },
    ];
    this.datasetsByName.set('plate-reader-mapping', {
      name: 'plate-reader-mapping',
      title: 'Plate reader mapping',
      description: 'YARRRML rules that map plate reader CSV files to linked data.',
      organization: 'Bio lab',
      private: false,
      steps: [],
      canUpload: true,
      resources: [],
      modified: '2026-11-20T09:00:00Z',
      groups: ['mappings'],
    });
    await this.addStored(
      this.datasetsByName.get('plate-reader-mapping')!,
      'plate.yarrrml.yaml',
      'prefixes: {}\n',
      'YARRRML',
      'application/yaml',
      { kind: 'user', name: 'grace' },
    );
  }

  private async addStored(
    dataset: DoubleDataset,
    name: string,
    bytes: string,
    format: string,
    contentType: string,
    madeBy: ResourceView['madeBy'],
    table?: Table,
  ): Promise<DoubleResource> {
    const id = `r${this.nextId++}`;
    const path = join(this.directory, id);
    await writeFile(path, bytes);
    const resource: DoubleResource = {
      id,
      name,
      format,
      size: Buffer.byteLength(bytes),
      madeBy,
      created: '2026-11-24T12:00:00Z',
      downloadUrl: `/dataset/${encodeURIComponent(dataset.name)}/resource/${id}/download`,
      previewable: table !== undefined,
      path,
      contentType,
      ...(table ? { table } : {}),
    };
    dataset.resources.push(resource);
    return resource;
  }

  private find(name: string): DoubleDataset {
    const dataset = this.datasetsByName.get(name);
    if (!dataset) throw notFound(`dataset ${name}: not found`, 'name');
    return dataset;
  }

  private summary(d: DoubleDataset): DatasetSummary {
    return {
      name: d.name,
      title: d.title,
      ...(d.description ? { description: d.description } : {}),
      ...(d.organization ? { organization: d.organization } : {}),
      resourceCount: d.resources.length,
      modified: d.modified,
      private: d.private,
    };
  }

  context(): PageContext {
    return { ...this.viewer };
  }

  datasets(_asker: Asker, query: string, page: number) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matching = [...this.datasetsByName.values()]
      .filter((d) =>
        words.every((w) => `${d.name} ${d.title} ${d.description ?? ''}`.toLowerCase().includes(w)),
      )
      .sort((a, b) => a.name.localeCompare(b.name));
    const start = (page - 1) * DATASET_PAGE_SIZE;
    return {
      query,
      page,
      pageSize: DATASET_PAGE_SIZE,
      total: matching.length,
      datasets: matching.slice(start, start + DATASET_PAGE_SIZE).map((d) => this.summary(d)),
    };
  }

  dataset(_asker: Asker, name: string): DatasetView {
    const { modified: _modified, groups: _groups, ...view } = this.find(name);
    return { ...view, resources: view.resources.map(({ path: _p, contentType: _c, table: _t, ...r }) => r) };
  }

  upload(_asker: Asker, name: string) {
    const d = this.find(name);
    return { dataset: { name: d.name, title: d.title } };
  }

  async addResource(_asker: Asker, name: string, file: UploadedResource): Promise<string> {
    const dataset = this.find(name);
    const id = `r${this.nextId++}`;
    const path = join(this.directory, id);
    await copyFile(file.path, path);
    this.uploads.push({ dataset: name, filename: file.filename, size: file.size });
    dataset.resources.push({
      id,
      name: file.filename,
      format: file.filename.split('.').pop()?.toUpperCase() ?? 'data',
      size: file.size,
      madeBy: { kind: 'user', name: this.viewer.user?.name ?? 'anonymous' },
      created: new Date().toISOString(),
      downloadUrl: `/dataset/${encodeURIComponent(name)}/resource/${id}/download`,
      previewable: false,
      path,
      contentType: file.mimetype,
    });
    return id;
  }

  resource(_asker: Asker, name: string, id: string, query: TableQuery) {
    const dataset = this.find(name);
    const stored = dataset.resources.find((r) => r.id === id);
    if (!stored) throw notFound(`resource ${id}: not found`, 'id');
    const { path: _p, contentType: _c, table, ...resource } = stored;
    return {
      dataset: { name: dataset.name, title: dataset.title },
      resource,
      ...(table ? { table: this.preview(table, query) } : {}),
    };
  }

  /** What the datastore will do in SQL: filter (substring, case-insensitive), sort, page. */
  private preview(table: Table, query: TableQuery): TablePreviewView {
    const index = (column: string, field: string): number => {
      const i = table.columns.findIndex((c) => c.name === column);
      if (i < 0) throw invalid(`${field}: no column ${column}`, field);
      return i;
    };
    const filters = Object.entries(query.filters).map(
      ([column, text]) => [index(column, `f.${column}`), text.toLowerCase()] as const,
    );
    let rows = table.rows.filter((row) =>
      filters.every(([i, text]) =>
        String(row[i] ?? '')
          .toLowerCase()
          .includes(text),
      ),
    );
    if (query.sort) {
      const i = index(query.sort.column, 'sort');
      const type = table.columns[i]!.type;
      const sign = query.sort.order === 'asc' ? 1 : -1;
      rows = [...rows].sort((a, b) => compare(a[i] ?? null, b[i] ?? null, type, sign));
    }
    const start = (query.page - 1) * TABLE_PAGE_SIZE;
    return {
      columns: table.columns,
      rows: rows.slice(start, start + TABLE_PAGE_SIZE),
      ...(query.sort ? { sort: query.sort } : {}),
      filters: query.filters,
      page: query.page,
      pageSize: TABLE_PAGE_SIZE,
      total: rows.length,
    };
  }

  async download(_asker: Asker, name: string, id: string) {
    const resource = this.find(name).resources.find((r) => r.id === id);
    if (!resource) throw notFound(`resource ${id}: not found`, 'id');
    return { path: resource.path, filename: resource.name, contentType: resource.contentType };
  }

  group(_asker: Asker, name: string) {
    if (name !== 'mappings') throw notFound(`group ${name}: not found`, 'name');
    return {
      name,
      title: 'Mappings',
      description: 'Datasets holding mapping rules (YARRRML) the automation chain applies to new CSV files.',
      datasets: [...this.datasetsByName.values()]
        .filter((d) => d.groups.includes(name))
        .map((d) => this.summary(d)),
    };
  }

  createDataset(_asker: Asker, fields: NewDataset): string {
    if (this.datasetsByName.has(fields.name)) throw conflict(`name: ${fields.name} is taken`, 'name');
    this.datasetsByName.set(fields.name, {
      name: fields.name,
      title: fields.title || fields.name,
      description: fields.notes,
      private: fields.private,
      steps: [],
      canUpload: true,
      resources: [],
      modified: new Date().toISOString(),
      groups: [],
    });
    return fields.name;
  }

  createToken(_asker: Asker, name: string): string {
    return `labld_double-token-${name}`;
  }

  revokeToken(): void {}

  tokens(_asker?: Asker, created?: { name: string; secret: string }) {
    return {
      ...(created ? { newToken: created } : {}),
      tokens: [
        {
          id: 't1',
          name: 'notebook on lab-pc-3',
          created: '2026-10-02T08:00:00Z',
          lastUsed: '2026-11-24T16:12:00Z',
        },
        { id: 't2', name: 'nightly export', created: '2026-11-01T08:00:00Z' },
      ],
    };
  }
}

// The pages' real source: every page is made from the answers of the catalogue's actions, called
// over the bus with the asker's credential (callAction), so a page shows exactly what the Action
// API shows that person and authorization is decided in one place. This file only turns CKAN's
// dicts into the pages' view models.
import type { StoredUpload } from '../../lib/contracts/catalogue.ts';
import { forbidden, invalid, notFound, unauthorized } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { callAction } from './actions.ts';
import { idempotencyOf } from './idempotency.ts';
import type {
  Asker,
  CatalogueSource,
  NewDataset,
  PlotQuery,
  TableQuery,
  UploadedResource,
} from './source.ts';
import type {
  DatasetSummary,
  DatasetView,
  ResourcesView,
  GroupView,
  Maker,
  ResourcePageView,
  ResourceView,
  TokenView,
  TripleStoreView,
} from './views.ts';
import { ENDPOINT_FORMAT, ENDPOINT_NAME } from '../../lib/chain/load.ts';
import { resourcePath } from './pages/datasets.ts';
import { plotView, tablePreview, type FoundRows } from './data-views.ts';
import type { Field } from '../../lib/datastore/contract.ts';
import { fileView } from './file-views.ts';
import { deadLetterViews, stepViews } from './step-views.ts';
import { libraryView } from './library-view.ts';
import { builderPath } from './pages/mapping-builder.ts';
import { QuerySource } from './query-source.ts';
import type { Sentence } from '../../lib/triplestore/builder.ts';
import type { AutomationView } from './pages/automation.ts';
import { text } from '../../lib/json.ts';
import type { StepSummary } from '../../lib/chain/status.ts';
import { STEP_FACETS } from '../../lib/chain/pipeline.ts';
import { searchBoxQuery } from '../../lib/catalogue/search-query.ts';
import { mappingGroup } from '../../lib/catalogue/mapping-library.ts';

export const DATASET_PAGE_SIZE = 20;

type Dict = Record<string, unknown>;

const optionalText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
/** CKAN times have no zone and are UTC. */
const time = (value: unknown): string =>
  typeof value === 'string' && value !== '' ? `${value.replace(/Z$/, '')}Z` : '';

/** The owning organization's title (or name), as the pages show it; none: nothing. */
function organizationOf(d: Dict): { organization?: string } {
  const owner = (d.organization ?? {}) as Dict;
  const shown = optionalText(owner.title) ?? optionalText(owner.name);
  return shown === undefined ? {} : { organization: shown };
}

function summaryOf(d: Dict): DatasetSummary {
  return {
    name: text(d.name),
    title: text(d.title) || text(d.name),
    ...(optionalText(d.notes) ? { description: text(d.notes) } : {}),
    ...organizationOf(d),
    resourceCount: typeof d.num_resources === 'number' ? d.num_resources : 0,
    modified: time(d.metadata_modified),
    private: d.private === true,
  };
}

/** A chain step's resource says which step made it (research §1.8); a person's upload, who. */
function makerOf(r: Dict, names: ReadonlyMap<string, string>): Maker {
  const derivation = r.labld_derivation as { step?: unknown } | null | undefined;
  const step = optionalText(derivation?.step) ?? optionalText(r.wasGeneratedBy);
  if (step) return { kind: 'step', step };
  const creator = text(r.creator_user_id);
  return { kind: 'user', name: names.get(creator) ?? 'a user' };
}

function resourceViewOf(dataset: string, r: Dict, names: ReadonlyMap<string, string>): ResourceView {
  const id = text(r.id);
  return {
    id,
    name: text(r.name) || id,
    format: text(r.format) || 'file',
    ...(typeof r.size === 'number' ? { size: r.size } : {}),
    madeBy: makerOf(r, names),
    created: time(r.created),
    downloadUrl: `${resourcePath(dataset, id)}/download`,
    previewable: r.datastore_active === true,
    // CKAN's dicts give a link an empty url_type and its own URL.
    ...(r.url_type !== 'upload' && /^https?:\/\//i.test(text(r.url)) ? { link: text(r.url) } : {}),
  };
}

/** The load status (labld_status_show's `triplestore`) and the endpoint resource, as the page tells them. */
function tripleStoreViewOf(load: unknown, resources: Dict[], canLoad: boolean): TripleStoreView {
  const endpoint = resources.find((r) => r.name === ENDPOINT_NAME && r.format === ENDPOINT_FORMAT);
  const view: TripleStoreView = { state: 'not-loaded', canLoad };
  if (endpoint && typeof endpoint.url === 'string') view.endpoint = endpoint.url;
  if (load === null || typeof load !== 'object') return view;
  const status = load as Dict;
  const state = status.state;
  if (state !== 'queued' && state !== 'running' && state !== 'done' && state !== 'failed') return view;
  view.state = state;
  if (state === 'done') {
    const summary = (status.summary ?? {}) as Dict;
    if (typeof summary.note === 'string') view.note = summary.note;
    if (typeof summary.triples === 'number') view.triples = summary.triples;
    if (summary.withRows === true) view.withRows = true;
    if (typeof status.finishedAt === 'string') view.when = status.finishedAt;
  } else if (state === 'failed') {
    const failure = (status.failure ?? {}) as Dict;
    view.error = text(failure.detail);
    view.action = text(failure.action);
  }
  return view;
}

/** The chain steps done for the dataset's sources, with their summaries (labld_status_show's). */
function findingsOf(status: Dict, resources: Dict[]): Pick<TripleStoreView, 'findings'> {
  const names = new Map(resources.map((r) => [text(r.id), text(r.name)]));
  const sources = Array.isArray(status.resources) ? (status.resources as Dict[]) : [];
  const findings = sources.flatMap((r) => {
    const steps = Array.isArray(r.steps) ? (r.steps as Dict[]) : [];
    const source = names.get(text(r.resource_id)) ?? 'a removed resource';
    return steps
      .filter((s) => s.state === 'done' && typeof s.summary === 'object' && s.summary !== null)
      .map((s) => ({ source, step: text(s.step), summary: s.summary as StepSummary }));
  });
  return findings.length > 0 ? { findings } : {};
}

export class ActionSource implements CatalogueSource {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  #call(asker: Asker, name: Parameters<typeof callAction>[1], params: Dict, upload?: StoredUpload) {
    return callAction(this.#runtime, name, params, asker.credential, upload ? { upload } : {});
  }

  async datasets(asker: Asker, query: string, page: number) {
    const found = (await this.#call(asker, 'package_search', {
      q: searchBoxQuery(query),
      rows: DATASET_PAGE_SIZE,
      start: (page - 1) * DATASET_PAGE_SIZE,
      include_private: true,
      ...(STEP_FACETS.length > 0 ? { 'facet.field': STEP_FACETS.map((f) => f.field) } : {}),
    })) as { count: number; results: Dict[]; search_facets?: Record<string, { items: Dict[] }> };
    const facets = STEP_FACETS.map(({ field, title }) => ({
      field,
      title,
      items: (found.search_facets?.[field]?.items ?? []).map((i) => ({
        name: text(i.name),
        count: Number(i.count),
      })),
    })).filter((f) => f.items.length > 0);
    return {
      query,
      page,
      pageSize: DATASET_PAGE_SIZE,
      total: found.count,
      datasets: found.results.map(summaryOf),
      ...(facets.length > 0 ? { facets } : {}),
    };
  }

  async #package(asker: Asker, name: string): Promise<Dict> {
    return (await this.#call(asker, 'package_show', { id: name })) as Dict;
  }

  /** The dataset page's data in one read (labld_dataset_page): its sections are drawn from it too. */
  async #page(asker: Asker, name: string, plot?: string): Promise<Dict> {
    return (await this.#call(asker, 'labld_dataset_page', {
      id: name,
      ...(plot === undefined ? {} : { plot }),
    })) as Dict;
  }

  async dataset(asker: Asker, name: string, plot: PlotQuery = {}): Promise<DatasetView> {
    const page = await this.#page(asker, name, plot.resource);
    const d = page.package as Dict;
    const resources = Array.isArray(d.resources) ? (d.resources as Dict[]) : [];
    const may = page.permissions as Dict;
    const status = page.status as Dict;
    const makers = new Map(Object.entries(page.makers as Record<string, string>));
    const automation = this.#automationOf(d, may, status, page.dead_letters as Dict[] | null);
    return {
      ...this.#resourcesOf(d, may, makers),
      ...(optionalText(d.notes) ? { description: text(d.notes) } : {}),
      ...organizationOf(d),
      private: d.private === true,
      canEdit: may.update === true || may.manage_members === true,
      steps: automation.steps,
      ...(automation.deadLetters ? { deadLetters: automation.deadLetters } : {}),
      triplestore: {
        ...tripleStoreViewOf(status.triplestore, resources, may.load_triplestore === true),
        ...findingsOf(status, resources),
      },
      ...(await plotView(
        // The plot's columns came with the page (labld_dataset_page's `plot`).
        (action, params) =>
          action === 'labld_datastore_plot' &&
          page.plot &&
          params.resource_id === (page.plot as Dict).resource_id
            ? Promise.resolve(page.plot)
            : this.#call(asker, action, params),
        text(d.name),
        resources,
        plot,
      )),
    };
  }

  /** The Resources section alone (what automation.js fetches when the steps changed). */
  async resources(asker: Asker, name: string): Promise<ResourcesView> {
    const page = await this.#page(asker, name);
    const makers = new Map(Object.entries(page.makers as Record<string, string>));
    return this.#resourcesOf(page.package as Dict, page.permissions as Dict, makers);
  }

  #resourcesOf(d: Dict, may: Dict, names: ReadonlyMap<string, string>): ResourcesView {
    const resources = Array.isArray(d.resources) ? (d.resources as Dict[]) : [];
    return {
      name: text(d.name),
      title: text(d.title) || text(d.name),
      resources: resources.map((r) => resourceViewOf(text(d.name), r, names)),
      canUpload: may.upload === true,
    };
  }

  /** The Automation section alone (what automation.js polls while steps run). */
  async automation(asker: Asker, name: string): Promise<AutomationView> {
    const page = await this.#page(asker, name);
    const { package: d, permissions: may, status, dead_letters: letters } = page as Dict;
    return this.#automationOf(d as Dict, may as Dict, status as Dict, letters as Dict[] | null);
  }

  /** `letters`: labld_dead_letter_list's, or null when the viewer may not see them. */
  #automationOf(d: Dict, may: Dict, status: Dict, letters: Dict[] | null): AutomationView {
    const resources = Array.isArray(d.resources) ? (d.resources as Dict[]) : [];
    const names = new Map(resources.map((r) => [text(r.id), text(r.name)]));
    // What each step made, by its source and step (labld_derivation), linked from the step.
    const outputs = new Map<string, { name: string; href: string }>();
    for (const r of resources) {
      const derivation = r.labld_derivation as { source_resource_id?: unknown; step?: unknown } | null;
      if (!derivation) continue;
      const key = `${text(derivation.source_resource_id)} ${text(derivation.step)}`;
      outputs.set(key, { name: text(r.name), href: resourcePath(text(d.name), text(r.id)) });
    }
    const view: AutomationView = {
      dataset: text(d.name),
      steps: stepViews(status, names, {
        canRetry: may.retry_steps === true,
        outputs,
        mappingHref: (resource) =>
          `${builderPath(mappingGroup())}?${new URLSearchParams({ dataset: text(d.name), resource })}`,
      }),
    };
    if (letters !== null) view.deadLetters = deadLetterViews({ dead_letters: letters }, names);
    return view;
  }

  /** Retry of one failed step (labld_chain_retry with `step`). */
  async retryStep(asker: Asker, name: string, resourceId: string, step: string): Promise<void> {
    // A visitor first, whatever the dataset, as for every write.
    if (asker.userName === undefined) throw unauthorized('Log in to retry a step.', 'user');
    await this.#resource(asker, name, resourceId);
    await this.#call(asker, 'labld_chain_retry', { resource_id: resourceId, step });
  }

  /** Replays a dead letter of the dataset's chain (labld_dead_letter_replay). */
  async replayDeadLetter(asker: Asker, name: string, id: string): Promise<void> {
    if (asker.userName === undefined) throw unauthorized('Log in to replay a message.', 'user');
    const d = await this.#package(asker, name);
    const list = (await this.#call(asker, 'labld_dead_letter_list', { id: text(d.id) })) as Dict;
    const letters = Array.isArray(list.dead_letters) ? (list.dead_letters as Dict[]) : [];
    // Only one of the dataset the path names, as the resource routes check theirs.
    if (!letters.some((l) => l.id === id))
      throw notFound(`id: dataset ${name} has no dead letter ${id}`, 'id');
    await this.#call(asker, 'labld_dead_letter_replay', { id });
  }

  async loadTripleStore(asker: Asker, name: string, rows: boolean): Promise<void> {
    if (asker.userName === undefined) throw unauthorized('Log in to load the dataset.', 'user');
    const d = await this.#package(asker, name);
    await this.#call(asker, 'triplestore_load', { id: text(d.id), rows });
  }

  async plot(asker: Asker, name: string, id: string, params: Record<string, string>): Promise<unknown> {
    await this.#resource(asker, name, id);
    return this.#call(asker, 'labld_datastore_plot', { ...params, resource_id: id });
  }

  async createDataset(asker: Asker, fields: NewDataset): Promise<string> {
    const d = (await this.#call(asker, 'package_create', { ...fields })) as Dict;
    return text(d.name);
  }

  async createGroupDataset(asker: Asker, group: string, fields: NewDataset): Promise<string> {
    const name = await this.createDataset(asker, fields);
    await this.#call(asker, 'member_create', { id: group, object: name, object_type: 'package' });
    return name;
  }

  /** The upload form only for those who may upload: a visitor is asked to log in, a reader told no. */
  async upload(asker: Asker, name: string) {
    // A visitor first, whatever the dataset: as for every write, the answer must not tell
    // whether a private dataset of that name exists.
    if (asker.userName === undefined) throw unauthorized('Log in to add a resource.', 'user');
    const d = await this.#package(asker, name);
    const may = (await this.#call(asker, 'labld_dataset_permissions', { id: text(d.id) })) as Dict;
    if (may.upload !== true) {
      throw forbidden('Only the editors and admins of this dataset may add resources.', 'user');
    }
    return { dataset: { name: text(d.name), title: text(d.title) || text(d.name) } };
  }

  async addResource(asker: Asker, name: string, file: UploadedResource): Promise<string> {
    if (asker.userName === undefined) throw unauthorized('Log in to add a resource.', 'user');
    const d = await this.#package(asker, name);
    const blob = await this.#runtime.blobs.putFile(file.keep(), file.sha256);
    const params = {
      package_id: text(d.id),
      name: file.filename,
      ...(file.description ? { description: file.description } : {}),
    };
    const upload = { blob, filename: file.filename, mimetype: file.mimetype, size: file.size };
    const idempotency = idempotencyOf({
      key: file.idempotencyKey,
      action: 'resource_create',
      credential: asker.credential,
      params,
      upload,
    });
    const created = (await callAction(this.#runtime, 'resource_create', params, asker.credential, {
      upload,
      idempotency,
    })) as Dict;
    return text(created.id);
  }

  /** The resource, checked to belong to the dataset the path names (else not found, as CKAN's pages). */
  async #resource(asker: Asker, name: string, id: string): Promise<{ d: Dict; r: Dict }> {
    const d = await this.#package(asker, name);
    const resources = Array.isArray(d.resources) ? (d.resources as Dict[]) : [];
    const r = resources.find((x) => x.id === id);
    if (!r) throw notFound(`id: dataset ${name} has no resource ${id}`, 'id');
    return { d, r };
  }

  /** The whole page from one request (labld_resource_page: one read of the store, the table's rows beside it). */
  async resource(asker: Asker, name: string, id: string, table: TableQuery): Promise<ResourcePageView> {
    // The rows only when the table is the view asked for (or the default, the table being there).
    const rows = table.view === undefined || table.view === 'table';
    const { view: _, ...query } = table;
    const page = (await this.#call(asker, 'labld_resource_page', {
      id: name,
      resource_id: id,
      ...(rows ? { table: query } : {}),
    })) as Dict;
    const d = page.package as Dict;
    const r = (d.resources as Dict[]).find((x) => x.id === id)!;
    const names = new Map(Object.entries(page.makers as Record<string, string>));
    const view: ResourcePageView = {
      dataset: { name: text(d.name), title: text(d.title) || text(d.name) },
      resource: resourceViewOf(text(d.name), r, names),
    };
    const file = this.#fileOf(page.file as Dict);
    const stored = file.path && { path: file.path, fileName: file.filename, url: text(r.url) };
    Object.assign(view, await fileView(stored || undefined, r.datastore_active === true, table));
    const found = page.table as { fields: Field[]; found: FoundRows } | null;
    if (view.shown === 'table' && found) view.table = tablePreview(found.fields, found.found, table);
    // The chain's steps of the file (a derived resource shows its source's): a failed one is
    // seen where the user looks for the table, with what to do.
    const may = page.permissions as Dict;
    const steps = this.#automationOf(d, may, page.status as Dict, null).steps;
    if (steps.length > 0) view.steps = steps;
    if (may.upload === true) view.canEdit = true;
    return view;
  }

  async download(asker: Asker, name: string, id: string) {
    await this.#resource(asker, name, id);
    const file = await this.#file(asker, id);
    if (file.path === undefined) {
      throw invalid(`id: resource ${id} is a link to ${file.url}, not a stored file`, 'id');
    }
    return { ...file, path: file.path };
  }

  /** Where a resource's bytes are (none for a link), their name and type. */
  async #file(asker: Asker, id: string) {
    return this.#fileOf((await this.#call(asker, 'labld_resource_download', { id })) as Dict);
  }

  /** labld_resource_download's answer as the pages use it. */
  #fileOf(file: Dict) {
    return {
      path: typeof file.blob === 'string' ? this.#runtime.blobs.path(file.blob) : undefined,
      url: text(file.url),
      filename: text(file.filename) || 'download',
      contentType: text(file.mimetype) || 'application/octet-stream',
    };
  }

  async group(asker: Asker, name: string): Promise<GroupView> {
    const g = (await this.#call(asker, 'group_show', { id: name })) as Dict;
    const found = (await this.#call(asker, 'package_search', {
      fq: `groups:${text(g.name)}`,
      rows: 1000,
      include_private: true,
    })) as { results: Dict[] };
    const view: GroupView = {
      name: text(g.name),
      title: text(g.title) || text(g.name),
      ...(optionalText(g.description) ? { description: text(g.description) } : {}),
      datasets: found.results.map(summaryOf),
    };
    if (view.name === mappingGroup()) {
      view.library = libraryView((await this.#call(asker, 'labld_mapping_library_show', {})) as Dict);
    }
    return view;
  }

  async tokens(asker: Asker, created?: { name: string; secret: string }): Promise<TokenView> {
    const list = (await this.#call(asker, 'api_token_list', {})) as Dict[];
    return {
      tokens: list.map((t) => ({
        id: text(t.id),
        name: text(t.name),
        created: time(t.created_at),
        ...(optionalText(t.last_access) ? { lastUsed: time(t.last_access) } : {}),
      })),
      ...(created ? { newToken: created } : {}),
    };
  }

  async createToken(asker: Asker, name: string): Promise<string> {
    const made = (await this.#call(asker, 'api_token_create', { user: asker.userName ?? '', name })) as Dict;
    return text(made.token);
  }

  async revokeToken(asker: Asker, id: string): Promise<void> {
    await this.#call(asker, 'api_token_revoke', { jti: id });
  }

  queryPage(asker: Asker, name: string, sentence: Sentence) {
    return new QuerySource(this.#runtime).page(asker, name, sentence);
  }
}

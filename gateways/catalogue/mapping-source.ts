// The mapping builder's source (issue 28): what the page offers — the upload's descriptor, the
// templates of the library, each column with the template individuals the mapper suggests — and
// the save: the mapper generates the YARRRML and it becomes a resource of a library dataset (whose
// creation re-runs selection for the uploads waiting for a mapping). Every call goes over the bus
// with the asker's credential: the catalogue's actions, and the mapper's own operations (entities,
// mapping), which read the catalogue's URLs with the asker's rights and others through the guard.
import { randomUUID } from 'node:crypto';
import { isDownload } from '../../lib/blobs/download.ts';
import { mappingGroup } from '../../lib/catalogue/mapping-library.ts';
import type { ActionName } from '../../lib/contracts/catalogue.ts';
import { text } from '../../lib/json.ts';
import { safeDecode } from '../../lib/sources.ts';
import {
  mappingChoices,
  mappingFileName,
  OWL_NAMED_INDIVIDUAL,
  type Choice,
  type EntityList,
} from '../../lib/mapper/index.ts';
import { DomainError, TimeoutError, invalid, notFound, unauthorized } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { sendRequest } from '../forward.ts';
import { toErrorAnswer } from '../kit/index.ts';
import { callAction } from './actions.ts';
import type { Asker } from './source.ts';

type Dict = Record<string, unknown>;

/** What the page is asked for: the upload (or a descriptor's URL) and the template chosen. */
export interface BuilderQuery {
  dataset?: string;
  resource?: string;
  descriptor?: string;
  template?: string;
}

export interface BuilderView {
  group: string;
  /** The upload the mapping is made for, when the page came from one. */
  source?: { dataset: string; datasetTitle: string; resourceId: string; name: string };
  descriptor?: string;
  /** Uploads the asker may read that wait for a mapping (to start from, without a descriptor). */
  waiting: { dataset: string; resourceId: string; name: string }[];
  /** The templates the library holds or its mappings join. */
  templates: { url: string; label: string }[];
  template?: string;
  choices?: Choice[];
  /** The template's individuals, by name. */
  individuals?: string[];
  /** Library datasets the asker may add to. */
  shelves: { name: string; title: string }[];
  /** What the person chose before (a refused save): data entity → individual name. */
  chosen?: Record<string, string>;
  shelf?: string;
  fileName?: string;
  error?: string;
}

/** What the builder's form posts. */
export interface BuilderPost extends BuilderQuery {
  shelf: string;
  name: string;
  /** Data entity name → template individual name ('' not mapped). */
  map: Record<string, string>;
}

const resources = (d: Dict): Dict[] => (Array.isArray(d.resources) ? (d.resources as Dict[]) : []);
const derivation = (r: Dict) =>
  (r.labld_derivation ?? null) as { step?: unknown; source_resource_id?: unknown } | null;
const isTurtle = (r: Dict) =>
  r.url_type === 'upload' &&
  derivation(r) === null &&
  (/^(ttl|turtle)$/i.test(text(r.format)) || /\.ttl$/i.test(text(r.name)));
const lastSegment = (url: string) =>
  safeDecode(
    url
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() || url,
  );

/**
 * A refusal the builder tells in its own page (the reason, the status): a domain error but a
 * visitor's (who gets the login page), or a service that did not answer in time. Anything else
 * is a fault, left to the error page.
 */
export function toldOnPage(error: unknown): { status: number; detail: string } | undefined {
  const domain = error instanceof DomainError && error.kind !== 'unauthorized';
  return domain || error instanceof TimeoutError ? toErrorAnswer(error) : undefined;
}

export class MappingSource {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  #call(asker: Asker, name: ActionName, params: Dict) {
    return callAction(this.#runtime, name, params, asker.credential);
  }

  #entities(asker: Asker, url: string, types?: string): Promise<EntityList> {
    return sendRequest(
      this.#runtime,
      'mapper',
      'entities',
      { url, ...(types ? { types } : {}) },
      { correlationId: randomUUID(), credential: asker.credential },
    ) as Promise<EntityList>;
  }

  /** The library as the asker sees it; only the library's group has a builder. */
  async #library(asker: Asker, group: string): Promise<Dict> {
    if (asker.userName === undefined) throw unauthorized('Log in to make a mapping.', 'user');
    if (group !== mappingGroup()) throw notFound(`group ${group} is not the mapping library`, 'name');
    return (await this.#call(asker, 'labld_mapping_library_show', {})) as Dict;
  }

  /** The templates the library offers: Turtle files of its datasets, then those its mappings join. */
  async #templates(asker: Asker, library: Dict): Promise<BuilderView['templates']> {
    const offered = new Map<string, string>();
    for (const shelf of (library.datasets ?? []) as Dict[]) {
      const d = (await this.#call(asker, 'package_show', { id: text(shelf.name) })) as Dict;
      for (const r of resources(d).filter(isTurtle)) {
        offered.set(text(r.url), `${text(r.name)} (in ${text(d.title) || text(d.name)})`);
      }
    }
    for (const m of (library.mappings ?? []) as Dict[]) {
      const template = (m.summary as Dict | undefined)?.template;
      if (typeof template === 'string' && !offered.has(template)) {
        offered.set(template, `${lastSegment(template)} (joined by ${text(m.name)})`);
      }
    }
    return [...offered].map(([url, label]) => ({ url, label }));
  }

  /** The uploads waiting for a mapping, named (the library lists them by id). */
  async #waiting(asker: Asker, ids: unknown): Promise<BuilderView['waiting']> {
    const list: BuilderView['waiting'] = [];
    for (const id of Array.isArray(ids) ? ids.slice(0, 50) : []) {
      const r = (await this.#call(asker, 'resource_show', { id: text(id) })) as Dict;
      const d = (await this.#call(asker, 'package_show', { id: text(r.package_id) })) as Dict;
      list.push({ dataset: text(d.name), resourceId: text(r.id), name: text(r.name) || text(r.id) });
    }
    return list;
  }

  /** The upload the path names and its descriptor (annotate's output, or the resource itself when it is one). */
  async #source(asker: Asker, dataset: string, id: string) {
    const d = (await this.#call(asker, 'package_show', { id: dataset })) as Dict;
    const list = resources(d);
    const r = list.find((x) => x.id === id);
    if (!r) throw notFound(`resource: dataset ${dataset} has no resource ${id}`, 'resource');
    const made = derivation(r);
    const upload = made?.step === 'annotate' ? (list.find((x) => x.id === made.source_resource_id) ?? r) : r;
    const descriptor =
      made?.step === 'annotate'
        ? r
        : list.find((x) => derivation(x)?.step === 'annotate' && derivation(x)?.source_resource_id === id);
    if (!descriptor) {
      throw invalid(
        `resource: ${text(r.name)} has no descriptor yet: a mapping is made from the descriptor annotate writes (see its Automation steps)`,
        'resource',
      );
    }
    return {
      source: {
        dataset: text(d.name),
        datasetTitle: text(d.title) || text(d.name),
        resourceId: text(upload.id),
        name: text(upload.name),
      },
      descriptor: text(descriptor.url),
    };
  }

  /**
   * The page's view. A template or descriptor the mapper cannot read is said on the page (with
   * the other templates to choose from), not as an error page.
   */
  async builder(
    asker: Asker,
    group: string,
    query: BuilderQuery,
  ): Promise<{ view: BuilderView; status?: number }> {
    const library = await this.#library(asker, group);
    const view: BuilderView = {
      group,
      waiting: [],
      templates: await this.#templates(asker, library),
      shelves: ((library.datasets ?? []) as Dict[])
        .filter((d) => d.can_add === true)
        .map((d) => ({ name: text(d.name), title: text(d.title) || text(d.name) })),
    };
    if (query.dataset && query.resource)
      Object.assign(view, await this.#source(asker, query.dataset, query.resource));
    else if (query.descriptor) view.descriptor = query.descriptor;
    else view.waiting = await this.#waiting(asker, library.waiting);
    if (!view.descriptor || !query.template) return { view };
    view.template = query.template;
    try {
      const [data, slots] = await Promise.all([
        this.#entities(asker, view.descriptor),
        this.#entities(asker, query.template, OWL_NAMED_INDIVIDUAL),
      ]);
      view.individuals = Object.keys(slots.entities);
      view.choices = mappingChoices(data, slots);
      if (view.individuals.length === 0)
        throw invalid('template: the template has no owl:NamedIndividual to map onto', 'template');
      if (view.choices.length === 0)
        throw invalid('descriptor: the descriptor has no named column or annotation', 'descriptor');
      // The name the mapper gives the file it makes (MapToMethod's).
      view.fileName = mappingFileName(view.descriptor);
    } catch (error) {
      const told = toldOnPage(error);
      if (!told) throw error;
      delete view.choices;
      view.error = told.detail;
      return { view, status: told.status };
    }
    return { view };
  }

  /** Generates the mapping and saves it into the library; answers where to go next. */
  async save(asker: Asker, group: string, post: BuilderPost): Promise<string> {
    const library = await this.#library(asker, group);
    const shelf = ((library.datasets ?? []) as Dict[]).find(
      (d) => d.name === post.shelf && d.can_add === true,
    );
    if (!shelf) throw invalid(`shelf: ${post.shelf} is no dataset of the library you may add to`, 'shelf');
    const descriptor =
      post.dataset && post.resource
        ? (await this.#source(asker, post.dataset, post.resource)).descriptor
        : post.descriptor;
    if (!descriptor)
      throw invalid(
        'descriptor: missing: give the upload (dataset, resource) or a descriptor URL',
        'descriptor',
      );
    if (!post.template) throw invalid('template: choose a template', 'template');
    const map = Object.fromEntries(Object.entries(post.map).filter(([, individual]) => individual !== ''));
    if (Object.keys(map).length === 0) {
      throw invalid('map: choose a template individual for at least one column', 'map');
    }
    const made = await sendRequest(
      this.#runtime,
      'mapper',
      'mapping',
      { data_url: descriptor, template_url: post.template, map },
      { correlationId: randomUUID(), credential: asker.credential },
    );
    if (!isDownload(made)) throw new Error('the mapper did not reply with a file');
    const name = /\.ya?ml$/i.test(post.name)
      ? post.name
      : `${post.name || made.filename.replace(/\.ya?ml$/i, '')}.yaml`;
    const created = (await callAction(
      this.#runtime,
      'resource_create',
      { package_id: text(shelf.id), name },
      asker.credential,
      {
        upload: {
          blob: made.blob,
          filename: name,
          mimetype: 'application/x-yaml',
          size: this.#runtime.blobs.size(made.blob),
        },
      },
    )) as Dict;
    return text(created.id);
  }
}

// labld_mapping_library_show: the mapping library as its page shows it (issue 28) — each mapping
// of the library's datasets with what it maps (read as the converter reads it), the sources
// whose selection chose it (their joined graphs), and where the caller may add one. Only what
// the caller may read is listed.
import { text as readText } from 'node:stream/consumers';
import { NEEDS_MAPPING } from '../../chain/status.ts';
import { mappingSummary, type MappingSummary } from '../../converter/mapping-summary.ts';
import { readYarrrmlMapping } from '../../converter/mapping.ts';
import { isDomainError, notFound } from '../../process/errors.ts';
import { authorize } from '../auth/authorize.ts';
import type { Viewer } from '../auth/actor.ts';
import { libraryShelves, mappingGroup } from '../mapping-library.ts';
import type { Dataset, Resource } from '../model.ts';
import { downloadUrl } from '../../contracts/catalogue.ts';
import { privateFilterOf, targetOf, type Action, type ActionDeps } from './context.ts';

/** A source converted with a mapping: its dataset, the source, and the joined graph made. */
export interface MappingUse {
  dataset: string;
  dataset_title: string;
  resource_id: string;
  name: string;
  joined?: { resource_id: string; name: string };
}

/** What a mapping maps, or why it cannot be read. */
async function summaryOf(
  deps: ActionDeps,
  mapping: Resource,
): Promise<{ summary: MappingSummary } | { error: string }> {
  try {
    const yaml = await readText(deps.blobs.open(mapping.blob_key!, 'mapping_url'));
    return { summary: mappingSummary(readYarrrmlMapping(yaml)) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { error: error.detail };
  }
}

/** The datasets `viewer` may read, by id, as asked for (each read once). */
function readable(deps: ActionDeps, viewer: Viewer) {
  const seen = new Map<string, Promise<Dataset | undefined>>();
  return (id: string) => {
    if (!seen.has(id)) {
      seen.set(
        id,
        deps.store.getDataset(id).then((d) => {
          const may = d && authorize(viewer.actor, 'dataset.read', targetOf(d)).allowed;
          return may ? d : undefined;
        }),
      );
    }
    return seen.get(id)!;
  };
}

/**
 * The sources whose current selection chose each mapping (by the mapping's resource id), with
 * the joined graph convert made from them: select-mapping's status names the mapping it chose,
 * as convert's event does (the joined graph's provenance names it too, by its URL).
 */
async function uses(deps: ActionDeps, viewer: Viewer): Promise<Map<string, MappingUse[]>> {
  const dataset = readable(deps, viewer);
  const byMapping = new Map<string, MappingUse[]>();
  const resources = new Map<string, Promise<Resource[]>>();
  for (const row of await deps.store.listStepStatus({ step: 'select-mapping', state: 'done' })) {
    const chosen = row.status.state === 'done' ? row.status.summary.mapping : undefined;
    const d = chosen && (await dataset(row.package_id));
    if (!chosen || !d) continue;
    if (!resources.has(d.id)) resources.set(d.id, deps.store.listResources(d.id));
    const list = await resources.get(d.id)!;
    const source = list.find((r) => r.id === row.source_resource_id);
    if (!source) continue;
    const joined = list.find(
      (r) => r.derivation?.source_resource_id === source.id && r.derivation.step === 'convert',
    );
    const use: MappingUse = {
      dataset: d.name,
      dataset_title: d.title || d.name,
      resource_id: source.id,
      name: source.name,
      ...(joined ? { joined: { resource_id: joined.id, name: joined.name } } : {}),
    };
    byMapping.set(chosen.resource_id, [...(byMapping.get(chosen.resource_id) ?? []), use]);
  }
  return byMapping;
}

/** labld_mapping_library_show {}: the library of this catalogue (its group is a setting). */
const libraryShow: Action = async (deps, viewer) => {
  const name = mappingGroup();
  const group = await deps.store.getGroup(name);
  if (!group) throw notFound(`group not found: ${name}`, 'id');
  const shelves = await libraryShelves(deps.store, privateFilterOf(viewer), name);
  const used = await uses(deps, viewer);
  const waiting = readable(deps, viewer);
  const needing = [];
  for (const row of await deps.store.listStepStatus({ step: 'select-mapping', state: NEEDS_MAPPING })) {
    if (await waiting(row.package_id)) needing.push(row.source_resource_id);
  }
  return {
    group: { id: group.id, name: group.name, title: group.title, description: group.description },
    datasets: shelves.map(({ dataset }) => ({
      id: dataset.id,
      name: dataset.name,
      title: dataset.title || dataset.name,
      can_add: authorize(viewer.actor, 'resource.create', targetOf(dataset)).allowed,
    })),
    mappings: await Promise.all(
      shelves.flatMap(({ dataset, mappings }) =>
        mappings.map(async (r) => ({
          resource_id: r.id,
          dataset: dataset.name,
          name: r.name,
          url: downloadUrl(deps.siteUrl, r),
          ...(await summaryOf(deps, r)),
          used_by: used.get(r.id) ?? [],
        })),
      ),
    ),
    // Sources the caller may read whose selection found no mapping: a new one selects again.
    waiting: needing,
  };
};

export const libraryActions = { labld_mapping_library_show: libraryShow };

// The mapping library's page from labld_mapping_library_show's answer (plain text; the page
// escapes it).
import { text } from '../../lib/json.ts';
import { resourcePath } from './pages/datasets.ts';
import type { LibraryView, MappingUseView, MappingView } from './views.ts';

type Dict = Record<string, unknown>;

const list = (value: unknown): Dict[] => (Array.isArray(value) ? (value as Dict[]) : []);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

function useOf(u: Dict): MappingUseView {
  const dataset = text(u.dataset);
  const joined = u.joined as Dict | undefined;
  return {
    dataset: text(u.dataset_title) || dataset,
    name: text(u.name),
    href: resourcePath(dataset, text(u.resource_id)),
    ...(joined
      ? { joined: { name: text(joined.name), href: resourcePath(dataset, text(joined.resource_id)) } }
      : {}),
  };
}

export function libraryView(answer: Dict): LibraryView {
  const datasets = list(answer.datasets);
  const titles = new Map(datasets.map((d) => [text(d.name), text(d.title)]));
  const mappings = list(answer.mappings).map((m): MappingView => {
    const summary = (m.summary ?? {}) as Dict;
    const dataset = text(m.dataset);
    return {
      name: text(m.name),
      href: resourcePath(dataset, text(m.resource_id)),
      download: text(m.url),
      datasetTitle: titles.get(dataset) || dataset,
      ...(typeof summary.template === 'string' ? { template: summary.template } : {}),
      sources: list(summary.sources).map((s) =>
        s.iterator ? `${text(s.name)} (${text(s.iterator)})` : text(s.name),
      ),
      rules: typeof summary.rules === 'number' ? summary.rules : 0,
      classes: strings(summary.classes),
      predicates: strings(summary.predicates),
      targets: strings(summary.targets),
      ...(typeof m.error === 'string' ? { error: m.error } : {}),
      usedBy: list(m.used_by).map(useOf),
    };
  });
  return {
    group: text((answer.group as Dict | undefined)?.name),
    mappings,
    shelves: datasets
      .filter((d) => d.can_add === true)
      .map((d) => ({ name: text(d.name), title: text(d.title) })),
    waiting: Array.isArray(answer.waiting) ? answer.waiting.length : 0,
  };
}

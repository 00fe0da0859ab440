// Making a mapping by hand (the catalogue's mapping builder, issue 28): the data entities a
// person maps one by one, each with the template individuals its text suggests (the choices go
// to POST /api/mapping as {data entity: individual name}, which the mapper resolves).
import type { EntityList } from './entities.ts';
import { holdsText, suggestIndividuals } from './suggest.ts';

export interface Choice {
  /** The data entity's name (the `map` key): `table-1-Standardkraft`, `AktuelleProbe0`. */
  entity: string;
  /** What a rule matches on: the column's name or the annotation's label. */
  text: string;
  kind: 'column' | 'annotation';
  /** Template individual names, best first. */
  suggestions: string[];
  /** The suggestion chosen before the person looks ('' none): only one whose name holds the text. */
  preselected: string;
}

/** Every data entity a rule can match on (it has a label or name), in document order, columns first. */
export function mappingChoices(data: EntityList, slots: EntityList): Choice[] {
  const individuals = Object.keys(slots.entities);
  const choices: Choice[] = [];
  for (const [entity, e] of Object.entries(data.entities)) {
    if (e.property === undefined || e.text === undefined) continue;
    // Columns are named by csvw:name, annotations (metadata rows) by rdfs:label.
    const kind = e.property === 'name' ? 'column' : 'annotation';
    const suggestions = suggestIndividuals(e.text, individuals);
    const preselected = suggestions.find((name) => holdsText(name, e.text!)) ?? '';
    choices.push({ entity, text: e.text, kind, suggestions, preselected });
  }
  return [...choices.filter((c) => c.kind === 'column'), ...choices.filter((c) => c.kind === 'annotation')];
}

// Metadata parts → `notes` (research §1.5): one oa:Annotation per key/value row, the key as
// label (minus a trailing colon and a trailing unit word), one body per value cell, units
// found in the label or the cells annotated on the quantity values (QUDT).
import { makeId } from './names.ts';
import { ColumnStats, isNA, pandasCell, type Cell } from './pandas.ts';
import { splitPandas, type Sep } from './separators.ts';
import { isNumUnit, unitOf, type UnitRef } from './units.ts';
import { parseDate } from './dateparse.ts';
import { pyStrip, stripChars, valueType, XSD_OF } from './value-type.ts';

export type Body = Record<string, unknown>;

export interface Note {
  '@id': string;
  label: string;
  '@type': 'oa:Annotation';
  rownum: { '@value': number; '@type': 'xsd:integer' };
  'oa:hasBody': Body[];
}

/** describe_value: a quantity value for numbers, booleans and dates, else a textual body. */
function describeValue(text: string): Body {
  const typed = valueType(text);
  const quantity = (value: unknown): Body => ({
    '@type': 'qudt:QuantityValue',
    // JSON has no negative zero: "-0" is written 0, so the descriptor reads back as it was made.
    'qudt:value': { '@value': value === 0 ? 0 : value, '@type': XSD_OF[typed.type] },
  });
  switch (typed.type) {
    case 'INT':
    case 'FLOAT':
    case 'BOOL':
      // The original wrote bool(text): True even for "False"; the literal's value is right.
      return quantity(typed.value);
    case 'DATE':
      // dateutil reads the text with its commas; the typer saw them as dots.
      return quantity(parseDate(pyStrip(text)) ?? typed.value);
    default:
      // Bug fix: a URL made the original return a Python set and crash (HTTP 500); it is
      // annotated as text like any other non-quantity value.
      return {
        '@type': 'oa:TextualBody',
        'oa:purpose': 'oa:tagging',
        'oa:format': 'text/plain',
        'oa:value': pyStrip(text),
      };
  }
}

function unitProperty(unit: UnitRef): Body {
  return { 'qudt:unit': { ...unit } };
}

/** The bodies of one row's value cells, with the row's unit carried along. */
function bodies(cells: Cell[], labelUnit: UnitRef | undefined): Body[] {
  const body: Body[] = [];
  let rowUnit = labelUnit;
  for (const cell of cells) {
    const value = stripChars(cell.text, '"');
    let toTest = value;
    for (const part of toTest.split(' ')) {
      const unit = unitOf(pyStrip(part));
      if (!unit) continue;
      rowUnit = unit;
      if (!isNumUnit(unit)) toTest = pyStrip(toTest.split(part).join(''));
      if (!toTest) {
        // A pure unit cell ("mm") qualifies the quantities already in the body.
        for (const entry of body)
          if (entry['@type'] === 'qudt:QuantityValue') Object.assign(entry, unitProperty(unit));
      }
      break;
    }
    if (value === 'nan' || value === 'None' || !toTest) continue;
    let add = describeValue(toTest);
    if (add['@type'] === 'qudt:QuantityValue') {
      if (rowUnit) add = { ...add, ...unitProperty(rowUnit) };
    } else add = describeValue(value);
    body.push(add);
  }
  return body;
}

/**
 * Notes of one metadata part. `lines` are the part's lines (with line breaks), `start` the
 * 0-based line index of the first one, `count` the part's separator count.
 */
export function metaNotes(
  lines: readonly string[],
  start: number,
  sep: Sep,
  count: number,
  namespace: string,
): Note[] {
  const width = count + 1;
  const rows = lines.map((line) => splitPandas(line, sep));
  const stats = Array.from({ length: width }, () => new ColumnStats());
  for (const row of rows) for (let col = 1; col < width; col++) (stats[col] as ColumnStats).add(row[col]);
  const dtypes = stats.map((s) => s.dtype());
  const seen = new Set<string>();
  const notes: Note[] = [];
  rows.forEach((row, offset) => {
    const key = row[0];
    // The original crashed on a row without a key (NaN has no last character); skip it.
    if (key === undefined || isNA(key) || seen.has(key)) return;
    seen.add(key); // the first row of a key wins, even when it has no value
    if (!row.slice(1, width).some((cell) => !isNA(cell))) return; // dropna(thresh=2)
    const values: Cell[] = [];
    for (let col = 1; col < width; col++) values.push(pandasCell(row[col], dtypes[col] ?? 'object'));
    notes.push(note(key, values, start + offset, namespace));
  });
  return notes;
}

function note(key: string, values: Cell[], line: number, namespace: string): Note {
  let param = key.endsWith(':') ? key.slice(0, -1) : key;
  let labelUnit: UnitRef | undefined;
  const space = param.lastIndexOf(' ');
  if (space >= 0) {
    labelUnit = unitOf(param.slice(space + 1));
    if (labelUnit) param = param.slice(0, space);
  }
  return {
    '@id': `${namespace}${makeId(param)}${line}`,
    label: stripChars(param, '"'),
    '@type': 'oa:Annotation',
    rownum: { '@value': line, '@type': 'xsd:integer' },
    'oa:hasBody': bodies(values, labelUnit),
  };
}

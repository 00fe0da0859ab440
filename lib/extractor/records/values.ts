// A property value (openBIS keeps every one as a string) as the node the original made for it,
// with its defects fixed (§3.10): numbers and dates become a qudt:QuantityValue whose value is
// attached to the node the predicate points to (the original left dates and booleans on an
// unattached node), openBIS's own `true`/`false` are booleans, `2014_08_05` is text (not an
// integer with digit separators), and an empty value is no node at all.
import type * as RDF from '@rdfjs/types';
import type { RecordGraph } from './graph.ts';
import { text, typed } from './graph.ts';
import { term } from './vocab.ts';

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;
// openBIS writes timestamps as `2023-05-31 14:09:16 +0200` (or ISO); dates as `2023-05-31`.
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/;

function dateTime(value: string): string | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, day, time = '', zone] = m;
  const seconds = time.length === 5 ? `${time}:00` : time;
  const offset =
    zone === undefined || zone === 'Z'
      ? 'Z'
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const iso = `${day}T${seconds}${offset}`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

function quantity(graph: RecordGraph, value: RDF.Literal): RDF.BlankNode {
  const node = graph.blank();
  graph.type(node, term('qudt', 'QuantityValue'));
  graph.add(node, term('qudt', 'value'), value);
  return node;
}

/** The node for one property value, or undefined for an empty one. */
export function propertyValue(graph: RecordGraph, raw: string): RDF.BlankNode | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  if (INTEGER.test(value)) return quantity(graph, typed(value.replace(/^\+/, ''), 'integer'));
  if (DECIMAL.test(value)) {
    const number = Number(value.replace(',', '.'));
    const lexical = Number.isFinite(number) ? String(number) : number > 0 ? 'INF' : '-INF';
    return quantity(graph, typed(lexical, 'double'));
  }
  if (DATE.test(value) && !Number.isNaN(Date.parse(value))) return quantity(graph, typed(value, 'date'));
  const when = dateTime(value);
  if (when !== undefined) return quantity(graph, typed(when, 'dateTime'));
  if (/^(true|false)$/i.test(value)) return quantity(graph, typed(value.toLowerCase(), 'boolean'));
  const node = graph.blank();
  graph.type(node, term('oa', 'Annotation'));
  graph.add(node, term('oa', 'hasLiteralBody'), text(value));
  return node;
}

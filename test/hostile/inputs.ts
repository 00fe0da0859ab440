// Hostile inputs of issue 11, made in code (deterministic, nothing big committed): deep RDF/XML,
// JSON, JSON-LD and YAML; DTDs with entities; wide and long CSVs.

import { EX } from './documents.ts';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** `depth` nested rdf:Description/property elements (the issue's 3.8 MB file at 50,000). */
export function deepRdfXml(depth: number): string {
  const parts = [`<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="${RDF}" xmlns:ex="${EX}">\n`];
  for (let i = 0; i < depth; i++) parts.push(`<rdf:Description rdf:about="${EX}n${i}"><ex:next>`);
  parts.push(`<rdf:Description rdf:about="${EX}end"/>`);
  parts.push('</ex:next></rdf:Description>'.repeat(depth), '\n</rdf:RDF>\n');
  return parts.join('');
}

/** JSON text nested `depth` levels: objects (`{"a":…}`), arrays (`[…]`) or both, alternating. */
export function deepJson(depth: number, shape: 'object' | 'array' | 'mixed', leaf = '1'): string {
  const open = (i: number) => (shape === 'object' || (shape === 'mixed' && i % 2 === 0) ? '{"a":' : '[');
  const close = (i: number) => (shape === 'object' || (shape === 'mixed' && i % 2 === 0) ? '}' : ']');
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < depth; i++) {
    opens.push(open(i));
    closes.push(close(depth - 1 - i));
  }
  return opens.join('') + leaf + closes.join('');
}

/** A JSON-LD document whose node objects nest `depth` levels (each the ex:next of the one above). */
export function deepJsonLd(depth: number): string {
  const head = `{"@context":{"ex":"${EX}"},"@id":"ex:top","ex:next":`;
  return head + deepJson(depth, 'object', '{"@id":"ex:end"}').replaceAll('{"a":', '{"ex:next":') + '}';
}

/** A YAML mapping nested `depth` levels in flow style: `{a: [{a: [...]}]}`. */
export function deepYamlFlow(depth: number): string {
  const opens: string[] = [];
  for (let i = 0; i < depth; i++) opens.push(i % 2 === 0 ? '{a: ' : '[');
  const closes: string[] = [];
  for (let i = depth - 1; i >= 0; i--) closes.push(i % 2 === 0 ? '}' : ']');
  return `prefixes:\n  ex: "${EX}"\nmappings: ${opens.join('')}x${closes.join('')}\n`;
}

/**
 * A YAML mapping nested `depth` levels in block style: `mappings` holds block mappings indented
 * one space per level (2,000 levels, ~2 MB), then compact block sequences (`- - - x`, two bytes
 * a level) for the rest, so that 50,000 levels stay a few hundred KB.
 */
export function deepYamlBlock(depth: number): string {
  const mappingLevels = Math.min(depth, 2_000);
  const lines = [`prefixes:\n  ex: "${EX}"\nmappings:`];
  for (let i = 1; i <= mappingLevels; i++) lines.push(`${' '.repeat(i)}m${i}:`);
  lines.push(`${' '.repeat(mappingLevels + 1)}${'- '.repeat(depth - mappingLevels)}x`);
  return lines.join('\n') + '\n';
}

/** RDF/XML behind a DTD whose internal entities expand to 10^9 "lol"s (billion laughs). */
export function billionLaughs(): string {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return (
    `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n${entities.join('\n')}\n]>\n` +
    `<rdf:RDF xmlns:rdf="${RDF}" xmlns:ex="${EX}">\n` +
    `<rdf:Description rdf:about="${EX}laugh"><ex:says>&lol9;</ex:says></rdf:Description>\n</rdf:RDF>\n`
  );
}

/** RDF/XML whose DTD declares an external entity (a local file's content, were it expanded). */
export function externalEntity(systemId: string): string {
  return (
    `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [ <!ENTITY secret SYSTEM "${systemId}"> ]>\n` +
    `<rdf:RDF xmlns:rdf="${RDF}" xmlns:ex="${EX}">\n` +
    `<rdf:Description rdf:about="${EX}leak"><ex:says>&secret;</ex:says></rdf:Description>\n</rdf:RDF>\n`
  );
}

/** `rows` lines (header included) of `columns` one-character cells: 520,000 × 3 is 3.1 MB. */
export function wideCsv(columns: number, rows: number): Buffer {
  const header = Array.from({ length: columns }, (_, i) => String.fromCharCode(97 + (i % 26))).join(',');
  const row = '1,'.repeat(columns - 1) + '1';
  return Buffer.from([header, ...Array.from({ length: rows - 1 }, () => row)].join('\n') + '\n');
}

export interface LongCsv {
  bytes: Buffer;
  rows: number;
  columns: number;
  /** Sum of every cell, in tenths (the cells have one decimal), to check the values arrived. */
  sumTenths: bigint;
}

/** `rows` rows of `columns` numeric cells with one decimal (9.8 MB at 20 × 100,000). */
export function longCsv(columns: number, rows: number): LongCsv {
  const header = Array.from({ length: columns }, (_, c) => `Messwert${c + 1}`).join(',');
  const lines = [header];
  let sumTenths = 0n;
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < columns; c++) {
      const tenths = ((r * 7919 + c * 104729) % 9_991) + 1;
      sumTenths += BigInt(tenths);
      cells.push(`${Math.floor(tenths / 10)}.${tenths % 10}`);
    }
    lines.push(cells.join(','));
  }
  return { bytes: Buffer.from(lines.join('\n') + '\n'), rows, columns, sumTenths };
}

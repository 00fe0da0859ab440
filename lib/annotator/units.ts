// Unit recognition (research §1.8): one token → a QUDT unit, looked up by qudt:symbol, then by
// qudt:ucumCode, first hit in file order — with the original's false hits fixed (numbers are
// never units, Greek mu = micro sign, a symbol shared by several units goes to the one whose
// UCUM code is the token too: `mV` is MilliV, not MegaV). Plus the spec's suffix units.
import { readFileSync } from 'node:fs';
import { Parser, type Quad } from 'n3';
import { stripChars } from './value-type.ts';
import { RDF_TYPE } from '../rdf/vocab.ts';

export interface UnitRef {
  '@id': string;
  '@type': string | null;
}

const QUDT = 'http://qudt.org/schema/qudt/';
const NUM_UNIT = 'http://qudt.org/vocab/unit/NUM';

/** The vocabulary file shipped with labld (see data/README.md). */
const QUDT_UNIT_FILE = new URL('./data/qudt_unit.ttl', import.meta.url);

interface UnitIndex {
  bySymbol: Map<string, string[]>;
  byUcum: Map<string, string[]>;
  ucumOf: Map<string, Set<string>>;
  typeOf: Map<string, string>;
  /** A unit's first plain symbol (`kN` for …/unit/KiloN): for axis titles. */
  symbolOf: Map<string, string>;
}

let index: UnitIndex | undefined;

function push(map: Map<string, string[]>, key: string, unit: string): void {
  const list = map.get(key);
  if (!list) map.set(key, [unit]);
  else if (!list.includes(unit)) list.push(unit);
}

/** Parses the vocabulary once, on first use; lookups afterwards are map reads. */
export function unitIndex(): UnitIndex {
  if (index) return index;
  const built: UnitIndex = {
    bySymbol: new Map(),
    byUcum: new Map(),
    ucumOf: new Map(),
    typeOf: new Map(),
    symbolOf: new Map(),
  };
  const add = ({ subject, predicate, object }: Quad): void => {
    const unit = subject.value;
    if (predicate.value === RDF_TYPE) {
      if (!built.typeOf.has(unit)) built.typeOf.set(unit, object.value);
    } else if (predicate.value === `${QUDT}symbol` && object.termType === 'Literal') {
      const plain = object.language === '' && object.datatype.value.endsWith('#string');
      if (plain) push(built.bySymbol, object.value, unit);
      if (plain && !built.symbolOf.has(unit)) built.symbolOf.set(unit, object.value);
    } else if (predicate.value === `${QUDT}ucumCode` && object.termType === 'Literal') {
      if (object.datatype.value === `${QUDT}UCUMcs`) {
        push(built.byUcum, object.value, unit);
        const codes = built.ucumOf.get(unit) ?? new Set<string>();
        codes.add(object.value);
        built.ucumOf.set(unit, codes);
      }
    }
  };
  // n3 parses synchronously only without a callback (the callback form is asynchronous).
  for (const quad of new Parser({ format: 'Turtle' }).parse(readFileSync(QUDT_UNIT_FILE, 'utf8'))) add(quad);
  if (built.bySymbol.size === 0) throw new Error(`no units read from ${QUDT_UNIT_FILE.pathname}`);
  index = built;
  return built;
}

// The original's clean-up before the lookup, in its order.
const REPLACEMENTS: readonly [string, string][] = [
  ['Â', ''], // UTF-8 read as latin-1
  ['¹', ''],
  ['²', '2'],
  ['³', '3'],
  ['⁴', '4'],
  ['⁵', '5'],
  ['⁶', '6'],
  ['⁷', '7'],
  ['⁸', '8'],
  ['⁹', '9'],
  ['°C', 'Cel'],
  ['N/mm2', 'MPa'],
  ['Nm', 'N.m'],
  ['sec', 's'],
];

/**
 * Whole unit words machines write that QUDT does not know: Bose WinTest's `Sec`; `ﾟC` of CP932
 * exports (UBM's DMA), whose degree sign is the half-width katakana handakuten (U+FF9F).
 */
const WORDS: ReadonlyMap<string, string> = new Map([
  ['Sec', 's'],
  ['\uff9fC', '°C'],
]);

const NUMBER = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

function refFor(unit: string, units: UnitIndex): UnitRef {
  return { '@id': unit, '@type': units.typeOf.get(unit) ?? null };
}

/**
 * Bug fix: QUDT 2.1.25 gives MegaV (UCUM `MV`) the symbol `mV`, ahead of MilliV in file
 * order. When the first unit of a symbol is, by its UCUM code, the token with the other case
 * of its prefix letter, the unit whose UCUM code is the token itself wins. Deliberately
 * narrow: `pH` stays the acidity unit PH although UCUM reads `pH` as picohenry.
 */
function preferAgreeingCase(text: string, candidates: string[], units: UnitIndex): string {
  const first = candidates[0] as string;
  const head = text.charAt(0);
  const swapped = (head === head.toLowerCase() ? head.toUpperCase() : head.toLowerCase()) + text.slice(1);
  if (swapped === text || !units.ucumOf.get(first)?.has(swapped)) return first;
  return candidates.find((unit) => units.ucumOf.get(unit)?.has(text)) ?? first;
}

/** The symbol of a QUDT unit IRI (`mm` for …/unit/MilliM), if the vocabulary gives one. */
export function unitSymbol(iri: string): string | undefined {
  return unitIndex().symbolOf.get(iri);
}

/** get_unit: the QUDT unit a header word or cell word names, if any. */
export function unitOf(token: string): UnitRef | undefined {
  let text = stripChars(token, ' []():');
  text = WORDS.get(text) ?? text;
  for (const [from, to] of REPLACEMENTS) text = text.split(from).join(to);
  // Bug fix: the original took `1` for the unit NUM (UCUM code "1"); a number is a value.
  if (NUMBER.test(text)) return undefined;
  // Bug fix: QUDT writes micro as U+00B5; the Greek small mu U+03BC is the same prefix.
  text = text.replace(/\u03bc/g, '\u00b5');
  const units = unitIndex();
  const bySymbol = units.bySymbol.get(text);
  if (bySymbol && bySymbol.length > 0) {
    return refFor(preferAgreeingCase(text, bySymbol, units), units);
  }
  const byUcum = units.byUcum.get(text);
  if (byUcum && byUcum.length > 0) return refFor(byUcum[0] as string, units);
  return sameUnitRatio(text, units);
}

const FRACTION_UNIT = 'http://qudt.org/vocab/unit/FRACTION';

/**
 * A unit divided by itself (`mm/mm`, the strain column of tensile exports) has no QUDT symbol;
 * it is a dimensionless ratio, QUDT's FRACTION ("the value of the ratio itself").
 */
function sameUnitRatio(text: string, units: UnitIndex): UnitRef | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0 || text.slice(0, slash) !== text.slice(slash + 1)) return undefined;
  const unit = text.slice(0, slash);
  const known = (units.bySymbol.get(unit)?.length ?? 0) > 0 || (units.byUcum.get(unit)?.length ?? 0) > 0;
  return known ? refFor(FRACTION_UNIT, units) : undefined;
}

export function isNumUnit(unit: UnitRef | undefined): boolean {
  return unit?.['@id'] === NUM_UNIT;
}

// Suffix notation (spec "Unit detection"): common abbreviations glued to a CamelCase name.
// A fixed list, because a free lookup of every trailing hump finds units in ordinary words
// (`SampleA` → ampere, `ForceMin` → minute, `SpeedKn` → knot).
// prettier-ignore
const SUFFIXES: Readonly<Record<string, string>> = {
  mm: 'mm', cm: 'cm', km: 'km', um: 'µm', µm: 'µm', μm: 'µm', kn: 'kN', knm: 'kN.m', pa: 'Pa', kpa: 'kPa',
  mpa: 'MPa', gpa: 'GPa', ms: 'ms', sec: 's', hz: 'Hz', khz: 'kHz', degc: '°C', deg: '°', kg: 'kg', pct: '%',
  percent: '%', mv: 'mV', kv: 'kV', kj: 'kJ', kw: 'kW',
};

/**
 * The unit of a glued CamelCase suffix (`ForceMPa` → MegaPA, `DisplacementMm` → MilliM), if
 * the header's last word ends in one. The longest matching suffix wins.
 */
export function suffixUnitOf(header: string): UnitRef | undefined {
  const word = header.trim().split(' ').pop() ?? '';
  const chars = [...word];
  for (let i = 1; i < chars.length; i++) {
    const current = chars[i] as string;
    const previous = chars[i - 1] as string;
    const boundary = /\p{Lu}/u.test(current) && /[\p{Ll}0-9]/u.test(previous);
    if (!boundary) continue;
    const symbol = SUFFIXES[chars.slice(i).join('').toLowerCase()];
    if (symbol !== undefined) return unitOf(symbol);
  }
  return undefined;
}

// Which uploads start the catalogue chain, and the names of what it derives from them
// (spec "Automation chain (CSV path)"; research seed-catalogue-extractor §1.2, §1.8, D1, D2).
//
// Trigger: the spec's file extension, and also the resource's `format`, which is what the
// original really tested (D1: CKAN fills `format` from the extension, so both agree for
// ordinary uploads; a file without an extension but declared `CSV` still starts the chain).
//
// Names: the original's (D2), because users' links and scripts know them: `<base>` is the
// source file name without its last extension (`a.b.csv` → `a.b`; the original's transform
// page cut at the first dot, a bug), then `<base>-metadata.jsonld`, `<base>.ttl` and
// `<base>-joined.ttl`. The spec's `<base>.csvw.json` names the same descriptor: it is an alias
// (`derivedReadings` recognises it), not a fifth resource.
import { setting } from '../process/config.ts';
import { OUTPUTS, type OutputDeclaration, type PipelineEntry } from './pipeline.ts';

/** The resources the chain derives from a source file under the original's names, in chain order (pipeline.ts). */
const ORIGINAL_OUTPUTS = OUTPUTS.filter((o) => o.original);
export type DerivedKind = Extract<PipelineEntry, { makes: { original: true } }>['makes']['kind'];
export const DERIVED_KINDS = ORIGINAL_OUTPUTS.map((o) => o.kind as DerivedKind);

/** A derived resource as the catalogue stores it: name, `format` field and media type. */
export interface DerivedName<K extends string = DerivedKind> {
  kind: K;
  name: string;
  /** The catalogue resource's `format`, as the original set it. */
  format: string;
  contentType: string;
}

export const DESCRIPTOR_TYPE = outputOfKind('descriptor').contentType;
export const TURTLE_TYPE = outputOfKind('turtle').contentType;

function outputOfKind(kind: string) {
  const output = OUTPUTS.find((o) => o.kind === kind);
  if (!output) throw new Error(`the pipeline makes no ${kind}`);
  return output;
}

/** What a catalogue resource offers to the trigger test. */
export interface UploadedFile {
  name: string;
  /** The resource's `format` field (e.g. `CSV`), when it has one. */
  format?: string;
  /** A resource the chain made itself never starts it again (the original's `-joined` loop guard). */
  derived?: boolean;
}

/** Lower-cased, without a leading dot: `.CSV` and `csv` are one format. */
const normalise = (format: string) => format.trim().toLowerCase().replace(/^\./, '');

/** The trigger formats of CKANINI__CKANEXT__CSVTOCSVW__FORMATS (space- or comma-separated). */
export function triggerFormats(env: NodeJS.ProcessEnv = process.env): string[] {
  return setting('CKANINI__CKANEXT__CSVTOCSVW__FORMATS', env)
    .split(/[\s,]+/)
    .map(normalise)
    .filter((format) => format !== '');
}

/** The extension of a file name, lower-cased (`Data.CSV` → `csv`), or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : normalise(name.slice(dot + 1));
}

/**
 * Whether uploading `file` starts the chain: its extension or its format is one of `formats`
 * (exact membership; the original's substring test let fragments such as `on` match).
 */
export function startsChain(file: UploadedFile, formats: readonly string[] = triggerFormats()): boolean {
  if (file.derived) return false;
  const wanted = new Set(formats.map(normalise));
  const extension = extensionOf(file.name);
  if (extension !== '' && wanted.has(extension)) return true;
  return file.format !== undefined && wanted.has(normalise(file.format));
}

/**
 * The original's base name: the file name without its last extension (Python's
 * `rsplit('.', 1)[0]`). A name that is only an extension (`.csv`) would leave nothing, and
 * the original then wrote `-metadata.jsonld`; such a file is called `data`, as the annotator
 * calls a CSV without a name.
 */
export function baseName(fileName: string): string {
  const name = fileName.replace(/^.*[/\\]/, '');
  const dot = name.lastIndexOf('.');
  const base = dot < 0 ? name : name.slice(0, dot);
  return base === '' ? 'data' : base;
}

/** The name of the resource `output` of the pipeline derives from the source file `fileName`. */
export function outputName<K extends string>(
  output: Pick<OutputDeclaration, 'suffix' | 'format' | 'contentType'> & { kind: K },
  fileName: string,
): DerivedName<K> {
  const { kind, suffix, format, contentType } = output;
  return { kind, name: `${baseName(fileName)}${suffix}`, format, contentType };
}

/** The names of the resources derived from the source file `fileName` (the original's three). */
export function derivedNames(fileName: string): Record<DerivedKind, DerivedName> {
  return Object.fromEntries(
    ORIGINAL_OUTPUTS.map((output) => [output.kind, outputName(output, fileName)]),
  ) as Record<DerivedKind, DerivedName>;
}

/** The spec's name of the descriptor (`<base>.csvw.json`), served as an alias of `<base>-metadata.jsonld`. */
export function descriptorAlias(fileName: string): string {
  return `${baseName(fileName)}.csvw.json`;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The longer suffix first (`-joined.ttl` before `.ttl`), the spec's alias beside the descriptor.
const SUFFIXES: readonly [DerivedKind, RegExp][] = [
  ...ORIGINAL_OUTPUTS.map((o): [DerivedKind, string] => [o.kind as DerivedKind, o.suffix]),
  ['descriptor', '.csvw.json'] as [DerivedKind, string],
]
  .sort(([, a], [, b]) => b.length - a.length)
  .map(([kind, suffix]) => [kind, new RegExp(`^(.+)${escape(suffix)}$`)]);

/**
 * Which derived resources a name can stand for, with the base each was made from: the chain's
 * names and the spec's alias. A name may have two readings (`x-joined.ttl` is the joined graph
 * of `x.csv` and the Turtle of `x-joined.csv`); which one a resource is, and whether it is
 * derived at all, is the catalogue's knowledge (the resource's source), not the name's.
 */
export function derivedReadings(name: string): { kind: DerivedKind; base: string }[] {
  return SUFFIXES.flatMap(([kind, pattern]) => {
    const match = pattern.exec(name);
    return match ? [{ kind, base: match[1]! }] : [];
  });
}

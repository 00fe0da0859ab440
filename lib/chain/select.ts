// Mapping selection (spec "Mapping selection rules"; research seed-catalogue-extractor §1.5,
// D4): every mapping of the library is checked against the descriptor with the converter's
// checkmapping, rated `rules_applicable − rules_skipped` and ranked best first, ties in library
// order. `exact` (default) picks the best-ranked mapping with no skipped rule and at least one
// applicable; `best_match` the best-ranked with a rating above 0. A mapping that cannot be read
// is a candidate ranked out with its error; it fails the step only when nothing was selected
// (the broken one may be the mapping meant, so the step waits for the library to be fixed).
import { text as readText } from 'node:stream/consumers';
import type { BlobStore } from '../blobs/blob-store.ts';
import { checkMapping, readData, readYarrrmlMapping, type CheckResult } from '../converter/index.ts';
import { setting } from '../process/config.ts';
import { DomainError, invalid } from '../process/errors.ts';
import { chainLoaders, type ChainFile, type TextFile } from './files.ts';
import { elapsedMs, type StepSummary } from './status.ts';

export const MAPPING_STRATEGIES = ['exact', 'best_match'] as const;
export type MappingStrategy = (typeof MAPPING_STRATEGIES)[number];

const STRATEGY_VARIABLE = 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_STRATEGY';

/**
 * The strategy the environment names. The original warned and used `exact` for any other
 * value; a misspelt strategy is refused here instead, so that it is noticed at start-up.
 */
export function mappingStrategy(env: NodeJS.ProcessEnv = process.env): MappingStrategy {
  const value = setting(STRATEGY_VARIABLE, env).trim().toLowerCase();
  if ((MAPPING_STRATEGIES as readonly string[]).includes(value)) return value as MappingStrategy;
  throw new Error(`${STRATEGY_VARIABLE} must be exact or best_match, got ${JSON.stringify(value)}`);
}

/** A mapping of the library (a YAML resource of a dataset in the mapping group), in library order. */
export interface MappingEntry {
  name: string;
  /** The resource's URL: the joined graph's provenance names the mapping by it. */
  url: string;
  /** The YAML, given as text or as a stored blob. */
  text?: string;
  blob?: string;
}

/** One candidate as checked: its counts, or why it could not be checked. */
export interface CheckedMapping {
  name: string;
  url: string;
  check?: CheckResult;
  error?: string;
}

/** A row of the ranking table the status page shows (plain text; the page escapes it). */
export interface RankedMapping {
  /** 1-based place among the checked candidates; absent for one that could not be read. */
  rank?: number;
  name: string;
  url: string;
  rules_applicable?: number;
  rules_skipped?: number;
  rating?: number;
  /** Whether the strategy accepts it. */
  qualifies: boolean;
  error?: string;
}

export interface Selection {
  strategy: MappingStrategy;
  /** The winner, absent when none qualifies. */
  selected?: RankedMapping;
  /** The top-ranked candidates, then those that could not be read. */
  ranking: RankedMapping[];
  /** Candidates checked, and of them unreadable. */
  checked: number;
  broken: number;
  /** Candidates left out of `ranking` (beyond the top). */
  omitted: number;
  /** Why nothing was selected, in words. */
  reason?: string;
}

const rating = (check: CheckResult) => check.rules_applicable - check.rules_skipped;

export function qualifies(check: CheckResult, strategy: MappingStrategy): boolean {
  return strategy === 'exact' ? check.rules_skipped === 0 && check.rules_applicable > 0 : rating(check) > 0;
}

/** Best first by rating, ties in library order (a stable sort); unreadable ones last, in library order. */
export function rankMappings(checked: readonly CheckedMapping[], strategy: MappingStrategy): RankedMapping[] {
  const rated = checked
    .filter((c): c is CheckedMapping & { check: CheckResult } => c.check !== undefined)
    .sort((a, b) => rating(b.check) - rating(a.check));
  return [
    ...rated.map((c, i) => ({
      rank: i + 1,
      name: c.name,
      url: c.url,
      rules_applicable: c.check.rules_applicable,
      rules_skipped: c.check.rules_skipped,
      rating: rating(c.check),
      qualifies: qualifies(c.check, strategy),
    })),
    ...checked
      .filter((c) => c.check === undefined)
      .map((c) => ({ name: c.name, url: c.url, qualifies: false, error: c.error ?? 'not checked' })),
  ];
}

const quoted = (m: RankedMapping) => JSON.stringify(m.name);

function noneReason(ranked: readonly RankedMapping[], strategy: MappingStrategy, broken: number): string {
  if (ranked.length === 0) return 'no mapping to check: the group mappings holds no YAML resource';
  const best = ranked[0]!;
  if (best.rating === undefined) {
    return `none of the ${broken} mappings could be read; the first: ${quoted(best)}: ${best.error}`;
  }
  const counts = `${best.rules_applicable} rules applicable, ${best.rules_skipped} skipped`;
  if (best.rules_applicable === 0) {
    return `no mapping has an applicable rule (best: ${quoted(best)}, ${counts}): the library has no mapping for this kind of data`;
  }
  if (strategy === 'exact') {
    const partial = best.rating! > 0 ? `; strategy best_match (${STRATEGY_VARIABLE}) would choose it` : '';
    return `no mapping applies fully: strategy exact needs rules_skipped = 0, and the best, ${quoted(best)}, has ${counts}${partial}`;
  }
  return `no mapping has more applicable than skipped rules (best: ${quoted(best)}, ${counts})`;
}

/** The selection among checked candidates; `top` rows of the ranking are kept for the status page. */
export function chooseMapping(
  checked: readonly CheckedMapping[],
  strategy: MappingStrategy,
  top = 10,
): Selection {
  const ranked = rankMappings(checked, strategy);
  const rated = ranked.filter((r) => r.rank !== undefined);
  const unreadable = ranked.filter((r) => r.rank === undefined);
  const selected = rated.find((r) => r.qualifies);
  const ranking = [...rated.slice(0, top), ...unreadable.slice(0, top)];
  const selection: Selection = {
    strategy,
    ranking,
    checked: checked.length,
    broken: unreadable.length,
    omitted: ranked.length - ranking.length,
  };
  if (selected) selection.selected = selected;
  else selection.reason = noneReason(ranked, strategy, unreadable.length);
  return selection;
}

export interface SelectInput {
  /** The descriptor the mappings are checked against (JSON-LD, as the original did: D3). */
  descriptor: ChainFile;
  library: readonly MappingEntry[];
  /** The library's strategy, as configured (mappingStrategy()). */
  strategy: MappingStrategy;
  /** Rows of the ranking kept (default 10, the original's table). */
  top?: number;
}

/** The mapping's YAML text; a blob that is gone is this candidate's error. */
async function mappingText(entry: MappingEntry, blobs: BlobStore): Promise<string> {
  if (entry.text !== undefined) return entry.text;
  if (entry.blob === undefined) throw invalid('the library entry has neither text nor a stored file');
  return readText(blobs.open(entry.blob, 'mapping_url'));
}

/** Checks one mapping; what is wrong with the mapping itself becomes its error. */
async function checkEntry(entry: MappingEntry, data: unknown, blobs: BlobStore): Promise<CheckedMapping> {
  try {
    const mapping = readYarrrmlMapping(await mappingText(entry, blobs));
    return { name: entry.name, url: entry.url, check: checkMapping(mapping, data) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { name: entry.name, url: entry.url, error: error.detail };
  }
}

/**
 * The select-mapping step: the descriptor is read once (an unreadable descriptor fails the
 * step), then every library entry is checked as POST /api/checkmapping does, without a
 * request per mapping.
 */
export async function selectMapping(
  input: SelectInput,
  context: { blobs: BlobStore; signal?: AbortSignal },
): Promise<{ selection: Selection; summary: StepSummary }> {
  const started = performance.now();
  const loaders = chainLoaders([input.descriptor], context.blobs);
  const data = await readData(await loaders.text(input.descriptor.url, 'data_url'), 'data_url');
  const checked: CheckedMapping[] = [];
  for (const entry of input.library) {
    context.signal?.throwIfAborted();
    checked.push(await checkEntry(entry, data.json, context.blobs));
  }
  const selection = chooseMapping(checked, input.strategy, input.top);
  if (!selection.selected && selection.broken > 0) throw unreadable(selection);
  const note = selection.selected
    ? `mapping ${JSON.stringify(selection.selected.name)} selected (${selection.selected.rules_applicable} rules applicable, ${selection.selected.rules_skipped} skipped)`
    : `no mapping selected: ${selection.reason}`;
  return { selection, summary: { durationMs: elapsedMs(started), note } };
}

/**
 * Nothing selected while some mappings could not be read: the step fails (and its message
 * is kept in the dead-letter topic), since the mapping meant for this data may be a broken
 * one; once the library is corrected, Retry or a replay selects again. With a winner, the
 * broken ones are only rows of the ranking.
 */
function unreadable(selection: Selection): DomainError {
  const broken = selection.ranking
    .filter((r) => r.rank === undefined)
    .map((r) => `${quoted(r)}: ${r.error}`)
    .join('; ');
  return invalid(
    `no mapping selected (${selection.reason}), and ${selection.broken} mapping(s) of the group mappings could not be read: ${broken}`,
    'mappings',
  );
}

/** A library entry as a file the converter's loader can read. */
export async function mappingFile(entry: MappingEntry, blobs: BlobStore): Promise<TextFile> {
  return { url: entry.url, name: entry.name, text: await mappingText(entry, blobs) };
}

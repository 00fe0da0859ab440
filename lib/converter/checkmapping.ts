// checkmapping: the dry run the catalogue ranks mappings with. It follows the original's
// algorithm exactly (research seed-services §3.6), because mapping selection must rank a
// library the same way: every rule's iterator is evaluated against the whole data document,
// and a rule counts as applicable when some matched item satisfies its condition (or, without
// one, gives a value for every reference of its subject). Where the original crashed (an
// inline source list) the inline iterator is evaluated instead.
import { DomainError, invalid } from '../process/errors.ts';
import { RmlError } from '../rml/errors.ts';
import { compileJsonPath } from '../rml/jsonpath.ts';
import { yarrrmlWords } from './mapping-errors.ts';
import { failure, readData, type DataDocument, type Loader } from './data.ts';
import {
  firstAccess,
  hasUnsupportedIterator,
  readYarrrmlMapping,
  ruleOf,
  sourceDeclaration,
  type YarrrmlMapping,
} from './mapping.ts';
import { isObject } from '../json.ts';

export interface CheckResult {
  rules_applicable: number;
  rules_skipped: number;
}

/** Why a rule was judged applicable or skipped (the test endpoint shows it). */
export interface RuleCheck {
  rule: string;
  applicable: boolean;
  reason: string;
  iterator?: string;
  matched?: number;
}

/** Evaluates a JSONPath; an expression the engine cannot read matches nothing (original: skipped). */
function evaluate(path: string, node: unknown): unknown[] | undefined {
  try {
    return compileJsonPath(path)(node);
  } catch {
    return undefined;
  }
}

/** Why an iterator matches nothing because it cannot be read (the test endpoint shows it). */
function unreadable(path: string): string {
  try {
    compileJsonPath(path);
    return `iterator ${path} cannot be read`;
  } catch (error) {
    const fault = error instanceof RmlError ? error.fault : undefined;
    return fault ? yarrrmlWords({ ...fault, field: 'rml:iterator' }) : `iterator ${path} cannot be read`;
  }
}

/** Python's str() of a JSON value, as the original compared them. */
export function pythonString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number')
    return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : pyFloat(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function pyFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const text = String(value);
  return /e/.test(text) ? text.replace(/e([+-])(\d)$/, 'e$10$2') : text;
}

/** A `$(ref)` reference becomes `$.ref` (so `$(.a.b)` is `$..a.b`, as in the original). */
function referencePath(reference: string): string {
  return `$.${reference}`;
}

/** A condition parameter's value on `item`: `$(x)` → first match of `$.x`, `$…` → JSONPath, else literal. */
function parameterValue(value: unknown, item: unknown): unknown {
  if (typeof value !== 'string') return value;
  const reference = /^\$\((.*)\)$/s.exec(value);
  if (reference) return evaluate(referencePath(reference[1]!), item)?.[0] ?? null;
  if (value.startsWith('$')) return evaluate(value, item)?.[0] ?? null;
  return value;
}

const localName = (name: string) => name.replace(/^.*[#/:]/, '');

const PARAMETER_ALIASES: Record<string, string> = {
  valueParam: 'str1',
  valueParameter: 'str1',
  valueParam2: 'str2',
  valueParameter2: 'str2',
};

function parameters(condition: Record<string, unknown>, item: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const given = condition.parameters ?? condition.params ?? [];
  for (const entry of Array.isArray(given) ? given : []) {
    let name: unknown;
    let value: unknown;
    if (Array.isArray(entry)) [name, value] = entry as unknown[];
    else if (isObject(entry)) {
      name = entry.parameter ?? entry.name;
      value = entry.value;
    }
    if (typeof name !== 'string') continue;
    const local = localName(name);
    out.set(PARAMETER_ALIASES[local] ?? local, parameterValue(value, item));
  }
  return out;
}

function numberOf(value: unknown): number {
  return value === null || value === undefined || value === '' ? NaN : Number(pythonString(value));
}

/** The original's condition functions; any other function counts as satisfied (its behaviour). */
function conditionHolds(condition: Record<string, unknown>, item: unknown): boolean {
  const fn = typeof condition.function === 'string' ? localName(condition.function) : '';
  const p = parameters(condition, item);
  const s = (name: string) => pythonString(p.get(name));
  switch (fn) {
    case 'equal':
      return s('str1') === s('str2');
    case 'notEqual':
      return s('str1') !== s('str2');
    case 'stringContainsOtherString': {
      const whole = p.has('str') ? s('str') : s('str1');
      const delimiter = p.has('delimiter') ? s('delimiter') : ',';
      return whole.split(delimiter).includes(s('otherStr'));
    }
    case 'listContainsElement': {
      const list = p.get('list');
      const wanted = p.has('str') ? s('str') : s('str1');
      return Array.isArray(list) ? list.some((x) => pythonString(x) === wanted) : false;
    }
    case 'isNull': {
      const value = p.get('str') ?? p.get('str1') ?? null;
      return value === null || value === '' || value === 'null';
    }
    case 'inRange': {
      const test = numberOf(p.get('test'));
      const from = numberOf(p.get('from'));
      const to = numberOf(p.get('to'));
      return !Number.isNaN(test) && !Number.isNaN(from) && !Number.isNaN(to) && from <= test && test <= to;
    }
    default:
      return true;
  }
}

function conditions(rule: Record<string, unknown>): Record<string, unknown>[] {
  const given = rule.condition ?? rule.conditions;
  if (Array.isArray(given)) return given.filter(isObject);
  return isObject(given) ? [given] : [];
}

/** The subject template's `$(…)` references. */
function subjectReferences(rule: Record<string, unknown>): string[] {
  let subject = rule.s ?? rule.subject ?? rule.subjects;
  if (Array.isArray(subject)) subject = subject[0];
  if (isObject(subject)) subject = subject.value;
  if (typeof subject !== 'string') return [];
  return [...subject.matchAll(/\$\(([^)]*)\)/g)].map((m) => m[1]!);
}

/** Decides one rule against the data document. */
export function checkRule(mapping: YarrrmlMapping, name: string, data: unknown): RuleCheck {
  const rule = ruleOf(mapping, name);
  const given = rule.sources ?? rule.source;
  // The first entry: a declared source's name, or an inline source (`[file~jsonpath, iterator]`).
  const first: unknown = Array.isArray(given) ? given[0] : given;
  let iterator: string | undefined;
  if (typeof first === 'string') {
    const declared = mapping.sources.find((s) => s.name === first);
    if (!declared) return { rule: name, applicable: false, reason: `source "${first}" is not declared` };
    iterator = declared.iterator;
  } else if (first !== undefined && first !== null) {
    iterator = sourceDeclaration(undefined, first).iterator;
  } else {
    return { rule: name, applicable: false, reason: 'the rule has no source' };
  }
  iterator ??= '$';
  const items = evaluate(iterator, data);
  if (!items) return { rule: name, applicable: false, reason: unreadable(iterator), iterator };
  if (items.length === 0)
    return {
      rule: name,
      applicable: false,
      reason: `iterator ${iterator} matches nothing`,
      iterator,
      matched: 0,
    };
  const matched = items.length;
  const conds = conditions(rule);
  if (conds.length > 0) {
    const ok = items.some((item) => conds.every((c) => conditionHolds(c, item)));
    const reason = ok ? 'an item satisfies the condition' : 'no item satisfies the condition';
    return { rule: name, applicable: ok, reason, iterator, matched };
  }
  const references = subjectReferences(rule);
  if (references.length === 0)
    return { rule: name, applicable: true, reason: 'static subject', iterator, matched };
  const ok = items.some((item) =>
    references.every((ref) => {
      const value = evaluate(referencePath(ref), item)?.[0];
      return value !== undefined && value !== null;
    }),
  );
  const reason = ok
    ? 'an item has every subject reference'
    : `no item has every subject reference (${references.map((r) => `$(${r})`).join(', ')})`;
  return { rule: name, applicable: ok, reason, iterator, matched };
}

/** Every rule's check, in mapping order; `$..[*]` anywhere skips them all (original). */
export function checkRules(mapping: YarrrmlMapping, data: unknown): RuleCheck[] {
  if (hasUnsupportedIterator(mapping)) {
    return mapping.rules.map((rule) => ({ rule, applicable: false, reason: 'unsupported iterator $..[*]' }));
  }
  return mapping.rules.map((rule) => checkRule(mapping, rule, data));
}

export function checkMapping(mapping: YarrrmlMapping, data: unknown): CheckResult {
  const applicable = checkRules(mapping, data).filter((c) => c.applicable).length;
  return { rules_applicable: applicable, rules_skipped: mapping.rules.length - applicable };
}

export interface CheckRequest {
  mappingUrl: string;
  /** Defaults to the first source's access. */
  dataUrl?: string;
}

/** Loads the mapping and the data, then checks; data that cannot be read is 422 (original). */
export async function checkMappingAt(request: CheckRequest, load: Loader): Promise<CheckResult> {
  const mapping = readYarrrmlMapping((await load(request.mappingUrl, 'mapping_url')).text);
  if (hasUnsupportedIterator(mapping)) return { rules_applicable: 0, rules_skipped: mapping.rules.length };
  const dataUrl = request.dataUrl ?? firstAccess(mapping);
  if (!dataUrl) throw invalid('data_url: the mapping declares no source; give data_url', 'data_url');
  let data: DataDocument;
  try {
    data = await readData(await load(dataUrl, 'data_url'), 'data_url');
  } catch (error) {
    if (error instanceof DomainError && error.field === 'data_url') throw error;
    throw failure('data_url', error);
  }
  return checkMapping(mapping, data.json);
}

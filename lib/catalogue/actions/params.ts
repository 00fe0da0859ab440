// Reading an action's parameters as CKAN's validators do: a missing required one is "Missing
// value", a value of the wrong type says what was expected; every refusal is an `invalid`
// DomainError naming the parameter (the Action API turns it into `{<field>: [message]}`, 409).
// Values may come typed (a JSON body) or as text (query parameters, multipart fields), so
// booleans and numbers are read from their text forms too, as CKAN's converters read them.
import { invalid } from '../../process/errors.ts';
import { checkId } from '../model.ts';

export type Params = Record<string, unknown>;

const absent = (value: unknown) => value === undefined || value === null || value === '';

/** A required text parameter; `names` are CKAN's aliases (e.g. `id` or `name`), the first is named in errors. */
export function required(params: Params, ...names: string[]): string {
  for (const name of names) {
    const value = params[name];
    if (absent(value)) continue;
    return text(value, name);
  }
  throw invalid('Missing value', names[0]);
}

export function optional(params: Params, name: string): string | undefined {
  const value = params[name];
  return absent(value) ? undefined : text(value, name);
}

function text(value: unknown, name: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw invalid(`must be text (got ${kindOf(value)})`, name);
  if (value.length > 100_000) throw invalid('longer than 100000 characters', name);
  return value;
}

/**
 * CKAN's `id` on a create: kept, so that a dump loaded elsewhere keeps its ids (the store
 * refuses one in use). CKAN keeps it for sysadmins only and drops it silently for others;
 * labld keeps it for anyone who may create, as a UUID.
 */
export function givenId(params: Params): { id?: string } {
  const id = optional(params, 'id');
  return id === undefined ? {} : { id: checkId(id) };
}

const TRUE = new Set(['true', 'yes', 'on', '1', 't', 'y']);
const FALSE = new Set(['false', 'no', 'off', '0', 'f', 'n']);

/** CKAN's boolean_validator: true/false, or their usual text forms. */
export function bool(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (absent(value)) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && TRUE.has(value.toLowerCase())) return true;
  if (typeof value === 'string' && FALSE.has(value.toLowerCase())) return false;
  throw invalid(`must be true or false (got ${kindOf(value)})`, name);
}

/** A whole number from `min` to `max`, from a number or its text. */
export function integer(params: Params, name: string, fallback: number, min: number, max: number): number {
  const value = params[name];
  if (absent(value)) return fallback;
  const number = typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min || number > max) {
    throw invalid(`must be a whole number from ${min} to ${max} (got ${kindOf(value)})`, name);
  }
  return number;
}

/** A parameter's value, read from its JSON text when it came as text (undefined when absent). */
function parsed(params: Params, name: string, expected: string): unknown {
  const value = params[name];
  if (absent(value)) return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalid(expected, name);
  }
}

/** A JSON object given as an object or, from a query string, as its JSON text (CKAN's json_validator). */
export function object(params: Params, name: string): Record<string, unknown> | undefined {
  const value = parsed(params, name, 'must be a JSON object');
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`must be an object (got ${kindOf(value)})`, name);
  }
  return value as Record<string, unknown>;
}

/** A list, or its JSON text. */
export function list(params: Params, name: string): unknown[] | undefined {
  const value = parsed(params, name, 'must be a list');
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid(`must be a list (got ${kindOf(value)})`, name);
  return value;
}

/**
 * CKAN fields labld does not keep (tags, extras, organisations, licences…). An empty value is
 * fine — scripts copy whole CKAN dicts — but a value would be silently lost, so it is refused.
 */
export function notKept(params: Params, names: readonly string[], why: string): void {
  for (const name of names) {
    const value = params[name];
    if (absent(value) || (Array.isArray(value) && value.length === 0)) continue;
    if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) continue;
    throw invalid(`labld does not keep ${name} (${why}); leave it out`, name);
  }
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return `${typeof value} ${String(value)}`;
}

// JSON Schema validation of request parts with ajv, and the one-line 422 detail that names the
// field: `body.data_url: must be string`. Only the first error is reported (allErrors is a
// denial-of-service risk on untrusted input, and one clear message is what a client fixes).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { invalid } from '../../lib/errors.ts';
import type { JSONSchema } from './types.ts';

/** Where a value came from; the prefix of the field name in error details. */
export type Location = 'query' | 'path' | 'body';

// ajv-formats is CommonJS with `exports.default`; under nodenext the default import is the module.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;

function createAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    useDefaults: true,
    // Query strings and form fields are text: '5' → 5, 'true' → true, a repeated key → array.
    coerceTypes: coerce ? 'array' : false,
    allErrors: false,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    // OpenAPI annotations that may sit in route schemas.
    keywords: ['example', 'x-examples'],
  });
  addFormats(ajv);
  return ajv;
}

const textAjv = createAjv(true);
const jsonAjv = createAjv(false);

export type Validator = (value: unknown) => unknown;

/**
 * Compile a schema once, at gateway creation (a bad schema fails at startup, not per request).
 * The validator returns the value with defaults applied, or throws a DomainError(422).
 */
export function compile(schema: JSONSchema, location: Location, options: { text: boolean }): Validator {
  const validate: ValidateFunction = (options.text ? textAjv : jsonAjv).compile(schema);
  return (value) => {
    // ajv applies defaults and coercions in place, inside the object passed in.
    if (validate(value)) return value;
    const first = validate.errors?.[0];
    const field = first ? fieldName(location, first) : location;
    throw invalid(`${field}: ${first ? problem(first) : 'is invalid'}`, field);
  };
}

/** `/map/foo` → `body.map.foo`, `/data_types/0` → `body.data_types[0]`, plus the missing property. */
function fieldName(location: Location, error: ErrorObject): string {
  let name: string = location;
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/');
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    name += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  }
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') name += `.${String(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') name += `.${String(params.additionalProperty)}`;
  if (error.keyword === 'unevaluatedProperties') name += `.${String(params.unevaluatedProperty)}`;
  return name;
}

function problem(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not allowed';
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

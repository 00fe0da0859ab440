// JSON Schema validation of request parts (lib/json-schema.ts), and the one-line 422 detail
// that names the field: `body.data_url: must be string`.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { invalid } from '../../lib/process/errors.ts';
import { createAjv, describeAjvError } from '../../lib/json-schema.ts';
import type { JSONSchema } from './types.ts';

/** Where a value came from; the prefix of the field name in error details. */
export type Location = 'query' | 'path' | 'body';

function createRouteAjv(coerce: boolean): Ajv2020 {
  return createAjv({
    useDefaults: true,
    // Query strings and form fields are text: '5' → 5, 'true' → true, a repeated key → array.
    coerceTypes: coerce ? 'array' : false,
    strictTypes: false,
    strictTuples: false,
    // OpenAPI annotations that may sit in route schemas.
    keywords: ['example', 'x-examples'],
  });
}

const textAjv = createRouteAjv(true);
const jsonAjv = createRouteAjv(false);

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
    const { field, problem } = first
      ? describeAjvError(first, location)
      : { field: location, problem: 'is invalid' };
    throw invalid(`${field}: ${problem}`, field);
  };
}

// The one Ajv set-up (JSON Schema draft 2020-12 with formats) for bus payloads, operation
// contracts and gateway routes, and the one way to say what failed: the field, as the client
// wrote it, and a short problem (`body.data_types[0]: must be string`). Only the first error
// is reported: allErrors is a denial-of-service risk on untrusted input, and one clear message
// is what a client fixes.
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { count, counting } from './process/counters.ts';

// ajv-formats is CommonJS with `exports.default`; under nodenext the default import is the module.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;

/** A strict draft 2020-12 compiler with formats; `options` adds to or overrides the defaults. */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: false,
    strict: true,
    // `types` of /mapper/api/entities is a string or a list; upload-or-URL inputs require by branch.
    allowUnionTypes: true,
    strictRequired: false,
    ...options,
  });
  addFormats(ajv);
  if (counting) {
    const compile = ajv.compile.bind(ajv);
    ajv.compile = ((schema: object) => countedValidator(compile(schema))) as typeof ajv.compile;
  }
  return ajv;
}

/** A validator that counts its calls (its `errors` stay the compiled function's). */
function countedValidator(validate: ValidateFunction): ValidateFunction {
  return new Proxy(validate, {
    apply(target, self, args: Parameters<ValidateFunction>) {
      count('validate');
      return Reflect.apply(target, self, args);
    },
  });
}

/**
 * The offending field and the problem of one Ajv error. `/map/foo` → `map.foo`,
 * `/data_types/0` → `data_types[0]`, plus the missing or extra property; `prefix` goes in front
 * (`body`, `query`); the field is `prefix` itself (possibly '') when the value as a whole fails.
 */
export function describeAjvError(error: ErrorObject, prefix = ''): { field: string; problem: string } {
  let field = prefix;
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/');
  const params = error.params as Record<string, unknown>;
  const extra =
    error.keyword === 'required'
      ? params.missingProperty
      : error.keyword === 'additionalProperties'
        ? params.additionalProperty
        : error.keyword === 'unevaluatedProperties'
          ? params.unevaluatedProperty
          : undefined;
  const add = (name: string) => (field += field ? `.${name}` : name);
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(segment)) field += `[${segment}]`;
    else add(segment);
  }
  // A property name, not a JSON pointer segment: as it is.
  if (extra !== undefined) add(String(extra));
  return { field, problem: problemOf(error, params) };
}

function problemOf(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not allowed';
    case 'enum':
      // Say the choices (a request topic's `operation` lists its service's operations).
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

// Payload validation: every publish and every consume is checked against the topic's JSON
// Schema (draft 2020-12). One compiled validator per schema file.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DomainError } from '../errors.ts';
import type { TopicCatalog } from './topics.ts';

/** A payload that does not fit its schema; `field` is the JSON pointer of the offending value. */
export class SchemaViolation extends DomainError {
  constructor(topic: string, field: string, problem: string) {
    super('invalid', `message for ${topic}: ${field || '(payload)'} ${problem}`, field);
    this.name = 'SchemaViolation';
  }
}

export function describeAjvError(e: ErrorObject): { field: string; problem: string } {
  let field = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (e.keyword === 'required')
    field = field ? `${field}.${e.params.missingProperty}` : e.params.missingProperty;
  if (e.keyword === 'additionalProperties') {
    const extra = String(e.params.additionalProperty);
    return { field: field ? `${field}.${extra}` : extra, problem: 'is not allowed' };
  }
  if (e.keyword === 'enum') {
    // Say the choices (a request topic's `operation` lists its service's operations).
    return { field, problem: `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}` };
  }
  return { field, problem: e.keyword === 'required' ? 'is required' : (e.message ?? 'is invalid') };
}

/** The compiler of payload schemas (also lib/contracts checks requests in process with it). */
export function createPayloadAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: false,
    strict: true,
    // `types` of /mapper/api/entities is a string or a list; upload-or-URL inputs require by branch.
    allowUnionTypes: true,
    strictRequired: false,
  });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  return ajv;
}

export class PayloadValidator {
  readonly #catalog: TopicCatalog;
  readonly #ajv = createPayloadAjv();
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(catalog: TopicCatalog) {
    this.#catalog = catalog;
    // Compile all at start-up so that a broken schema stops the process before it serves.
    for (const spec of catalog.all()) this.#validatorFor(spec.schema);
  }

  check(topic: string, value: unknown): void {
    const spec = this.#catalog.topic(topic);
    const validate = this.#validatorFor(spec.schema);
    if (!validate(value)) {
      const { field, problem } = describeAjvError(validate.errors![0]!);
      throw new SchemaViolation(topic, field, problem);
    }
  }

  #validatorFor(schemaFile: string): ValidateFunction {
    let validate = this.#compiled.get(schemaFile);
    if (!validate) {
      const path = `${this.#catalog.schemaDir}/${schemaFile}`;
      const schema = JSON.parse(readFileSync(path, 'utf8')) as object;
      validate = this.#ajv.compile(schema);
      this.#compiled.set(schemaFile, validate);
    }
    return validate;
  }
}

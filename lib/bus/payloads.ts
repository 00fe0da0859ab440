// Payload validation: every publish and every consume is checked against the topic's JSON
// Schema (draft 2020-12). One compiled validator per schema file.
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { DomainError } from '../process/errors.ts';
import { createAjv, describeAjvError } from '../json-schema.ts';
import type { TopicCatalog } from './topics.ts';

/** A payload that does not fit its schema; `field` is the JSON pointer of the offending value. */
export class SchemaViolation extends DomainError {
  constructor(topic: string, field: string, problem: string) {
    super('invalid', `message for ${topic}: ${field || '(payload)'} ${problem}`, field);
    this.name = 'SchemaViolation';
  }
}

export class PayloadValidator {
  readonly #catalog: TopicCatalog;
  readonly #ajv = createAjv();
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

// A service's request topic carries `{operation, input}`; its schema checks `input` against
// the contract of the operation named, so that a refusal names the operation or the field.
// schemas/<service>-request.schema.json is this schema written out (tools/contracts.ts), self-
// contained, because the Kafka schema registry gets each topic's schema as one document.
import { invalid } from '../process/errors.ts';
import { createAjv, describeAjvError } from '../json-schema.ts';
import { SERVICES, type ServiceName } from '../services.ts';
import { OPERATIONS, type OperationInputs, type OperationName } from './operations.ts';
import type { ValidateFunction } from 'ajv/dist/2020.js';

export const SCHEMA_BASE = 'https://labld.example/schemas/';

/** The schema file of a service's request topic, in schemas/ (topics.yaml names it). */
export const requestSchemaFile = (service: ServiceName) => `${service}-request.schema.json`;

/** A request as it travels on the service's topic. */
export type ServiceRequest<S extends ServiceName, O extends OperationName<S> = OperationName<S>> = {
  [K in O]: { operation: K; input: OperationInputs[S][K] };
}[O];

export function requestSchema(service: ServiceName): Record<string, unknown> {
  const operations = OPERATIONS[service] as Record<string, object>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${requestSchemaFile(service)}`,
    title: `${service} request`,
    description:
      `A call of one of the ${service}'s operations, published by its gateway to the ${service}'s ` +
      'request topic. Large inputs travel by reference (a URL or a blob key), never inline; an input ' +
      'larger than the claim-check threshold travels as {"$claim": key} and is checked when claimed. ' +
      'Generated from lib/contracts/operations.ts by tools/contracts.ts: edit that, not this file.',
    type: 'object',
    required: ['operation', 'input'],
    additionalProperties: false,
    properties: {
      operation: { enum: Object.keys(operations) },
      input: { type: 'object' },
    },
    // One if/then per operation rather than a oneOf: a refusal names the one field that is
    // wrong in the operation's own input, and any JSON Schema validator reads it as it is.
    allOf: Object.entries(operations).map(([operation, schema]) => ({
      if: { required: ['operation'], properties: { operation: { const: operation } } },
      then: {
        properties: {
          input: claimOr(schema),
        },
      },
    })),
    $defs: CLAIM_DEFS,
  };
}

/** An input that is either a claim on stored JSON (lib/blobs/claim-check.ts) or fits `schema`. */
export const claimOr = (schema: unknown) => ({
  if: { type: 'object', required: ['$claim'] },
  then: { $ref: '#/$defs/claim' },
  else: schema,
});

/** The `$defs` a schema using `claimOr` carries (each schema file is self-contained). */
export const CLAIM_DEFS = {
  claim: {
    description: 'An input stored in the blob store (lib/blobs/claim-check.ts)',
    type: 'object',
    required: ['$claim'],
    additionalProperties: false,
    properties: { $claim: { type: 'string', minLength: 1 } },
  },
};

const ajv = createAjv();
const validators = new Map<ServiceName, ValidateFunction>(
  SERVICES.map((service) => [service, ajv.compile(requestSchema(service))]),
);

/**
 * Checks a request against its operation's contract, in process: before a gateway publishes
 * it (so an input that will travel as a claim is checked too) and after a consumer claims it.
 * The error names the input field as the client sent it (`mapping_url: is required`).
 */
export function checkRequest(service: ServiceName, request: { operation: string; input: unknown }): void {
  const validate = validators.get(service)!;
  if (validate(request)) return;
  const { field, problem } = describeAjvError(validate.errors![0]!);
  const name = field.replace(/^input\.?/, '') || field;
  throw invalid(`${name}: ${problem}`, name);
}

/** Only the fields an operation declares: a route may receive more (a JSON body's extra keys). */
export function declaredFields<S extends ServiceName>(
  service: S,
  operation: OperationName<S>,
  fields: unknown,
): Record<string, unknown> {
  const schema = (OPERATIONS[service] as Record<string, { properties: object }>)[operation];
  const given = (fields ?? {}) as Record<string, unknown>;
  if (!schema) return { ...given };
  return Object.fromEntries(Object.entries(given).filter(([name]) => Object.hasOwn(schema.properties, name)));
}

/** The text of schemas/<service>-request.schema.json, as tools/contracts.ts writes it. */
export const requestSchemaText = (service: ServiceName) =>
  `${JSON.stringify(requestSchema(service), null, 2)}\n`;

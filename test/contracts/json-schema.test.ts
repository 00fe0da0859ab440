// The one Ajv set-up and its error wording, shared by bus payloads, operation contracts and
// gateway routes: the field is named as a client writes it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAjv, describeAjvError } from '../../lib/json-schema.ts';

const schema = {
  type: 'object',
  required: ['operation'],
  additionalProperties: false,
  properties: {
    operation: { enum: ['annotate', 'rdf'] },
    version: { const: 2 },
    input: {
      type: 'object',
      properties: {
        'a/b': { type: 'string' },
        data_types: { type: 'array', items: { type: 'string' } },
        map: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
    },
    url: { type: 'string', format: 'uri' },
  },
};
const validate = createAjv().compile(schema);

function described(value: unknown, prefix?: string): string {
  assert.equal(validate(value), false, 'the value fails the schema');
  const { field, problem } = describeAjvError(validate.errors![0]!, prefix);
  return `${field}: ${problem}`;
}

describe('describeAjvError', () => {
  it('names a missing property, bare or under a prefix', () => {
    assert.equal(described({}), 'operation: is required');
    assert.equal(described({}, 'body'), 'body.operation: is required');
  });

  it('names nested fields with dots and array items with brackets', () => {
    const op = { operation: 'rdf' };
    assert.equal(
      described({ ...op, input: { data_types: ['x', 3] } }),
      'input.data_types[1]: must be string',
    );
    assert.equal(described({ ...op, input: { map: {} } }, 'body'), 'body.input.map.name: is required');
    assert.equal(described({ ...op, input: { 'a/b': 1 } }), 'input.a/b: must be string');
  });

  it('says an extra property is not allowed, an enum its choices, a const its value', () => {
    assert.equal(described({ operation: 'rdf', extra: 1 }), 'extra: is not allowed');
    assert.equal(described({ operation: 'annotat' }), 'operation: must be one of: annotate, rdf');
    assert.equal(described({ operation: 'rdf', version: 3 }), 'version: must be 2');
  });

  it('checks formats', () => {
    assert.equal(described({ operation: 'rdf', url: 'not a uri' }), 'url: must match format "uri"');
  });

  it('names the prefix itself (or nothing) when the value as a whole fails', () => {
    assert.equal(described(5, 'query'), 'query: must be object');
    assert.equal(described(5), ': must be object');
  });
});

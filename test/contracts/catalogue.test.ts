// The catalogue request topic's contract: topics.yaml names the schema file, the file is the
// contract written out (tools/contracts.ts), and a request with a raw token instead of a hash,
// or an unknown action, does not fit it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadTopics } from '../../lib/bus/topics.ts';
import {
  CATALOGUE_GROUP,
  CATALOGUE_REQUEST_FILE,
  catalogueRequestSchema,
} from '../../lib/contracts/catalogue.ts';
import { checkCatalogueRequest } from '../../lib/contracts/catalogue-check.ts';
import { createToken } from '../../lib/catalogue/auth/tokens.ts';
import { DomainError } from '../../lib/process/errors.ts';

const schemas = new URL('../../schemas/', import.meta.url).pathname;

test('the catalogue request topic reads the schema file generated from its contract, in step', () => {
  const catalog = loadTopics(new URL('../../topics.yaml', import.meta.url).pathname);
  const topic = catalog.topicReadBy(CATALOGUE_GROUP);
  assert.equal(topic.schema, CATALOGUE_REQUEST_FILE);
  assert.ok(topic.deadLetter);
  const written = JSON.parse(readFileSync(`${schemas}${CATALOGUE_REQUEST_FILE}`, 'utf8')) as unknown;
  assert.deepEqual(
    written,
    catalogueRequestSchema(),
    `${CATALOGUE_REQUEST_FILE} is stale: run node tools/contracts.ts`,
  );
});

const refused = (field: RegExp) => (error: unknown) =>
  error instanceof DomainError && error.kind === 'invalid' && field.test(error.field ?? '');

test('a hash-only credential fits; a raw token, an unknown action or stray fields do not', () => {
  const token = createToken();
  const ok = {
    operation: 'package_show',
    input: { credential: { kind: 'token', hash: token.hash }, params: { id: 'x' } },
  };
  checkCatalogueRequest(ok);
  checkCatalogueRequest({ operation: 'status_show', input: { $claim: 'abc' } });
  assert.throws(
    () =>
      checkCatalogueRequest({
        ...ok,
        input: { ...ok.input, credential: { kind: 'token', hash: token.token } },
      }),
    refused(/^input\.credential/),
  );
  assert.throws(
    () => checkCatalogueRequest({ ...ok, operation: 'package_frobnicate' }),
    refused(/^operation/),
  );
  assert.throws(
    () => checkCatalogueRequest({ ...ok, input: { ...ok.input, password: 'x' } }),
    refused(/^input/),
  );
  assert.throws(
    () =>
      checkCatalogueRequest({
        ...ok,
        input: { ...ok.input, upload: { blob: '../etc/passwd', filename: 'x', mimetype: 'x', size: 1 } },
      }),
    refused(/^input\.upload/),
  );
});

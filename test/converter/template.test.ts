// The template a mapping joins, when it cannot be loaded: the kind says whose it is to mend —
// the template host's (down or slow: trying again may help) or the mapping's (a 404, a refusal).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadTemplate } from '../../lib/converter/template.ts';
import { UpstreamError } from '../../lib/fetch/errors.ts';
import { forbidden, isDomainError, unreachable, upstreamTimeout } from '../../lib/process/errors.ts';

const NAMESPACE = 'https://example.org/methods/tensile.ttl/';

const failing = (error: Error) => async () => {
  throw error;
};

const kindOf = async (error: Error) => {
  try {
    await loadTemplate(NAMESPACE, failing(error));
  } catch (thrown) {
    assert.ok(isDomainError(thrown));
    assert.match(
      thrown.detail,
      /^mapping_url: could not load the template graph from https:\/\/example\.org/,
    );
    return thrown.kind;
  }
  assert.fail('the template loaded');
};

const upstream = (status: number) =>
  new UpstreamError(`template: upstream answered ${status}`, 'mapping_url', status);

test('a template host that is down or slow is unreachable or a timeout; a 404 or a refusal is the mapping’s', async () => {
  assert.equal(await kindOf(upstream(503)), 'unreachable');
  assert.equal(await kindOf(upstream(502)), 'unreachable');
  assert.equal(await kindOf(upstream(429)), 'unreachable');
  assert.equal(await kindOf(unreachable('connection refused', 'mapping_url')), 'unreachable');
  assert.equal(await kindOf(upstreamTimeout('no answer within 30000 ms', 'mapping_url')), 'upstream-timeout');
  assert.equal(await kindOf(upstream(404)), 'invalid');
  assert.equal(await kindOf(upstream(401)), 'invalid');
  assert.equal(await kindOf(forbidden('address 10.0.0.1 is private', 'mapping_url')), 'invalid');
  assert.equal(await kindOf(new Error('socket hang up')), 'invalid');
});

test('the field is named once: a cause that names it already is not prefixed with it again', async () => {
  const cause = new UpstreamError(
    'mapping_url: https://example.org/x could not be fetched',
    'mapping_url',
    404,
  );
  const thrown = await loadTemplate(NAMESPACE, failing(cause)).catch((error: unknown) => error);
  assert.ok(isDomainError(thrown));
  assert.equal(thrown.detail.match(/mapping_url:/g)?.length, 1);
  assert.match(
    thrown.detail,
    /could not load the template graph from .*: https:\/\/example\.org\/x could not be fetched$/,
  );
});

// Each kind of domain error, as every edge answers it: the services' status and {"detail"},
// the catalogue's CKAN Action API error, and the chain's step status. The table is written out
// by hand: it is the contract the edges keep.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DomainError, ERROR_KINDS, TimeoutError, type ErrorKind } from '../../../lib/process/errors.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { toErrorAnswer } from '../../../gateways/kit/errors.ts';
import { failedStep } from '../../../lib/chain/failed-step.ts';

interface Row {
  status: number;
  ckan: { status: number; type: string };
  retryable: boolean;
}

const TABLE: Record<ErrorKind, Row> = {
  malformed: { status: 400, ckan: { status: 400, type: 'Validation Error' }, retryable: false },
  unauthorized: { status: 401, ckan: { status: 403, type: 'Authorization Error' }, retryable: false },
  forbidden: { status: 403, ckan: { status: 403, type: 'Authorization Error' }, retryable: false },
  'not-found': { status: 404, ckan: { status: 404, type: 'Not Found Error' }, retryable: false },
  'slow-client': { status: 408, ckan: { status: 408, type: 'Validation Error' }, retryable: false },
  conflict: { status: 409, ckan: { status: 409, type: 'Validation Error' }, retryable: false },
  'too-large': { status: 413, ckan: { status: 413, type: 'Validation Error' }, retryable: false },
  unsupported: { status: 415, ckan: { status: 415, type: 'Validation Error' }, retryable: false },
  'not-acceptable': { status: 406, ckan: { status: 406, type: 'Validation Error' }, retryable: false },
  invalid: { status: 422, ckan: { status: 409, type: 'Validation Error' }, retryable: false },
  unreachable: { status: 422, ckan: { status: 409, type: 'Validation Error' }, retryable: true },
  'upstream-timeout': { status: 504, ckan: { status: 504, type: 'Validation Error' }, retryable: true },
  crashed: { status: 500, ckan: { status: 500, type: 'Validation Error' }, retryable: false },
};

describe('error kinds at the edges', () => {
  test('the table covers every kind', () => {
    assert.deepEqual(Object.keys(TABLE).sort(), [...ERROR_KINDS].sort());
  });

  for (const kind of ERROR_KINDS) {
    const row = TABLE[kind];
    test(`${kind}: services answer ${row.status} with the field in the detail`, () => {
      // A detail that does not name its field gets it in front; one that does is left alone.
      assert.deepEqual(toErrorAnswer(new DomainError(kind, 'is wrong', 'data_url')), {
        status: row.status,
        detail: 'data_url: is wrong',
      });
      assert.deepEqual(toErrorAnswer(new DomainError(kind, 'data_url: is wrong', 'data_url')), {
        status: row.status,
        detail: 'data_url: is wrong',
      });
      assert.deepEqual(toErrorAnswer(new DomainError(kind, 'the request is wrong')), {
        status: row.status,
        detail: 'the request is wrong',
      });
    });

    test(`${kind}: CKAN answers ${row.ckan.status} "${row.ckan.type}"`, () => {
      const answer = ckanError(new DomainError(kind, 'is wrong', 'name'));
      assert.equal(answer.status, row.ckan.status);
      assert.equal(answer.body.success, false);
      const expected =
        row.ckan.type === 'Not Found Error'
          ? { __type: row.ckan.type, message: 'Not found: name: is wrong' }
          : row.ckan.type === 'Authorization Error'
            ? { __type: row.ckan.type, message: 'Access denied: name: is wrong' }
            : { __type: row.ckan.type, name: ['is wrong'] };
      assert.deepEqual(answer.body.error, expected);
    });

    test(`${kind}: the chain's step fails ${row.retryable ? 'retryably' : 'for good'}`, () => {
      assert.deepEqual(failedStep(new DomainError(kind, 'is wrong', 'data_url')), {
        state: 'failed',
        kind,
        detail: 'data_url: is wrong',
        field: 'data_url',
        retryable: row.retryable,
      });
    });
  }

  test('a CKAN validation error keys its message by the field without repeating it', () => {
    assert.deepEqual(ckanError(new DomainError('invalid', 'name: Missing value', 'name')).body.error, {
      __type: 'Validation Error',
      name: ['Missing value'],
    });
  });

  test('a CKAN validation error without a field says it as the message', () => {
    assert.deepEqual(ckanError(new DomainError('invalid', 'the dataset is wrong')).body.error, {
      __type: 'Validation Error',
      message: 'the dataset is wrong',
    });
  });

  test('time-outs and internal errors keep their own answers', () => {
    assert.deepEqual(toErrorAnswer(new TimeoutError('no reply within 10 ms')), {
      status: 504,
      detail: 'no reply within 10 ms',
    });
    assert.deepEqual(toErrorAnswer(new Error('secret /srv path')), {
      status: 500,
      detail: 'Internal Server Error',
    });
    assert.deepEqual(failedStep(new TimeoutError('no reply within 10 ms')), {
      state: 'failed',
      kind: 'timeout',
      detail: 'no reply within 10 ms',
      retryable: true,
    });
    assert.deepEqual(failedStep(new Error('secret /srv path')), {
      state: 'failed',
      kind: 'internal',
      detail: 'internal error',
      retryable: false,
    });
  });

  test('the bus reply schema names every kind, and the bus’s own two', () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../../schemas/service-reply.schema.json', import.meta.url), 'utf8'),
    ) as { oneOf: { properties: { kind?: { enum: string[] } } }[] };
    const kinds = schema.oneOf.find((branch) => branch.properties.kind)?.properties.kind?.enum ?? [];
    assert.deepEqual([...kinds].sort(), [...ERROR_KINDS, 'timeout', 'internal'].sort());
  });
});

// The ClientError a promise rejects with (failing the test when it resolves or throws anything else).
import assert from 'node:assert/strict';
import { ClientError } from '../../lib/errors.ts';

export async function rejection(promise: Promise<unknown>): Promise<ClientError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ClientError, `not a ClientError: ${String(error)}`);
    return error;
  }
  assert.fail('no error');
}

// The DomainError a promise rejects with (failing the test when it resolves or throws anything else).
import assert from 'node:assert/strict';
import { DomainError } from '../../lib/process/errors.ts';

export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError, `not a DomainError: ${String(error)}`);
    return error;
  }
  assert.fail('no error');
}

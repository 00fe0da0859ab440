// Test-only operations for the worker pool's work after an answer (OperationContext.later).
import { existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Operation } from '../../consumers/request-consumer.ts';

export function operationsFor(): Record<string, Operation> {
  return {
    /** Answers, leaving for later: wait for the file `go`, then write the file `mark`. */
    answerFirst: async (input, context) => {
      const task = async () => {
        while (!existsSync(String(input['go']))) await sleep(10);
        writeFileSync(String(input['mark']), 'written');
      };
      if (context.later) context.later(task);
      else await task();
      return 'answered';
    },
    /** Leaves for later a task that fails. */
    failLater: async (_input, context) => {
      context.later?.(() => Promise.reject(new Error('later work failed')));
      return 'answered';
    },
    exists: async (input) => existsSync(String(input['path'])),
  };
}

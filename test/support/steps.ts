// Waiting for a source's chain steps over the Action API (labld_status_show), as the chain's UI
// tests do: until `done` says the steps have come far enough, or a clear failure naming them.
import assert from 'node:assert/strict';
import { sleep } from './wait.ts';

type Dict = Record<string, unknown>;
export type Step = { step: string; state: string; summary?: Dict };

export const stateOf = (steps: Step[], step: string): string | undefined =>
  steps.find((s) => s.step === step)?.state;

/** `call` runs an action as someone who may read the source; about 90 s at most. */
export async function stepsWhen(
  call: (action: string, body: Dict) => Promise<Dict>,
  id: string,
  done: (steps: Step[]) => boolean,
): Promise<Step[]> {
  for (let i = 0; ; i++) {
    const status = await call('labld_status_show', { resource_id: id });
    const steps = (status.resources as { steps: Step[] }[])[0]?.steps ?? [];
    if (done(steps)) return steps;
    assert.ok(
      i < 900,
      `the chain did not come as far: ${JSON.stringify(steps.map((s) => [s.step, s.state]))}`,
    );
    await sleep(100);
  }
}

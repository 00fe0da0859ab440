// A client of another language run against a labld (or a double) in this process: spawned, not
// run with spawnSync, because the server's event loop must keep serving it. Its stdout comes
// back; a non-zero exit fails the test with its stderr.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Named in the failure: `ckanapi script`, `pybis script`, … */
  what?: string;
}

export async function runClient(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `${options.what ?? command} failed:\n${stderr}\n${stdout}`);
  return stdout;
}

// The server's own secret (the CSRF key), kept in a file under LABLD_DATA so it outlives
// restarts and is shared by every process on the same data directory (`labld user …` beside a
// running instance). Made on first use; never printed, never in configuration.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SECRET_BYTES = 32;

export async function serverSecret(dataDir: string, name = 'csrf.key'): Promise<Buffer> {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  const existing = await readSecret(file);
  if (existing) return existing;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Written whole to a temporary file, then linked into place: link fails if the name exists, so
  // two processes starting together agree on one secret and no one reads a half-written file.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, randomBytes(SECRET_BYTES), { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  const secret = await readSecret(file);
  if (!secret) throw new Error(`${file}: expected ${SECRET_BYTES} bytes of secret`);
  return secret;
}

async function readSecret(file: string): Promise<Buffer | undefined> {
  try {
    const bytes = await readFile(file);
    return bytes.length === SECRET_BYTES ? bytes : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

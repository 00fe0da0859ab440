// `labld user add|token|list`: accounts from the command line, on the database labld uses
// (LABLD_DATA's embedded catalogue, or LABLD_DATABASE_URL). There is no sign-up and no default
// password, so this is how the first admin is made. It may run beside a running embedded
// instance: the embedded store is in WAL mode with a busy timeout, so this process waits for the
// other's write lock instead of failing.
//
// Secrets go to stdout alone (one line), everything else to stderr, so that a script can take the
// secret with `$(labld user token ada)` and a person still reads what happened.
import type { Readable, Writable } from 'node:stream';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { CatalogueStore } from '../lib/catalogue/store/contract.ts';
import { checkName } from '../lib/catalogue/model.ts';
import { generateOneTimePassword, hashPassword } from '../lib/catalogue/auth/passwords.ts';
import { createToken } from '../lib/catalogue/auth/tokens.ts';
import { isDomainError, notFound } from '../lib/process/errors.ts';
import { UsageError } from './rml.ts';

export const USER_USAGE = `  user add NAME [--admin] [--fullname TEXT] [--email ADDRESS] [--password-stdin]
                                make a user (--admin: a sysadmin); prints a one-time password,
                                or reads the password from stdin
  user token NAME [--name LABEL]
                                print a new API token for NAME (stored only as its hash)
  user list                     the users, one per line
`;

export interface UserIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

const PROCESS_IO: UserIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** Longest password read from stdin: the policy's limit is far below; more is not a password. */
const STDIN_LIMIT = 64 * 1024;

function parse<T extends ParseArgsOptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs' own words ("Unknown option '--x'") are clear; they are a usage problem.
    throw new UsageError((error as Error).message);
  }
}

/** The one NAME a subcommand takes, checked as the store would (so the words are the same). */
function oneName(positionals: string[], command: string): string {
  if (positionals.length === 0) throw new UsageError(`user ${command} needs a user NAME`);
  if (positionals.length > 1) {
    throw new UsageError(
      `user ${command} takes one NAME, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  try {
    return checkName(positionals[0], 'NAME');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function readPassword(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > STDIN_LIMIT) throw new UsageError('--password-stdin: more than 64 KiB on stdin');
    chunks.push(bytes);
  }
  // One final line break is the echo's or the file's, not the password's.
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (text === '') throw new UsageError('--password-stdin: stdin was empty');
  if (/[\r\n]/.test(text)) throw new UsageError('--password-stdin: the password must be one line');
  return text;
}

async function withStore<T>(work: (store: CatalogueStore) => Promise<T>): Promise<T> {
  // Imported here: the store's drivers are most of the CLI's start-up, and `labld rml` needs none.
  const { catalogueConfigFromEnv, openCatalogueStore } = await import('../lib/catalogue/store/open.ts');
  const store = await openCatalogueStore(catalogueConfigFromEnv());
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function add(args: string[], io: UserIo): Promise<void> {
  const { values, positionals } = parse(args, {
    admin: { type: 'boolean' },
    fullname: { type: 'string' },
    email: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  });
  const name = oneName(positionals, 'add');
  const given = values['password-stdin'] === true;
  const password = given ? await readPassword(io.stdin) : generateOneTimePassword();
  let hash: string;
  try {
    hash = await hashPassword(password);
  } catch (error) {
    // The policy's refusal ("password: must be at least 12 characters") is the caller's to fix.
    if (isDomainError(error) && error.kind === 'invalid') throw new UsageError(error.message);
    throw error;
  }
  const sysadmin = values.admin === true;
  const user = await withStore((store) =>
    store.createUser({
      name,
      sysadmin,
      password_hash: hash,
      ...(typeof values.fullname === 'string' ? { fullname: values.fullname } : {}),
      ...(typeof values.email === 'string' ? { email: values.email } : {}),
    }),
  );
  const what = `user ${user.name}${user.sysadmin ? ' (sysadmin)' : ''}`;
  if (given) {
    io.stderr.write(`labld: created ${what} with the password from stdin\n`);
    return;
  }
  io.stderr.write(
    `labld: created ${what}. Its password follows, shown only this once (labld keeps only a hash);\n` +
      `       log in at /user/login with it and keep it somewhere safe.\n`,
  );
  io.stdout.write(`${password}\n`);
}

async function token(args: string[], io: UserIo): Promise<void> {
  const { values, positionals } = parse(args, { name: { type: 'string' } });
  const userName = oneName(positionals, 'token');
  const label =
    typeof values.name === 'string' ? values.name : `cli ${new Date().toISOString().slice(0, 10)}`;
  if (label.trim() === '' || label.length > 200) {
    throw new UsageError('--name: must be 1 to 200 characters');
  }
  const made = createToken();
  await withStore(async (store) => {
    const user = await store.getUser(userName);
    if (!user)
      throw notFound(`NAME: no user ${JSON.stringify(userName)} (make one with labld user add)`, 'NAME');
    await store.createToken({ user_id: user.id, name: label, token_hash: made.hash });
  });
  io.stderr.write(
    `labld: new API token "${label}" for ${userName}, shown only this once (labld keeps only a hash).\n` +
      `       Send it as the Authorization header.\n`,
  );
  io.stdout.write(`${made.token}\n`);
}

async function list(args: string[], io: UserIo): Promise<void> {
  const { positionals } = parse(args, {});
  if (positionals.length > 0)
    throw new UsageError(`user list takes no arguments, got ${positionals.join(' ')}`);
  const users = await withStore((store) => store.listUsers());
  if (users.length === 0) {
    io.stderr.write('labld: no users yet; make the first admin with: labld user add NAME --admin\n');
    return;
  }
  for (const u of users) {
    const role = u.sysadmin ? 'sysadmin' : 'user';
    io.stdout.write(`${u.name}\t${role}\t${u.fullname}\t${u.email}\t${u.created}\n`);
  }
}

/**
 * Runs `labld user …`. A usage problem (unknown subcommand or option, a NAME that cannot be a
 * user name, a password the policy refuses) is a UsageError (exit 2); a domain error from the
 * store (the name is taken, no such user, the database is unreachable) is rejected as is (exit 1).
 */
export async function user(args: string[], io: UserIo = PROCESS_IO): Promise<void> {
  const [action, ...rest] = args;
  switch (action) {
    case 'add':
      return add(rest, io);
    case 'token':
      return token(rest, io);
    case 'list':
      return list(rest, io);
    case undefined:
      throw new UsageError('user needs add, token or list');
    default:
      throw new UsageError(`unknown user action ${action}; use add, token or list`);
  }
}

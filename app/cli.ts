// `labld` command line: start | serve | replay | topics | rml. Parsing and dispatch only; each
// command is a small function over the process wiring in ./processes.ts.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { BusConfig } from '../lib/bus/open.ts';
import { intSetting } from '../lib/process/config.ts';
import { rml, RML_USAGE, UsageError } from './rml.ts';
import { user, USER_USAGE } from './users.ts';

/** Each command's own usage, printed by `labld <command> --help` and after its usage errors. */
const COMMAND_USAGE: Record<string, string> = {
  start: `  start [--port N]              every gateway and consumer in one process (embedded bus)
`,
  serve: `  serve <name> [--port N] [--transport embedded|kafka]
                                one gateway (${'annotator, mapper, converter, extractor, catalogue'})
                                or one consumer group (e.g. annotator-requests)
`,
  replay: `  replay --topic T --group G (--from-offset N | --from-time ISO) [--transport embedded|kafka]
                                move a stopped consumer group back to re-process messages
`,
  topics: `  topics [list|check|create] [--transport embedded|kafka]
                                show, validate, or create the topics of topics.yaml
`,
  rml: RML_USAGE,
  user: USER_USAGE,
};

const USAGE = `usage: labld <command> [--help]    (labld --version prints the version)

${Object.values(COMMAND_USAGE).join('')}`;

/** The version of package.json, which is the version of labld. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function fail(message: string): never {
  process.stderr.write(`labld: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** A command's UsageError: the message with the usage text, exit 2. */
function usage(work: Promise<void>): Promise<void> {
  return work.catch((error: unknown) =>
    error instanceof UsageError ? fail(error.message) : Promise.reject(error),
  );
}

// The bus (0.3 s of imports) and the user commands' catalogue store are loaded by the commands
// that use them: `labld rml` starts without either.
async function busConfig(transport: string | undefined): Promise<BusConfig> {
  const { busConfigFromEnv } = await import('../lib/bus/open.ts');
  const config = busConfigFromEnv();
  if (transport === undefined) return config;
  if (transport !== 'embedded' && transport !== 'kafka') fail(`--transport must be embedded or kafka`);
  return { ...config, transport };
}

function port(value: string | undefined): number {
  if (value === undefined) return intSetting('PORT');
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--port must be a port number, got ${value}`);
  return n;
}

function isHelp(arg: string): boolean {
  return arg === '--help' || arg === '-h';
}

async function replay(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      topic: { type: 'string' },
      group: { type: 'string' },
      'from-offset': { type: 'string' },
      'from-time': { type: 'string' },
      transport: { type: 'string' },
    },
  });
  if (!values.topic || !values.group) fail('replay needs --topic and --group');
  let from: { offset: number } | { timestamp: number };
  if (values['from-offset'] !== undefined && values['from-time'] === undefined) {
    const offset = Number(values['from-offset']);
    if (!Number.isInteger(offset) || offset < 0) fail('--from-offset must be a non-negative integer');
    from = { offset };
  } else if (values['from-time'] !== undefined && values['from-offset'] === undefined) {
    const timestamp = Date.parse(values['from-time']);
    if (Number.isNaN(timestamp)) fail('--from-time must be an ISO date-time, e.g. 2026-11-22T08:00:00Z');
    from = { timestamp };
  } else {
    fail('replay needs exactly one of --from-offset and --from-time');
  }
  const { openBus } = await import('../lib/bus/open.ts');
  const bus = await openBus(await busConfig(values.transport));
  try {
    await bus.replay(values.topic, values.group, from);
    process.stdout.write(`group ${values.group} on ${values.topic} replays from ${JSON.stringify(from)}\n`);
  } finally {
    await bus.close();
  }
}

async function topics(args: string[]): Promise<void> {
  const [action = 'list', ...rest] = args;
  const { values } = parseArgs({ args: rest, options: { transport: { type: 'string' } } });
  const config = await busConfig(values.transport);
  const { catalogOf, openBus } = await import('../lib/bus/open.ts');
  const catalog = catalogOf(config);
  if (action === 'list') {
    for (const t of catalog.all()) {
      const retention = Number.isFinite(t.retentionMs) ? `${t.retentionMs / 3_600_000}h` : 'forever';
      const groups = t.groups.join(',') || '-';
      const kind = t.perInstance ? ' (one per requester)' : '';
      process.stdout.write(
        `${t.name}${kind}\tpartitions=${t.partitions}\tretention=${retention}\tschema=${t.schema}\tgroups=${groups}\tdead_letter=${t.deadLetter ?? '-'}\n`,
      );
    }
  } else if (action === 'check') {
    const { PayloadValidator } = await import('../lib/bus/payloads.ts');
    new PayloadValidator(catalog);
    process.stdout.write(`${catalog.file}: ${catalog.all().length} topics, schemas compile\n`);
  } else if (action === 'create') {
    const bus = await openBus(config, catalog);
    await bus.close();
    process.stdout.write(
      `${catalog.declarations().length} topics created or verified on ${config.transport}\n`,
    );
  } else {
    fail(`unknown topics action ${action}`);
  }
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  // `--help` anywhere after a command asks for that command's usage and runs nothing.
  if (command !== undefined && Object.hasOwn(COMMAND_USAGE, command) && args.some(isHelp)) {
    process.stdout.write(`usage: labld\n${COMMAND_USAGE[command]}`);
    return;
  }
  switch (command) {
    case 'start': {
      // The process wiring loads every gateway and consumer (~0.7 s): only the commands that
      // run them pay for it.
      const { startEmbedded, stopOnSignals } = await import('./processes.ts');
      const { values } = parseArgs({ args, options: { port: { type: 'string' } } });
      stopOnSignals(await startEmbedded({ port: port(values.port), bus: await busConfig('embedded') }));
      return;
    }
    case 'serve': {
      const { serveOne, servableNames, stopOnSignals } = await import('./processes.ts');
      const { values, positionals } = parseArgs({
        args,
        allowPositionals: true,
        options: { port: { type: 'string' }, transport: { type: 'string' } },
      });
      const name = positionals[0];
      if (!name) fail(`serve needs a name: ${servableNames().join(', ')}`);
      stopOnSignals(
        await serveOne(name, { port: port(values.port), bus: await busConfig(values.transport) }),
      );
      return;
    }
    case 'replay':
      return replay(args);
    case 'topics':
      return topics(args);
    case 'rml':
      return usage(rml(args));
    case 'user':
      return usage(user(args));
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    case 'version':
    case '--version':
    case '-V':
      process.stdout.write(`labld ${version()}\n`);
      return;
    default:
      fail(`unknown command ${command}`);
  }
}

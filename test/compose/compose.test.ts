// The docker compose files stay valid: `docker compose config` where the Compose plugin works,
// and always a schema check of the subset of the Compose specification they use, plus what
// Compose checks only at `up` time (references between services, volumes, bind mounts) and
// what labld needs (each gateway and consumer group served, only settings labld reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import yaml from 'js-yaml';
import { Ajv } from 'ajv';
import { settings } from '../../lib/process/config.ts';
import { servableNames } from '../../app/processes.ts';
import { DEAD_LETTER_COLLECTORS, DEAD_LETTERS_PROCESS } from '../../consumers/chain-dead-letters.ts';
import { loadTopics } from '../../lib/bus/topics.ts';
import { SERVICES } from '../../lib/services.ts';

const COMPOSE = new URL('../../compose/', import.meta.url).pathname;
const FILES = ['compose.yaml', 'scale-out.yaml'];

const stringList = { type: 'array', items: { type: 'string' } };
const scalar = { type: ['string', 'number', 'boolean', 'null'] };
/** The Compose specification's shape for the keys labld's files use (compose-spec.io). */
const schema = {
  type: 'object',
  required: ['services'],
  propertyNames: { pattern: '^(name|services|volumes|networks|configs|secrets|x-.+)$' },
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' },
    volumes: { type: 'object', additionalProperties: { type: ['object', 'null'] } },
    services: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[a-zA-Z0-9._-]+$' },
      additionalProperties: {
        type: 'object',
        anyOf: [{ required: ['image'] }, { required: ['build'] }],
        additionalProperties: false,
        properties: {
          image: { type: 'string', pattern: '^[a-z0-9./_-]+:[A-Za-z0-9._-]+$' },
          build: {},
          command: { oneOf: [{ type: 'string' }, stringList] },
          working_dir: { type: 'string' },
          environment: {
            oneOf: [{ type: 'object', additionalProperties: scalar }, stringList],
          },
          ports: { type: 'array', items: { type: 'string', pattern: '^(\\d+(-\\d+)?:)?\\d+(-\\d+)?$' } },
          volumes: { type: 'array', items: { type: 'string', pattern: '^[^:]+:/[^:]*(:(ro|rw))?$' } },
          depends_on: {
            oneOf: [
              stringList,
              {
                type: 'object',
                additionalProperties: {
                  type: 'object',
                  required: ['condition'],
                  additionalProperties: false,
                  properties: {
                    condition: {
                      enum: ['service_started', 'service_healthy', 'service_completed_successfully'],
                    },
                    restart: { type: 'boolean' },
                  },
                },
              },
            ],
          },
          healthcheck: {
            type: 'object',
            required: ['test'],
            additionalProperties: false,
            properties: {
              test: { oneOf: [{ type: 'string' }, stringList] },
              interval: { type: 'string', pattern: '^\\d+(ms|s|m|h)$' },
              timeout: { type: 'string', pattern: '^\\d+(ms|s|m|h)$' },
              retries: { type: 'integer', minimum: 0 },
              start_period: { type: 'string', pattern: '^\\d+(ms|s|m|h)$' },
            },
          },
          deploy: {
            type: 'object',
            additionalProperties: false,
            properties: { replicas: { type: 'integer', minimum: 0 } },
          },
          restart: { enum: ['no', 'always', 'on-failure', 'unless-stopped'] },
          stop_grace_period: { type: 'string', pattern: '^\\d+(ms|s|m|h)$' },
        },
      },
    },
  },
};

interface Service {
  image?: string;
  command?: string | string[];
  environment?: Record<string, unknown>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: unknown;
  deploy?: { replicas?: number };
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const load = (file: string) => yaml.load(readFileSync(`${COMPOSE}${file}`, 'utf8')) as ComposeFile;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const known = new Set<string>(settings.map((s) => s.name));

// Where the docker client has its Compose plugin, Compose itself checks the files too (this
// machine's client has none, and no engine: there the schema check stands alone).
const composePlugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;

test('the schema check refuses what Compose refuses', () => {
  const base = { services: { a: { image: 'node:24', deploy: { replicas: 2 } } } };
  assert.ok(validate(base));
  assert.ok(!validate({ services: { a: { image: 'node:24', replica: 2 } } }), 'unknown service key');
  assert.ok(!validate({ services: { a: { command: ['x'] } } }), 'no image, no build');
  assert.ok(
    !validate({ services: { a: { image: 'node:24', depends_on: { b: { condition: 'healthy' } } } } }),
    'unknown depends_on condition',
  );
  assert.ok(
    !validate({ services: { a: { image: 'node:24', deploy: { replicas: '2' } } } }),
    'replicas a string',
  );
  assert.ok(!validate({ ...base, service: {} }), 'unknown top-level key');
});

for (const file of FILES) {
  test(`compose/${file} follows the Compose specification and its references resolve`, () => {
    if (composePlugin) {
      const config = spawnSync('docker', ['compose', '-f', `${COMPOSE}${file}`, 'config', '--quiet'], {
        encoding: 'utf8',
      });
      assert.equal(config.status, 0, `docker compose config: ${config.stderr}`);
    }
    const compose = load(file);
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 2));
    for (const [name, service] of Object.entries(compose.services)) {
      const deps = Array.isArray(service.depends_on)
        ? Object.fromEntries(service.depends_on.map((d) => [d, { condition: 'service_started' }]))
        : (service.depends_on ?? {});
      for (const [dep, { condition }] of Object.entries(deps)) {
        assert.ok(compose.services[dep], `${name} depends on an unknown service ${dep}`);
        if (condition === 'service_healthy')
          assert.ok(
            compose.services[dep]!.healthcheck,
            `${name} waits for ${dep} to be healthy; it has no healthcheck`,
          );
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.') || source.startsWith('/'))
          assert.ok(
            existsSync(resolve(dirname(`${COMPOSE}${file}`), source)),
            `${name}: bind mount ${source} exists`,
          );
        else assert.ok(compose.volumes && source in compose.volumes, `${name}: volume ${source} is declared`);
      }
    }
  });
}

test('compose/scale-out.yaml runs every gateway and consumer group on Kafka, with replicas, and reads only labld settings', () => {
  const compose = load('scale-out.yaml');
  for (const infrastructure of ['kafka', 'schema-registry', 'postgres', 'redis', 'fuseki'])
    assert.ok(compose.services[infrastructure], `the stack has ${infrastructure}`);
  const served = new Map<string, Service>();
  for (const [name, service] of Object.entries(compose.services)) {
    const command = Array.isArray(service.command) ? service.command : [];
    const at = command.indexOf('serve');
    if (command[1] !== 'bin/labld.js') continue;
    for (const key of Object.keys(service.environment ?? {}))
      if (/^(LABLD_|KAFKA_|PORT$|HOST$|BASE_URL$)/.test(key))
        assert.ok(known.has(key), `${name}: ${key} is not a setting of lib/process/config.ts`);
    if (at < 0) continue;
    assert.deepEqual(command.slice(at + 2), ['--transport', 'kafka'], `${name} runs on Kafka`);
    assert.equal(service.environment?.['LABLD_TRANSPORT'], 'kafka');
    assert.ok((service.deploy?.replicas ?? 0) >= 1, `${name} has a replica count`);
    served.set(command[at + 1]!, service);
  }
  // A gateway or consumer group added to labld must be added to the stack too.
  assert.deepEqual([...served.keys()].sort(), servableNames().sort());
  const replicas = [...served.values()].map((s) => s.deploy!.replicas!);
  assert.ok(
    replicas.some((n) => n > 1),
    'at least one part scales out',
  );
});

test('compose/scale-out.yaml is in step with topics.yaml: every consumer group has a service with 2 replicas, none an unknown group', () => {
  const compose = load('scale-out.yaml');
  const groups = new Set(loadTopics(`${COMPOSE}../topics.yaml`).groups());
  const gateways = new Set<string>([...SERVICES, 'catalogue']);
  const served = new Map<string, { service: string; replicas: number }>();
  for (const [name, service] of Object.entries(compose.services)) {
    const command = Array.isArray(service.command) ? service.command : [];
    const at = command.indexOf('serve');
    if (at < 0) continue;
    // One process runs every dead-letter collector group (they are small and alike).
    const parts =
      command[at + 1] === DEAD_LETTERS_PROCESS
        ? DEAD_LETTER_COLLECTORS.map((c) => c.group)
        : [command[at + 1]!];
    for (const part of parts) {
      assert.ok(
        !served.has(part),
        `${part} is served by one service, not by ${served.get(part)?.service} and ${name}`,
      );
      served.set(part, { service: name, replicas: service.deploy?.replicas ?? 1 });
      assert.ok(
        gateways.has(part) || groups.has(part),
        `${name} serves ${part}, not a gateway nor a group of topics.yaml`,
      );
    }
  }
  for (const group of groups) {
    assert.ok(served.has(group), `the consumer group ${group} (topics.yaml) has a service`);
    assert.equal(served.get(group)!.replicas, 2, `${group} runs 2 replicas`);
  }
  for (const gateway of gateways)
    assert.ok((served.get(gateway)?.replicas ?? 0) >= 2, `${gateway} runs 2 replicas`);
});

test('compose/scale-out.yaml: every labld process is configured for the stack, checked by /readyz, started after its servers', () => {
  const compose = load('scale-out.yaml');
  const infrastructure = ['kafka', 'schema-registry', 'postgres', 'redis', 'fuseki'];
  for (const name of infrastructure)
    assert.ok(compose.services[name]?.healthcheck, `${name} has a health check (start order waits on it)`);
  const setup = compose.services['labld-setup']!;
  for (const name of infrastructure)
    assert.deepEqual(
      (setup.depends_on as Record<string, { condition: string }>)[name],
      { condition: 'service_healthy' },
      `labld-setup (topics) waits for ${name} to be healthy`,
    );
  // The stack's servers, each named by the setting labld reads, at a service of this file.
  const stack = {
    LABLD_TRANSPORT: 'kafka',
    KAFKA_BROKERS: 'kafka',
    LABLD_SCHEMA_REGISTRY_URL: 'schema-registry',
    LABLD_DATABASE_URL: 'postgres',
    LABLD_REDIS_URL: 'redis',
    LABLD_TRIPLESTORE_URL: 'fuseki',
  } as const;
  for (const [name, service] of Object.entries(compose.services)) {
    const command = Array.isArray(service.command) ? service.command : [];
    if (!command.includes('serve')) continue;
    const env = service.environment ?? {};
    for (const [key, host] of Object.entries(stack)) {
      assert.ok(known.has(key), `${key} is a setting of lib/process/config.ts`);
      const value = String(env[key] ?? '');
      if (key === 'LABLD_TRANSPORT') assert.equal(value, host, `${name}: ${key}`);
      else {
        const named = key === 'KAFKA_BROKERS' ? value.split(',')[0]!.split(':')[0] : new URL(value).hostname;
        assert.equal(named, host, `${name}: ${key} names the ${host} service`);
      }
    }
    assert.match(JSON.stringify(service.healthcheck), /\/readyz/, `${name}: its health check asks /readyz`);
    assert.deepEqual(
      (service.depends_on as Record<string, { condition: string }>)['labld-setup'],
      { condition: 'service_completed_successfully' },
      `${name} starts after the topics are created`,
    );
  }
});

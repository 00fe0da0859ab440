// topics.yaml: the single source of truth for every topic. Loaded and checked once at
// start-up; code asks the catalogue for topics by the consumer group that reads them, so
// no topic name is ever written twice.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import yaml from 'js-yaml';
import { Ajv } from 'ajv';
import type { TopicDeclaration } from './contract.ts';

export interface TopicSpec {
  name: string;
  /** What the message key is (documentation; it decides ordering). */
  key: string;
  partitions: number;
  retentionMs: number;
  /** Schema file name inside the schemas folder. */
  schema: string;
  groups: string[];
  deadLetter: string | null;
  /** A family of per-instance topics `<name>.<client id>` (reply topics). */
  perInstance: boolean;
  maxAttempts: number;
  backoffMs: number;
  /** Messages of one partition a consumer handles at once; 1 keeps each key's order. */
  concurrency: number;
}

export class TopicsFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'TopicsFileError';
  }
}

const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `7d`, `1h`, `30s`, `500ms`, or `forever`. */
export function parseDuration(text: string): number {
  if (text === 'forever') return Number.POSITIVE_INFINITY;
  const match = DURATION.exec(text);
  if (!match) throw new Error(`not a duration: ${JSON.stringify(text)} (use e.g. 7d, 12h, 30m, forever)`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const topicName = { type: 'string', pattern: '^[A-Za-z0-9._-]{1,200}$' };
const fileShape = {
  type: 'object',
  required: ['topics'],
  additionalProperties: false,
  properties: {
    defaults: {
      type: 'object',
      additionalProperties: false,
      properties: {
        partitions: { type: 'integer', minimum: 1 },
        retention: { type: 'string' },
        max_attempts: { type: 'integer', minimum: 1 },
        backoff_ms: { type: 'integer', minimum: 0 },
        concurrency: { type: 'integer', minimum: 1 },
      },
    },
    topics: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'schema'],
        additionalProperties: false,
        properties: {
          name: topicName,
          key: { type: 'string' },
          partitions: { type: 'integer', minimum: 1 },
          retention: { type: 'string' },
          schema: { type: 'string', pattern: '^[A-Za-z0-9._-]+\\.json$' },
          groups: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' } },
          dead_letter: topicName,
          per_instance: { type: 'boolean' },
          max_attempts: { type: 'integer', minimum: 1 },
          backoff_ms: { type: 'integer', minimum: 0 },
          concurrency: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
} as const;

interface RawTopic {
  name: string;
  key?: string;
  partitions?: number;
  retention?: string;
  schema: string;
  groups?: string[];
  dead_letter?: string;
  per_instance?: boolean;
  max_attempts?: number;
  backoff_ms?: number;
  concurrency?: number;
}
interface RawFile {
  defaults?: {
    partitions?: number;
    retention?: string;
    max_attempts?: number;
    backoff_ms?: number;
    concurrency?: number;
  };
  topics: RawTopic[];
}

export class TopicCatalog {
  readonly file: string;
  readonly schemaDir: string;
  readonly #topics: Map<string, TopicSpec>;

  constructor(file: string, schemaDir: string, topics: TopicSpec[]) {
    this.file = file;
    this.schemaDir = schemaDir;
    this.#topics = new Map(topics.map((t) => [t.name, t]));
  }

  all(): TopicSpec[] {
    return [...this.#topics.values()];
  }

  /** The spec of a topic, including a member `<family>.<id>` of a per-instance family. */
  topic(name: string): TopicSpec {
    const direct = this.#topics.get(name);
    if (direct) return direct;
    const family = this.all().find((t) => t.perInstance && name.startsWith(`${t.name}.`));
    if (family) return { ...family, name };
    throw new Error(`unknown topic ${JSON.stringify(name)}: not declared in ${this.file}`);
  }

  /** The one topic that consumer group `group` reads. */
  topicReadBy(group: string): TopicSpec {
    const found = this.all().filter((t) => t.groups.includes(group));
    if (found.length !== 1) {
      throw new Error(`${this.file}: group ${group} must read exactly one topic, reads ${found.length}`);
    }
    return found[0]!;
  }

  /** Every consumer group declared, for `labld serve <group>`. */
  groups(): string[] {
    return this.all().flatMap((t) => t.groups);
  }

  /** The per-instance reply topic of one requester. */
  replyTopicFor(clientId: string): string {
    const families = this.all().filter((t) => t.perInstance);
    if (families.length !== 1)
      throw new Error(`${this.file}: exactly one per_instance (reply) topic is needed`);
    return `${families[0]!.name}.${clientId}`;
  }

  schemaPath(spec: TopicSpec): string {
    return join(this.schemaDir, spec.schema);
  }

  /** What a transport must create (per-instance families are created by their instance). */
  declarations(): TopicDeclaration[] {
    return this.all()
      .filter((t) => !t.perInstance)
      .map((t) => ({ name: t.name, partitions: t.partitions, retentionMs: t.retentionMs, ephemeral: false }));
  }

  declaration(name: string): TopicDeclaration {
    const spec = this.topic(name);
    return { name, partitions: spec.partitions, retentionMs: spec.retentionMs, ephemeral: spec.perInstance };
  }
}

/** Load and check topics.yaml; every problem is an error naming the file and the entry. */
export function loadTopics(file: string, schemaDir = join(dirname(resolve(file)), 'schemas')): TopicCatalog {
  let raw: unknown;
  try {
    raw = yaml.load(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TopicsFileError(file, `cannot read: ${(error as Error).message}`);
  }
  const validate = new Ajv({ allErrors: false }).compile<RawFile>(fileShape);
  if (!validate(raw)) {
    const e = validate.errors![0]!;
    throw new TopicsFileError(file, `${e.instancePath || '/'} ${e.message}`);
  }
  const d = raw.defaults ?? {};
  const seen = new Set<string>();
  const topics = raw.topics.map((t, i): TopicSpec => {
    const where = `topics[${i}] (${t.name})`;
    if (seen.has(t.name)) throw new TopicsFileError(file, `${where}: duplicate topic name`);
    seen.add(t.name);
    if (!existsSync(join(schemaDir, t.schema))) {
      throw new TopicsFileError(file, `${where}: unknown schema file ${t.schema} (not in ${schemaDir})`);
    }
    let retentionMs: number;
    try {
      retentionMs = parseDuration(t.retention ?? d.retention ?? '7d');
    } catch (error) {
      throw new TopicsFileError(file, `${where}: retention ${(error as Error).message}`);
    }
    return {
      name: t.name,
      key: t.key ?? 'none',
      partitions: t.partitions ?? d.partitions ?? 1,
      retentionMs,
      schema: t.schema,
      groups: t.groups ?? [],
      deadLetter: t.dead_letter ?? null,
      perInstance: t.per_instance ?? false,
      maxAttempts: t.max_attempts ?? d.max_attempts ?? 5,
      backoffMs: t.backoff_ms ?? d.backoff_ms ?? 200,
      concurrency: t.concurrency ?? d.concurrency ?? 1,
    };
  });
  for (const t of topics) {
    if (t.deadLetter && !seen.has(t.deadLetter)) {
      throw new TopicsFileError(file, `${t.name}: dead_letter ${t.deadLetter} is not a declared topic`);
    }
  }
  const groups = topics.flatMap((t) => t.groups);
  const twice = groups.find((g, i) => groups.indexOf(g) !== i);
  if (twice) throw new TopicsFileError(file, `group ${twice} reads more than one topic`);
  return new TopicCatalog(file, schemaDir, topics);
}

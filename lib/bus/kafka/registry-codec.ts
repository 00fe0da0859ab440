// Payloads in the Confluent wire format with JSON Schema: a zero magic byte, the registry's
// 4-byte schema id (big-endian), then the JSON text. Each topic's schema from schemas/ is
// registered (by @kafkajs/confluent-schema-registry) under the subject `<topic>-value`
// (Confluent's TopicNameStrategy) when the topic is first published to; registering the same
// schema again returns the same id, so every instance may do it.
//
// Validation stays where it is for both transports, in TransportBus against the topic's own
// schema; decoding only reads the frame. (Validating here against the writer's schema would
// make a dead-letter topic unreadable: it holds messages that failed their schema.)
import { readFileSync } from 'node:fs';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { createAjv } from '../../json-schema.ts';
import type { PayloadCodec } from '../contract.ts';
import type { TopicCatalog } from '../topics.ts';

const MAGIC = 0;
const HEADER_BYTES = 5;

export class WireFormatError extends Error {
  constructor(topic: string, problem: string) {
    super(`message on ${topic} is not in the schema registry's wire format: ${problem}`);
    this.name = 'WireFormatError';
  }
}

export function frame(schemaId: number, json: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt8(MAGIC, 0);
  header.writeInt32BE(schemaId, 1);
  return Buffer.concat([header, json]);
}

export function unframe(topic: string, bytes: Buffer): { schemaId: number; json: Buffer } {
  if (bytes.length < HEADER_BYTES) throw new WireFormatError(topic, `${bytes.length} bytes`);
  if (bytes.readUInt8(0) !== MAGIC) throw new WireFormatError(topic, `magic byte ${bytes.readUInt8(0)}`);
  return { schemaId: bytes.readInt32BE(1), json: bytes.subarray(HEADER_BYTES) };
}

/** The library compiles each schema it registers; ours are draft 2020-12 and carry `$id`s, so each gets a fresh compiler. */
const draft2020 = {
  compile(schema: object) {
    return createAjv({ strict: false }).compile(schema);
  },
  addSchema() {
    throw new Error('schema references are not used by labld');
  },
};

export interface RegistryCodecOptions {
  /** Base URL of a Confluent-compatible registry, e.g. http://schema-registry:8081. */
  url: string;
  catalog: TopicCatalog;
  /** Put in front of subject names, like the transport's topic prefix (default none). */
  subjectPrefix?: string;
}

export class RegistryCodec implements PayloadCodec {
  readonly #registry: SchemaRegistry;
  readonly #catalog: TopicCatalog;
  readonly #prefix: string;
  readonly #ids = new Map<string, Promise<number>>();

  constructor(options: RegistryCodecOptions) {
    this.#registry = new SchemaRegistry(
      { host: options.url, clientId: 'labld' },
      { [SchemaType.JSON]: { ajvInstance: draft2020 as never } },
    );
    this.#catalog = options.catalog;
    this.#prefix = options.subjectPrefix ?? '';
  }

  /** Subject of a topic's values; a per-instance topic (replies) shares its family's subject. */
  subjectFor(topic: string): string {
    const family = this.#catalog.all().find((t) => t.perInstance && topic.startsWith(`${t.name}.`));
    return `${this.#prefix}${family?.name ?? topic}-value`;
  }

  async encode(topic: string, schemaFile: string, value: unknown): Promise<Buffer> {
    return frame(await this.#schemaId(topic, schemaFile), Buffer.from(JSON.stringify(value)));
  }

  async decode(topic: string, bytes: Buffer): Promise<unknown> {
    return JSON.parse(unframe(topic, bytes).json.toString('utf8'));
  }

  #schemaId(topic: string, schemaFile: string): Promise<number> {
    const subject = this.subjectFor(topic);
    let id = this.#ids.get(subject);
    if (!id) {
      const schema = readFileSync(`${this.#catalog.schemaDir}/${schemaFile}`, 'utf8');
      id = this.#registry
        .register({ type: SchemaType.JSON, schema }, { subject })
        .then((registered) => registered.id);
      // A failed registration (registry down) is tried again by the next publish.
      id.catch(() => this.#ids.delete(subject));
      this.#ids.set(subject, id);
    }
    return id;
  }
}

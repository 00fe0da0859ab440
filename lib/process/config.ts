// Configuration: every environment variable labld reads, with its default and meaning.
// The README's configuration table lists exactly these (a test checks it).

export interface Setting {
  name: string;
  default: string;
  description: string;
}

export const settings = [
  { name: 'PORT', default: '8000', description: 'HTTP port of `labld start` and of `labld serve`' },
  { name: 'HOST', default: '127.0.0.1', description: 'interface to listen on (`0.0.0.0` in containers)' },
  {
    name: 'BASE_URL',
    default: '',
    description:
      'public URL of labld (e.g. `https://labld.example.org`); default `http://localhost:<port listened on>`',
  },
  {
    name: 'APP_MODE',
    default: 'development',
    description: 'deployment mode reported by `/info` (`config_name`, `mode`), as in the original services',
  },
  { name: 'LABLD_CONTACT', default: '', description: "contact reported by the mapper's `/info`" },
  { name: 'LABLD_DATA', default: './data', description: 'data directory: bus log, uploads, stores' },
  { name: 'LABLD_TRANSPORT', default: 'embedded', description: 'bus transport: `embedded` or `kafka`' },
  {
    name: 'LABLD_DATABASE_URL',
    default: '',
    description: 'PostgreSQL URL of the catalogue and datastore; empty: the embedded database in LABLD_DATA',
  },
  {
    name: 'LABLD_TRIPLESTORE_URL',
    default: '',
    description:
      'triple store: a SPARQL 1.1 + Graph Store Protocol dataset URL (Fuseki); empty: embedded in LABLD_DATA',
  },
  {
    name: 'LABLD_SPARQL_TIMEOUT_MS',
    default: '30000',
    description: 'time limit of one SPARQL query or update on a dataset (then 504)',
  },
  {
    name: 'LABLD_SPARQL_MAX_RESULTS',
    default: '100000',
    description: 'most rows of a SELECT, triples of a CONSTRUCT or DESCRIBE (more: 413)',
  },
  {
    name: 'LABLD_SPARQL_MAX_NODES',
    default: '2000',
    description:
      'most terms, patterns and expressions of one SPARQL query or update, and half its tokens (more: 413, before it runs)',
  },
  {
    name: 'LABLD_SPARQL_MAX_DEPTH',
    default: '128',
    description:
      'deepest nesting of a SPARQL query: brackets, and its algebra (each item of a group, UNION or path one level)',
  },
  { name: 'LABLD_SPARQL_MAX_UNION', default: '100', description: 'most branches of one SPARQL UNION' },
  { name: 'LABLD_SPARQL_MAX_PATH', default: '32', description: 'most IRIs in one SPARQL property path' },
  { name: 'LABLD_SPARQL_MAX_VALUES', default: '1000', description: 'most cells of one SPARQL VALUES block' },
  {
    name: 'LABLD_SPARQL_WORKERS',
    default: '2',
    description:
      'embedded triple store: threads at most (one writer; readers start when queries wait, end after LABLD_WORKER_IDLE_MS)',
  },
  {
    name: 'LABLD_SPARQL_MEMORY_MB',
    default: '256',
    description:
      "embedded triple store: MB one query may add to its worker's memory while it runs (more: 413, the worker replaced)",
  },
  {
    name: 'LABLD_TRIPLESTORE_MEMORY_TRIPLES',
    default: '5000000',
    description: 'embedded triple store: triples kept in memory before datasets not queried are let go',
  },
  {
    name: 'LABLD_REDIS_URL',
    default: '',
    description:
      'Redis (`redis://host:6379/0`) for what processes share: fetch cache, rate limits; empty: process memory',
  },
  {
    name: 'LABLD_FETCH_CACHE_ENTRIES',
    default: '1000',
    description: 'fetch cache: most documents (templates, mappings) kept; the least recently used go first',
  },
  {
    name: 'LABLD_FETCH_CACHE_BYTES',
    default: '256mb',
    description: 'fetch cache: most bytes kept, all documents together (a larger one is not kept)',
  },
  {
    name: 'LABLD_FETCH_CACHE_FRESH_S',
    default: '60',
    description:
      'fetch cache: seconds a document without `Cache-Control: max-age` is used before asking its origin again (ETag / Last-Modified)',
  },
  {
    name: 'LABLD_FETCH_CACHE_STALE_S',
    default: '604800',
    description:
      'fetch cache: seconds past its freshness a copy still answers while its origin cannot be reached (no connection, timeout, 5xx); 0: never',
  },
  {
    name: 'LABLD_RATE_LIMIT',
    default: '0',
    description:
      'requests per caller (accepted API token, else client address) per window at every gateway; more: 429 + Retry-After (0: no limit)',
  },
  { name: 'LABLD_RATE_LIMIT_WINDOW_S', default: '60', description: 'rate limit: window length in seconds' },
  {
    name: 'LABLD_METRICS',
    default: 'local',
    description:
      '`/metrics` of every process: `local` (a caller on this machine that no proxy forwarded, or one with `LABLD_METRICS_TOKEN`), `token` (only with it), `public` or `off`',
  },
  {
    name: 'LABLD_METRICS_TOKEN',
    default: '',
    description:
      'a bearer token (`Authorization: Bearer …`) that opens `/metrics` to a scraper elsewhere; empty: none',
  },
  {
    name: 'LABLD_TRUSTED_PROXIES',
    default: '0',
    description:
      'reverse proxies in front of labld whose `X-Forwarded-For` is trusted: the client address (login throttle, rate limit) is the one the outermost recorded (0: the TCP peer, the header ignored)',
  },
  {
    name: 'LABLD_IDEMPOTENCY_TTL_S',
    default: '86400',
    description: "how long an upload's `Idempotency-Key` answers its retries with the first result",
  },
  {
    name: 'LABLD_LOAD_ROWS_MAX_BYTES',
    default: '64mb',
    description:
      "triple store: most Turtle of the rows (describe's `<base>.ttl`, all sources together) one dataset's Load with rows takes (about 1.8 million triples); more: refused (413), nothing loaded",
  },
  {
    name: 'LABLD_TRIPLESTORE_AUTOLOAD',
    default: 'false',
    description:
      'triple store: `true` loads a dataset by itself each time convert made its joined graph (as pressing Load)',
  },
  {
    name: 'KAFKA_BROKERS',
    default: '127.0.0.1:9092',
    description: 'Kafka bootstrap servers, comma-separated',
  },
  {
    name: 'LABLD_SCHEMA_REGISTRY_URL',
    default: '',
    description:
      'Kafka: a Confluent-compatible schema registry; payloads in its wire format (empty: plain JSON)',
  },
  {
    name: 'LABLD_KAFKA_TOPIC_PREFIX',
    default: '',
    description:
      'Kafka: put in front of every topic, group and subject name (several installations on one cluster)',
  },
  { name: 'LABLD_TOPICS', default: './topics.yaml', description: 'topic catalogue file' },
  {
    name: 'LABLD_LOG_LEVEL',
    default: 'info',
    description: 'log level: fatal, error, warn, info, debug, trace',
  },
  {
    name: 'LABLD_COUNTS',
    default: '',
    description:
      'tests and benches: `on` counts bus messages, thread hand-offs, store calls, validations and parses (lib/process/counters.ts)',
  },
  {
    name: 'LABLD_REQUEST_TIMEOUT_MS',
    default: '60000',
    description: 'how long a gateway waits for a reply before answering 504',
  },
  {
    name: 'LABLD_WORKERS',
    default: '',
    description: 'worker threads running request operations, per process (empty: one per CPU, at least 2)',
  },
  {
    name: 'LABLD_WORKERS_WARM',
    default: '0',
    description:
      "workers kept loaded (all operations); 0: each starts for a request, loading only its group's; up to LABLD_WORKERS",
  },
  {
    name: 'LABLD_WORKER_IDLE_MS',
    default: '60000',
    description: 'a worker beyond LABLD_WORKERS_WARM idle this long is closed',
  },
  {
    name: 'LABLD_WORKER_MEMORY_MB',
    default: '256',
    description: 'heap limit of each worker in MB; a request that needs more is refused with 413',
  },
  {
    name: 'LABLD_SEMI_SPACE_MB',
    default: '4',
    description:
      "largest V8 semi-space (new objects) in MB, of each worker and of `labld start`/`serve`'s main thread; 0: V8's own (32)",
  },
  { name: 'LABLD_BODY_LIMIT', default: '10mb', description: 'largest JSON or form body a gateway accepts' },
  { name: 'LABLD_UPLOAD_LIMIT', default: '1gb', description: 'largest multipart file upload' },
  {
    name: 'LABLD_HEADERS_TIMEOUT_MS',
    default: '20000',
    description: 'time a client has to send the request line and headers (then 408 and closed)',
  },
  {
    name: 'LABLD_BODY_IDLE_TIMEOUT_MS',
    default: '30000',
    description: 'a request body that sends no byte for this long is answered 408 and closed (0: never)',
  },
  {
    name: 'LABLD_FETCH_ALLOW',
    default: '',
    description: 'host names, IPs, CIDRs (optionally `:port`) the guarded fetch may reach although private',
  },
  {
    name: 'LABLD_FETCH_OFFLINE',
    default: 'false',
    description:
      'true: the guarded fetch reaches nothing (an offline install); templates and mappings are read from the catalogue',
  },
  {
    name: 'LABLD_FETCH_TIMEOUT_MS',
    default: '30000',
    description: "guarded fetch: time limit for the upstream, not counting waits for labld's own reader",
  },
  {
    name: 'LABLD_FETCH_CONNECT_TIMEOUT_MS',
    default: '5000',
    description: 'guarded fetch: connection time limit',
  },
  { name: 'LABLD_FETCH_MAX_BYTES', default: '1073741824', description: 'guarded fetch: largest body read' },
  { name: 'LABLD_FETCH_MAX_REDIRECTS', default: '5', description: 'guarded fetch: redirects followed' },
  {
    name: 'LABLD_MAX_OUTPUT_BYTES',
    default: '4gb',
    description:
      'largest output of one request, counted as it streams to the blob store; more: 413, nothing stored',
  },
  {
    name: 'LABLD_MAX_BUFFERED_TRIPLES',
    default: '500000',
    description:
      'largest graph written by a format that needs it whole (json-ld, xml, longturtle); more is a 413',
  },
  {
    name: 'LABLD_MAX_DEPTH',
    default: '500',
    description: 'deepest nesting of JSON bodies and JSON, JSON-LD, XML and YAML documents (see Limits)',
  },
  {
    name: 'LABLD_MAX_COLUMNS',
    default: '16384',
    description: 'most columns in one CSV row (see Limits)',
  },
  {
    name: 'LABLD_DATASTORE_ROWS_MAX',
    default: '32000',
    description:
      "most rows `datastore_search_sql` returns (CKAN's `ckan.datastore.search.rows_max`); more are cut, with `records_truncated`",
  },
  {
    name: 'LABLD_DATASTORE_SQL_TIMEOUT_MS',
    default: '10000',
    description: 'time one `datastore_search_sql` statement may run; then it is stopped and refused (409)',
  },
  {
    name: 'LABLD_BUS_FSYNC',
    default: 'false',
    description: 'embedded bus: fsync every append (survives power loss, not only process crashes)',
  },
  {
    name: 'OPENBIS_URL',
    default: '',
    description:
      'extractor: base URL of the openBIS (≥ 20.10) it reads, e.g. `https://openbis.lab`; empty: its requests are refused naming this variable',
  },
  {
    name: 'LABLD_OPENBIS_SERVICE_ACCOUNT',
    default: '',
    description:
      'extractor: openBIS user for requests without credentials, logged in with ADMIN_PASS; empty (default): no service account',
  },
  {
    name: 'ADMIN_PASS',
    default: '',
    description: 'extractor: password of LABLD_OPENBIS_SERVICE_ACCOUNT (spec name)',
  },
  {
    name: 'LABLD_EXTRACTOR_MAX_RECORDS',
    default: '1000',
    description: 'extractor: most record IRIs one export bundle may select (more: 413)',
  },
  {
    name: 'LABLD_EXTRACTOR_BUNDLE_TIMEOUT_MS',
    default: '3600000',
    description:
      'extractor: time limit of one export bundle, its file downloads included (instead of the 60 s ones)',
  },
  {
    name: 'LABLD_EXTRACTOR_LICENSE',
    default: 'CC-BY-4.0',
    description:
      "extractor: licence of an export bundle's root data set, an SPDX id or an IRI (set it to your lab data's)",
  },
  {
    name: 'CKANINI__CKANEXT__CSVTOCSVW__FORMATS',
    default: 'csv txt asc tsv',
    description:
      'catalogue chain: file extensions (or resource formats) whose upload starts the chain, space- or comma-separated',
  },
  {
    name: 'CKANINI__CKANEXT__DCAT__DATASETS_PER_PAGE',
    default: '100',
    description: 'catalogue: datasets on one page of `/catalog.ttl` (and its other formats), as ckanext-dcat',
  },
  {
    name: 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_GROUP',
    default: 'mappings',
    description:
      'catalogue chain: the group whose datasets hold the mapping library (made at first start if missing)',
  },
  {
    name: 'LABLD_STARTER_MAPPINGS',
    default: 'true',
    description:
      'catalogue: `true` puts a tensile-test mapping and its template (dataset `starter-mappings`) into the library made at first start',
  },
  {
    name: 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_STRATEGY',
    default: 'exact',
    description:
      'catalogue chain: `exact` converts only with a mapping whose every rule applies; `best_match` with the best-rated partial one',
  },
] as const satisfies readonly Setting[];

export type SettingName = (typeof settings)[number]['name'];

/** The value of a setting: the environment's, else the documented default. */
export function setting(name: SettingName, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (value !== undefined && value !== '') return value;
  return settings.find((s) => s.name === name)!.default;
}

export function intSetting(name: SettingName, env: NodeJS.ProcessEnv = process.env): number {
  const raw = setting(name, env);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Sizes such as `10mb`, `1gb` or a plain byte count. */
export function byteSetting(name: SettingName, env: NodeJS.ProcessEnv = process.env): number {
  const raw = setting(name, env).trim().toLowerCase();
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/.exec(raw);
  if (!match) throw new Error(`${name} must be a size like 10mb, got ${JSON.stringify(raw)}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b') as 'b'];
  return Math.floor(Number(match[1]) * unit);
}

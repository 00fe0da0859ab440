// The four services of the spec and the catalogue: names, base paths, versions, and what
// their /info answers. The original services answer /info with their settings object; we
// keep the spec's fields and the original's names beside them (research seed-services D12).
import { setting } from './process/config.ts';

export const SERVICES = ['annotator', 'mapper', 'converter', 'extractor'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface ServiceDescription {
  name: ServiceName;
  /** Name of the original service, kept in /info for old clients. */
  originalName: string;
  title: string;
  version: string;
  description: string;
  basePath: `/${ServiceName}`;
}

export const services: Record<ServiceName, ServiceDescription> = {
  annotator: {
    name: 'annotator',
    originalName: 'CSVtoCSVW',
    title: 'labld CSV annotator',
    version: 'v1.3.5',
    description: 'CSV → W3C CSVW descriptor (JSON-LD); descriptor → RDF',
    basePath: '/annotator',
  },
  mapper: {
    name: 'mapper',
    originalName: 'MaptoMethod',
    title: 'labld mapper',
    version: 'v1.1.5',
    description: 'CSVW descriptor + ontology template → YARRRML mapping',
    basePath: '/mapper',
  },
  converter: {
    name: 'converter',
    originalName: 'RDFConverter',
    title: 'labld converter',
    version: 'v1.3.3',
    description: 'YARRRML/RML execution, mapping checks, translation, SHACL validation',
    basePath: '/converter',
  },
  extractor: {
    name: 'extractor',
    originalName: 'openbismantic',
    title: 'labld extractor',
    version: 'v0.1.0',
    description: 'openBIS lab notebook → linked-data records and RO-Crate bundles',
    basePath: '/extractor',
  },
};

/** The consumer group that serves a service's requests (topics.yaml `groups`). */
export function requestGroupOf(service: ServiceName): string {
  return `${service}-requests`;
}

export function isServiceName(name: string): name is ServiceName {
  return (SERVICES as readonly string[]).includes(name);
}

/** The public URL of labld (no trailing slash). */
export function baseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const configured = setting('BASE_URL', env);
  return (configured || `http://localhost:${setting('PORT', env)}`).replace(/\/+$/, '');
}

/**
 * Without a configured BASE_URL, the default names the port this process really listens on
 * (port 0 binds an ephemeral one; `serve --port` another than PORT). It is written to the
 * environment because request operations run in worker threads that share it (SHARE_ENV).
 * Returns the undo, for a process that stops its server and goes on (tests).
 */
export function defaultBaseUrlFromPort(port: number, env: NodeJS.ProcessEnv = process.env): () => void {
  if (setting('BASE_URL', env) !== '') return () => {};
  const derived = `http://localhost:${port}`;
  env['BASE_URL'] = derived;
  return () => {
    if (env['BASE_URL'] === derived) delete env['BASE_URL'];
  };
}

/** GET <base>/info: the spec's fields first, then the original's names for old clients. */
export function serviceInfo(name: ServiceName, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const s = services[name];
  const mode = setting('APP_MODE', env);
  const server = `${baseUrl(env)}${s.basePath}`;
  const common = {
    version: s.version,
    config_name: mode,
    server,
    openapi_url: `${s.basePath}/api/openapi.json`,
    docs_url: `${s.basePath}/api/docs`,
    desc: s.description,
  };
  switch (name) {
    case 'annotator':
      return { app_name: s.originalName, ...common };
    case 'mapper':
      return { name: s.originalName, contact: setting('LABLD_CONTACT', env), mode, ...common };
    default:
      return { name: s.originalName, ...common };
  }
}

// The gateways of the four services. Each route is declared once here (schema, responses)
// and forwarded to its service's request consumer; the service issues add their routes.
import type { Runtime } from '../app/runtime.ts';
import { services, type ServiceName } from '../lib/services.ts';
import { createGateway, route, type Gateway, type Route } from './kit/index.ts';
import { forwarder, type Forwarder } from './forward.ts';
import { annotatorRoutes } from './annotator.ts';
import { mapperRoutes } from './mapper.ts';
import { converterRoutes } from './converter.ts';
import { extractorRoutes } from './extractor.ts';

/** Each service's own routes, besides /info; each forwards only its own service's operations. */
const routesOf: { [S in ServiceName]: (runtime: Runtime, forward: Forwarder<S>) => Route[] } = {
  annotator: annotatorRoutes,
  mapper: mapperRoutes,
  converter: converterRoutes,
  extractor: extractorRoutes,
};

const infoSchema = { type: 'object', additionalProperties: { type: 'string' } };

export function serviceGateway<S extends ServiceName>(name: S, runtime: Runtime): Gateway {
  const s = services[name];
  const forward = forwarder(runtime, name);
  const routes: (runtime: Runtime, forward: Forwarder<S>) => Route[] = routesOf[name];
  return createGateway({
    service: name,
    title: s.title,
    version: s.version,
    description: s.description,
    basePath: s.basePath,
    routes: [
      ...routes(runtime, forward),
      route({
        method: 'GET',
        path: '/info',
        summary: 'Service name, version and settings',
        tags: ['info'],
        responses: {
          200: { description: 'settings of the service', content: { 'application/json': infoSchema } },
        },
        handler: forward.json('info'),
      }),
    ],
  });
}

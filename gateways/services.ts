// The gateways of the four services. Each route is declared once here (schema, responses)
// and forwarded to its service's request consumer; the service issues add their routes.
import type { Runtime } from '../lib/runtime.ts';
import { services, type ServiceName } from '../lib/services.ts';
import { requestGroupOf } from '../consumers/service-requests.ts';
import { createGateway, route, type Gateway, type Route } from './kit/index.ts';
import { forwarder, type Forwarder } from './forward.ts';
import { annotatorRoutes } from './annotator.ts';
import { mapperRoutes } from './mapper.ts';
import { converterRoutes } from './converter.ts';

/** Each service's own routes, besides /info. */
const routesOf: Partial<Record<ServiceName, (runtime: Runtime, forward: Forwarder) => Route[]>> = {
  annotator: annotatorRoutes,
  mapper: mapperRoutes,
  converter: converterRoutes,
};

const infoSchema = { type: 'object', additionalProperties: { type: 'string' } };

export function serviceGateway(name: ServiceName, runtime: Runtime): Gateway {
  const s = services[name];
  const forward = forwarder(runtime, requestGroupOf(name));
  return createGateway({
    service: name,
    title: s.title,
    version: s.version,
    description: s.description,
    basePath: s.basePath,
    routes: [
      ...(routesOf[name]?.(runtime, forward) ?? []),
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

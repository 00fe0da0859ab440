// The gateway kit: what every service's gateway is built with. Gateways hold no domain logic;
// they declare routes (schemas, responses, a handler that usually asks the bus) and the kit
// parses, validates, answers errors, documents (OpenAPI + explorer), logs and measures.
export { route } from './types.ts';
export type {
  BodySource,
  Handler,
  HttpMethod,
  JSONSchema,
  JsonBodySpec,
  JsonRouteDefinition,
  MultipartBodySpec,
  ResponseSpec,
  Result,
  Route,
  RouteInput,
  UploadRouteDefinition,
  UploadedFile,
} from './types.ts';
export { createGateway, type Gateway, type GatewayOptions } from './gateway.ts';
export {
  createApp,
  createServer,
  type AppOptions,
  type RunningServer,
  type ServerOptions,
} from './server.ts';
export type { ReadinessCheck } from './health.ts';
export { rateLimitFromEnv, tokenAccepted, type RateLimitOptions } from './rate-limit.ts';
export { toErrorAnswer, type ErrorAnswer } from './errors.ts';
export { escapeHtml } from './html.ts';
export { readForm, readText } from './body.ts';
export { clientAddress } from './client-address.ts';

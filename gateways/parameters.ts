// Schemas of the parameters several services' routes share, so that they read alike.
import { RETURN_TYPES } from '../lib/rdf/index.ts';

/** A client URL: fetched later through the guarded fetch. */
export const urlParameter = (description: string) => ({
  type: 'string',
  format: 'uri',
  minLength: 1,
  description,
});

/** `return_type`: one of the RDF serializations. */
export const returnTypeParameter = (fallback: string, description: string) => ({
  type: 'string',
  enum: [...RETURN_TYPES],
  default: fallback,
  description,
});

// JSON Schemas that carry the TypeScript type of the values they accept, so that an operation's
// input type is derived from its schema instead of written a second time. Only the leaves say
// their type by hand (a URL is a string, `return_type` one of RETURN_TYPES); objects, their
// required-ness and the upload-or-URL variants are computed from the schema objects themselves.

declare const accepts: unique symbol;

/** A JSON Schema object whose valid values have the type T (a type-only mark, absent at run time). */
export type Schema<T> = Record<string, unknown> & { readonly [accepts]?: T };

/** The type of the values a schema accepts. */
export type Accepted<S> = S extends { readonly [accepts]?: infer T } ? Exclude<T, undefined> : never;

/** A leaf schema, with the type its values have. */
export const leaf = <T>(schema: Record<string, unknown>): Schema<T> => schema;

type Fields = Record<string, Schema<unknown>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<P extends Fields, R extends keyof P> = Flat<
  { [K in R]: Accepted<P[K]> } & { [K in Exclude<keyof P, R>]?: Accepted<P[K]> }
>;

/** A closed object schema (no field besides `properties`), `required` naming some of them. */
export interface InputSchema<
  P extends Fields = Fields,
  R extends keyof P = keyof P,
  T = ObjectOf<P, R>,
> extends Schema<T> {
  type: 'object';
  additionalProperties: false;
  properties: P;
  required: R[];
}

export function input<P extends Fields, R extends keyof P & string = never>(
  properties: P,
  required: R[] = [],
): InputSchema<P, R> {
  return { type: 'object', additionalProperties: false, properties, required };
}

/**
 * Either an upload (`blob` given: then `withBlob` are required too) or the other form (then
 * `otherwise` are). An if/then/else rather than a oneOf, so that a refusal names the one
 * missing field of the form the message is in.
 */
export function uploadOr<
  P extends Fields & { blob: Schema<string> },
  R extends keyof P & string,
  T,
  B extends keyof P & string,
  O extends keyof P & string,
>(
  schema: InputSchema<P, R, T>,
  withBlob: B[],
  otherwise: O[],
): InputSchema<P, R, T & (ObjectOf<P, 'blob' | B> | ({ blob?: undefined } & ObjectOf<P, O>))> {
  // Only the type-level mark changes: which fields are required depends on the form.
  return Object.assign(schema, {
    if: { required: ['blob'] },
    then: { required: withBlob },
    else: { required: otherwise },
  }) as never;
}

/** The part of an object schema a route reads from one place (query, body, form fields). */
export function part<S extends { properties: Fields; required: string[] }>(
  schema: S,
  names: (keyof S['properties'] & string)[],
  required: string[] = schema.required.filter((name) => (names as string[]).includes(name)),
): Record<string, unknown> {
  const properties = Object.fromEntries(names.map((name) => [name, schema.properties[name]]));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

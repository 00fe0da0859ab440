// JSON values as parsed: the one test for "a JSON object" (not null, not an array).

/** Whether a parsed JSON value is an object (a map of members). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

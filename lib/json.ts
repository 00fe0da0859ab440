// JSON values as parsed: the one test for "a JSON object" (not null, not an array).

/** Whether a parsed JSON value is an object (a map of members). */
export function isObject<T = unknown>(value: unknown): value is Record<string, T> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

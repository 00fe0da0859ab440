// JSON values as parsed: the one test for "a JSON object" (not null, not an array).

/** Whether a parsed JSON value is an object (a map of members). */
export function isObject<T = unknown>(value: unknown): value is Record<string, T> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parsed JSON value as text: the string itself, '' for anything else (an answer's optional member). */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

// Where a rule's entities sit in the descriptor as JSON: MapToMethod walks the document depth
// first, in key order, and takes the first array whose first element is an object with the
// property the rule matches on (`label` for annotations, `name` for columns). The JSONPath of
// that array is the source's iterator, and its key names the source.
import { invalid } from '../process/errors.ts';
import { LimitError, parseJson } from '../limits.ts';
import { isObject } from '../json.ts';

export interface JsonSource {
  /** `annotations`, `columns`, `tables`, or the array's key in lower case. */
  name: string;
  /** JSONPath, e.g. `$.tables[*].tableSchema.columns[*]`. */
  iterator: string;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

const member = (key: string) =>
  PLAIN_KEY.test(key) ? `.${key}` : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;

function sourceName(key: string | undefined, property: string): string {
  if (key === undefined) return `${property}_source`;
  const lower = key.toLowerCase();
  if (lower.includes('note') || lower.includes('annotation')) return 'annotations';
  if (lower.includes('column')) return 'columns';
  if (lower.includes('table')) return 'tables';
  return lower;
}

/** The first array of objects having `property`, or undefined. Iterative: JSON may nest deeply. */
export function findJsonSource(document: unknown, property: string): JsonSource | undefined {
  const stack: { node: unknown; path: string; key: string | undefined }[] = [
    { node: document, path: '$', key: undefined },
  ];
  while (stack.length > 0) {
    const { node, path, key } = stack.pop()!;
    const children: typeof stack = [];
    if (Array.isArray(node)) {
      const first: unknown = node[0];
      if (isObject(first) && Object.hasOwn(first, property)) {
        return { name: sourceName(key, property), iterator: `${path}[*]` };
      }
      for (const element of node) children.push({ node: element, path: `${path}[*]`, key });
    } else if (isObject(node)) {
      for (const [k, value] of Object.entries(node))
        children.push({ node: value, path: `${path}${member(k)}`, key: k });
    }
    // Pushed in reverse so that the first child is looked at first.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

/**
 * The JSON source of each property in the descriptor text (parsed once), each under its own
 * name; a 422 naming `field` when the text is not JSON or a property has no array.
 */
export function jsonSources(
  text: string,
  properties: readonly string[],
  field: string,
): Map<string, JsonSource> {
  let document: unknown;
  try {
    document = parseJson(text, field);
  } catch (error) {
    if (error instanceof LimitError) throw error;
    throw invalid(
      `${field}: the mapping reads the descriptor with JSONPath, so it must be JSON(-LD); this document is not JSON`,
      field,
    );
  }
  const sources = new Map<string, JsonSource>();
  const names = new Set<string>();
  for (const property of properties) {
    const found = findJsonSource(document, property);
    if (!found) {
      throw invalid(
        `${field}: no array of objects with a "${property}" key in the document, so a rule matching on $(${property}) has nothing to iterate`,
        field,
      );
    }
    // Two properties found in arrays of the same name still get two sources.
    const name = names.has(found.name) ? `${found.name}_${property}` : found.name;
    names.add(name);
    sources.set(property, { ...found, name });
  }
  return sources;
}

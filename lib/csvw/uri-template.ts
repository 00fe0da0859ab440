// RFC 6570 URI templates (level 4), as CSVW's aboutUrl, propertyUrl and valueUrl use them.
// Variables hold a string, a list of strings (a cell with a separator) or nothing (null).

export type TemplateValue = string | readonly string[] | null | undefined;

interface Operator {
  first: string;
  separator: string;
  named: boolean;
  ifEmpty: string;
  /** Reserved characters pass unencoded (`+` and `#`). */
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, reserved: boolean): string {
  let out = '';
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) {
      out += char;
    } else if (
      reserved &&
      char === '%' &&
      /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? '') + (chars[i + 2] ?? ''))
    ) {
      out += char; // an existing pct-encoded triplet stays as it is
    } else {
      for (const byte of new TextEncoder().encode(char))
        out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

function expandVariable(
  op: Operator,
  spec: string,
  vars: (name: string) => TemplateValue,
): string | undefined {
  const explode = spec.endsWith('*');
  let name = explode ? spec.slice(0, -1) : spec;
  let prefix: number | undefined;
  const colon = name.indexOf(':');
  if (colon >= 0) {
    prefix = Number(name.slice(colon + 1));
    name = name.slice(0, colon);
  }
  const value = vars(name);
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') {
    const cut = prefix === undefined ? value : [...value].slice(0, prefix).join('');
    const encoded = encode(cut, op.reserved);
    if (!op.named) return encoded;
    return value === '' ? name + op.ifEmpty : `${name}=${encoded}`;
  }
  if (value.length === 0) return undefined;
  if (!explode) {
    const joined = value.map((item) => encode(item, op.reserved)).join(',');
    return op.named ? `${name}=${joined}` : joined;
  }
  return value
    .map((item) => {
      const encoded = encode(item, op.reserved);
      if (!op.named) return encoded;
      return item === '' ? name + op.ifEmpty : `${name}=${encoded}`;
    })
    .join(op.separator);
}

/** Expands `template` with the variables `vars` gives. Malformed expressions stay literal. */
export function expandTemplate(template: string, vars: (name: string) => TemplateValue): string {
  return template.replace(/\{([^{}]*)\}/g, (whole, body: string) => {
    const opChar = /^[+#./;?&]/.test(body) ? (body[0] as string) : '';
    const op = OPERATORS[opChar];
    if (!op) return whole;
    const parts = body
      .slice(opChar.length)
      .split(',')
      .map((spec) => expandVariable(op, spec.trim(), vars))
      .filter((part): part is string => part !== undefined);
    return parts.length === 0 ? '' : op.first + parts.join(op.separator);
  });
}

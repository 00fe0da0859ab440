// Names are a compatibility contract: users' mappings match them character for character.
// makeId reproduces the original's normalisation (research §1.7): umlauts transliterated,
// Python str.title(), then everything but ASCII letters and digits dropped.

const UMLAUTS: Readonly<Record<string, string>> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
};

// Python's "cased" characters: Lowercase, Uppercase or Titlecase letters.
const CASED = /[\p{Lowercase}\p{Uppercase}\p{Lt}]/u;
// Titlecase mappings that differ from uppercase (ligatures and digraphs).
// prettier-ignore
const TITLE: Readonly<Record<string, string>> = {
  ǆ: 'ǅ', ǅ: 'ǅ', Ǆ: 'ǅ', ǉ: 'ǈ', ǈ: 'ǈ', Ǉ: 'ǈ', ǌ: 'ǋ', ǋ: 'ǋ', Ǌ: 'ǋ', ǳ: 'ǲ', ǲ: 'ǲ', Ǳ: 'ǲ', ﬀ: 'Ff',
  ﬁ: 'Fi', ﬂ: 'Fl', ﬃ: 'Ffi', ﬄ: 'Ffl', ﬅ: 'St', ﬆ: 'St', ß: 'Ss',
};

/** Python's str.title(): a cased character after a cased one is lowered, others titled. */
function pyTitle(text: string): string {
  let out = '';
  let previousCased = false;
  for (const c of text) {
    if (CASED.test(c)) {
      out += previousCased ? c.toLowerCase() : (TITLE[c] ?? c.toUpperCase());
      previousCased = true;
    } else {
      out += c;
      previousCased = false;
    }
  }
  return out;
}

/** The original's make_id: the key of every column name and annotation @id. */
export function makeId(text: string): string {
  let replaced = text;
  for (const [from, to] of Object.entries(UMLAUTS)) replaced = replaced.split(from).join(to);
  return pyTitle(replaced).replace(/[^A-Za-z0-9]+/g, '');
}

// urllib.parse.quote(name) with its default safe set ('/' plus unreserved characters).
function pyQuote(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~/-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface CsvNames {
  /** Decoded file name, e.g. `my file.csv`. */
  fileName: string;
  /** The `csv` prefix: the CSV's URL plus `/`, e.g. `https://host/dir/my%20file.csv/`. */
  namespace: string;
  /** Download name of the json-ld descriptor, e.g. `my%20file-metadata.json`. */
  metadataFileName: string;
}

/**
 * Names derived from the CSV's URL (research §1.2). The original cut the URL at the *decoded*
 * file name, so `%20` in the name doubled the namespace (`…/my%20file.csvmy%20file.csv/`);
 * here the namespace is the URL's own directory plus the quoted name.
 */
export function csvNames(csvUrl: string, fallbackName?: string): CsvNames {
  const [beforeFragment = ''] = csvUrl.split('#');
  const [withoutQuery = ''] = beforeFragment.split('?');
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(withoutQuery)?.[0] ?? '';
  let path = withoutQuery.slice(authority.length);
  // A CKAN quirk kept from the original: `/download/upload…` is not part of the name.
  const ckan = path.indexOf('/download/upload');
  if (ckan >= 0) path = path.slice(0, ckan);
  const slash = path.lastIndexOf('/');
  const rawName = path.slice(slash + 1);
  const fileName = safeDecode(rawName) || fallbackName || 'data.csv';
  const quoted = pyQuote(fileName);
  const directory = authority + path.slice(0, slash + 1);
  return { fileName, namespace: `${directory}${quoted}/`, metadataFileName: metadataFileNameFor(fileName) };
}

/** `<quoted name without its last extension>-metadata.json`, the original's download name. */
export function metadataFileNameFor(fileName: string): string {
  const quoted = pyQuote(fileName);
  const stem = quoted.includes('.') ? quoted.slice(0, quoted.lastIndexOf('.')) : quoted;
  return `${stem}-metadata.json`;
}

/** Download file name `<stem>-metadata.<ext>` for a return type, as the original names them. */
export function downloadName(metadataFileName: string, returnType: string): string {
  return fileNameFor(metadataFileName.replace(/\.json$/, ''), returnType);
}

/**
 * `<stem>.<ext>` with the original's extensions: `.json` for json-ld, `.ttl` for turtle and
 * longturtle, else the return type itself (`.xml`, `.n3`, `.nt`, `.trig`, `.hext`).
 */
function fileNameFor(stem: string, returnType: string): string {
  if (returnType === 'json-ld') return `${stem}.json`;
  if (returnType === 'turtle' || returnType === 'longturtle') return `${stem}.ttl`;
  return `${stem}.${returnType}`;
}

/** The original /api/rdf download name: the CSV's file name without its extension, e.g. `example5.ttl`. */
export function rdfDownloadName(csvUrl: string | undefined, returnType: string): string {
  const name = csvUrl ? csvNames(csvUrl).fileName : '';
  const stem = pyQuote(name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name);
  return fileNameFor(stem || 'graph', returnType);
}

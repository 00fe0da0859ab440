// The catalogue's own stylesheet and scripts (never a CDN), served under a URL carrying a hash of
// their bytes so that browsers may keep them for a year: a changed file gets a new URL.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';

const DIRECTORY = join(import.meta.dirname, 'assets');
/** Files of our installed packages served as assets, by the name pages use (never a CDN). */
const PACKAGED: Record<string, string> = {
  'yasgui.min.js': '@zazuko/yasgui/build/yasgui.min.js',
  'yasgui.min.css': '@zazuko/yasgui/build/yasgui.min.css',
  'uPlot.iife.min.js': 'uplot/dist/uPlot.iife.min.js',
  'uPlot.min.css': 'uplot/dist/uPlot.min.css',
};
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  /** `catalogue.css` */
  name: string;
  /** `catalogue.1a2b3c4d5e.css`, the file part of its URL. */
  hashed: string;
  contentType: string;
  bytes: Buffer;
}

export const ASSET_PREFIX = '/assets/';
export const LONG_CACHE = 'public, max-age=31536000, immutable';

function load(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const resolve = createRequire(import.meta.url).resolve;
  const files = [
    ...readdirSync(DIRECTORY)
      .sort()
      .map((name) => [name, join(DIRECTORY, name)]),
    ...Object.entries(PACKAGED).map(([name, module]) => [name, resolve(module)]),
  ];
  for (const [name, path] of files as [string, string][]) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const bytes = readFileSync(path);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
    const ext = extname(name);
    assets.set(name, {
      name,
      hashed: `${name.slice(0, -ext.length)}.${hash}${ext}`,
      contentType: type,
      bytes,
    });
  }
  return assets;
}

const ASSETS = load();
const BY_HASHED = new Map([...ASSETS.values()].map((a) => [a.hashed, a]));

/** The URL of an asset by its plain name; throws for a name that is not there (a programming error). */
export function assetUrl(name: string): string {
  const asset = ASSETS.get(name);
  if (!asset) throw new Error(`no catalogue asset ${name}`);
  return `${ASSET_PREFIX}${asset.hashed}`;
}

/** The asset for the file part of a URL, only under its current hash. */
export function assetByHashedName(hashed: string): Asset | undefined {
  return BY_HASHED.get(hashed);
}

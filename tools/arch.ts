// `npm run arch`: the import graph between labld's rooms (the top-level folders and the
// packages of lib/), checked against the floors written in docs/architecture.md. It fails on
// an import that points up a floor and on a loop between lib/ packages. Every import counts:
// type-only ones, re-exports, dynamic import(), `import('…')` types and module URLs
// (`new URL('./x.ts', import.meta.url)`, how workers and consumers are loaded).
// `node tools/arch.ts [--root DIR]` (DIR defaults to the repository).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface Edge {
  from: string; // a room
  to: string;
  file: string; // the importing file, relative to the root
  target: string; // the imported file, relative to the root
}

export interface Floors {
  /** Rooms top floor first; a room may import its own floor's rooms and the floors below. */
  floors: string[][];
  /** Folders read for imports (the rooms' homes). */
  folders: string[];
}

/** A source file, and a module URL's target. */
const SOURCE = /\.(ts|js|mts|mjs)$/;

/**
 * The room of a file: the longest room named in the floors that holds it (a folder, or a file
 * named without its extension: `app/runtime`), else `lib/<package>` (`lib/<file>` for lib/'s
 * loose files), else its top-level folder.
 */
export function roomOf(file: string, named: readonly string[] = []): string {
  const bare = file.replace(SOURCE, '');
  const holder = named
    .filter((room) => bare === room || file.startsWith(`${room}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (holder) return holder;
  const parts = file.split('/');
  if (parts[0] === 'lib' && parts.length > 1) {
    return parts.length === 2 ? `lib/${parts[1]!.replace(SOURCE, '')}` : `lib/${parts[1]}`;
  }
  return parts[0]!;
}

function sourceFiles(root: string, folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    const rel = relative(root, path).split(sep).join('/');
    if (statSync(path).isDirectory()) out.push(...sourceFiles(root, rel));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The specifiers a file imports, of every kind (static, type-only, dynamic, module URL). */
export function specifiers(text: string, file: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.push(arg.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text);
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'URL'
    ) {
      const [arg, base] = node.arguments ?? [];
      if (
        arg &&
        ts.isStringLiteralLike(arg) &&
        SOURCE.test(arg.text) &&
        base?.getText(source) === 'import.meta.url'
      ) {
        found.push(arg.text);
      }
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) found.push(expr.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every import between files of the folders, as edges between rooms (packages are left out). */
export function importEdges(root: string, folders: readonly string[], named: readonly string[] = []): Edge[] {
  const edges: Edge[] = [];
  for (const file of folders.flatMap((folder) => sourceFiles(root, folder))) {
    for (const spec of specifiers(readFileSync(join(root, file), 'utf8'), file)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), spec))
        .split(sep)
        .join('/');
      if (target.startsWith('..')) continue;
      edges.push({ from: roomOf(file, named), to: roomOf(target, named), file, target });
    }
  }
  return edges;
}

/**
 * The floors of docs/architecture.md: its ```floors block, one floor per line, top floor
 * first, rooms separated by spaces; `#` starts a comment. A room is a top-level folder,
 * `lib/<package>`, or `lib/*` for every lib/ room not named on another floor.
 */
export function readFloors(markdown: string): Floors {
  const block = /```floors\n([\s\S]*?)```/.exec(markdown);
  if (!block) throw new Error('docs/architecture.md has no ```floors block');
  const floors = block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));
  const twice = floors.flat().filter((room, i, all) => all.indexOf(room) !== i);
  if (twice.length > 0) throw new Error(`docs/architecture.md names ${twice.join(', ')} on two floors`);
  const folders = [...new Set(floors.flat().map((room) => room.split('/')[0]!))];
  return { floors, folders };
}

/** The floor number of each room (0 is the ground floor), `lib/*` standing for unnamed lib rooms. */
function floorOf(floors: string[][], room: string): number | undefined {
  const top = floors.length - 1;
  const at = (name: string): number | undefined => {
    const index = floors.findIndex((floor) => floor.includes(name));
    return index < 0 ? undefined : top - index;
  };
  return at(room) ?? (room.startsWith('lib/') ? at('lib/*') : undefined);
}

/** Loops between lib/ rooms: the strongly connected components with more than one room. */
export function libLoops(edges: Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from === to || !from.startsWith('lib/') || !to.startsWith('lib/')) continue;
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(to);
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const connect = (room: string): void => {
    index.set(room, counter);
    low.set(room, counter);
    counter++;
    stack.push(room);
    onStack.add(room);
    for (const to of next.get(room) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) === index.get(room)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== room);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const room of [...next.keys()].sort()) if (!index.has(room)) connect(room);
  return loops;
}

/** What breaks the floors: upward imports, rooms on no floor, loops between lib/ rooms. */
export function problems(edges: Edge[], floors: string[][]): string[] {
  const out: string[] = [];
  const unplaced = new Set<string>();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    const from = floorOf(floors, edge.from);
    const to = floorOf(floors, edge.to);
    if (from === undefined) unplaced.add(edge.from);
    if (to === undefined) unplaced.add(edge.to);
    if (from !== undefined && to !== undefined && to > from) {
      out.push(`upward: ${edge.from} → ${edge.to} (${edge.file} imports ${edge.target})`);
    }
  }
  for (const room of [...unplaced].sort()) out.push(`on no floor: ${room} (add it to docs/architecture.md)`);
  for (const loop of libLoops(edges)) {
    const inside = edges.filter((e) => e.from !== e.to && loop.includes(e.from) && loop.includes(e.to));
    out.push(`loop between lib/ rooms: ${loop.join(', ')}\n${pairLines(inside).join('\n')}`);
  }
  return out;
}

/** One line per pair of rooms: how many imports, and the first importing file. */
function pairLines(edges: readonly Edge[]): string[] {
  const pairs = new Map<string, { n: number; file: string }>();
  for (const e of edges) {
    const key = `${e.from} → ${e.to}`;
    const pair = pairs.get(key) ?? { n: 0, file: e.file };
    pair.n++;
    pairs.set(key, pair);
  }
  return [...pairs].sort(([a], [b]) => a.localeCompare(b)).map(([key, p]) => `  ${key} (${p.n}: ${p.file}…)`);
}

/** The room graph, one line per room: the rooms it imports, with the number of imports. */
export function graphText(edges: Edge[], floors: string[][]): string {
  const counts = new Map<string, Map<string, number>>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    if (!counts.has(from)) counts.set(from, new Map());
    const row = counts.get(from)!;
    row.set(to, (row.get(to) ?? 0) + 1);
  }
  const rooms = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  const order = (room: string): number => floorOf(floors, room) ?? Infinity;
  rooms.sort((a, b) => order(b) - order(a) || a.localeCompare(b));
  return rooms
    .map((room) => {
      const row = [...(counts.get(room) ?? [])].sort(([a], [b]) => order(b) - order(a) || a.localeCompare(b));
      const floor = floorOf(floors, room);
      const targets = row.map(([to, n]) => `${to} (${n})`).join(', ');
      return `[${floor ?? '?'}] ${room} → ${targets || '—'}`;
    })
    .join('\n');
}

function main(args: string[]): number {
  const at = args.indexOf('--root');
  const root = resolve(at >= 0 && args[at + 1] ? args[at + 1]! : join(import.meta.dirname, '..'));
  const { floors, folders } = readFloors(readFileSync(join(root, 'docs/architecture.md'), 'utf8'));
  const edges = importEdges(
    root,
    folders,
    floors.flat().filter((room) => !room.endsWith('*')),
  );
  console.log(graphText(edges, floors));
  const found = problems(edges, floors);
  for (const problem of found) console.log(problem);
  console.log(found.length === 0 ? 'arch: the floors hold' : `arch: ${found.length} problem(s)`);
  return found.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));

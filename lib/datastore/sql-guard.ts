// datastore_search_sql's gate: a statement is run only if node-sql-parser (PostgreSQL's
// grammar, which CKAN's users write) reads it as exactly one SELECT whose every part is on an
// allow-list — expression kinds, functions, and tables that are resource ids. What runs is the
// parser's own rendering of that tree (`sqlify`), never the text sent: comments, a second
// statement or quoting the parser read otherwise than the database would cannot reach the
// database; the characters whose reading differs between the two (`\`, `$`) are refused
// outright. WITH (CTEs) is refused: the stores put the tables' own CTEs in front (sql.ts).
// The database then runs it read-only, with a time limit and a row cap (the clients).
import pkg from 'node-sql-parser/build/postgresql.js';
import { forbidden, invalid } from '../process/errors.ts';

const parser = new pkg.Parser();
const OPTIONS = { database: 'PostgresQL' };

/** Kinds of tree node a query may have (`type` of node-sql-parser's nodes); others are refused. */
const NODE_TYPES = new Set([
  'select',
  'expr',
  'expr_list',
  'column_ref',
  'default',
  'double_quote_string',
  'single_quote_string',
  'number',
  'bool',
  'null',
  'star',
  'unary_expr',
  'binary_expr',
  'case',
  'when',
  'else',
  'cast',
  'function',
  'aggr_func',
  'extract',
  'interval',
  'window',
  // Keywords the parser keeps as a `type`: SELECT DISTINCT, ORDER BY … ASC/DESC.
  'DISTINCT',
  'ASC',
  'DESC',
]);

/**
 * Functions a query may call (lower case): arithmetic, text and aggregates that read only their
 * arguments, none that reads files, settings or other tables, sleeps or has side effects.
 */
export const SQL_FUNCTIONS = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'stddev',
  'stddev_samp',
  'stddev_pop',
  'variance',
  'var_samp',
  'var_pop',
  'string_agg',
  'abs',
  'round',
  'ceil',
  'ceiling',
  'floor',
  'trunc',
  'sqrt',
  'power',
  'exp',
  'ln',
  'log',
  'sign',
  'mod',
  'lower',
  'upper',
  'length',
  'char_length',
  'substr',
  'substring',
  'trim',
  'ltrim',
  'rtrim',
  'replace',
  'concat',
  'coalesce',
  'nullif',
  'greatest',
  'least',
  'date_trunc',
]);

/** Types a value may be cast to (`CAST(x AS t)`, `x::t`): not `regclass` and kin, which look up the catalogue. */
const CAST_TYPES = new Set([
  'TEXT',
  'VARCHAR',
  'CHAR',
  'INT',
  'INTEGER',
  'BIGINT',
  'SMALLINT',
  'INT2',
  'INT4',
  'INT8',
  'NUMERIC',
  'DECIMAL',
  'REAL',
  'FLOAT',
  'FLOAT4',
  'FLOAT8',
  'DOUBLE PRECISION',
  'BOOLEAN',
  'BOOL',
  'DATE',
  'TIMESTAMP',
  'TIME',
  'INTERVAL',
]);

/** A statement admitted: the SQL to run and the resource ids it reads. */
export interface GuardedSelect {
  sql: string;
  resourceIds: string[];
}

const refuse = (reason: string) => invalid(reason, 'sql');

/**
 * The parser backtracks exponentially over a syntax error inside nested parentheses (depth 10:
 * 2 s, 14: 15 s; depth 6: 0.1 s), and over long texts: both are bounded before it is asked.
 */
export const MAX_SQL_LENGTH = 10_000;
export const MAX_NESTING = 6;

/** The deepest nesting of parentheses outside strings, quoted names and comments. */
function nesting(sql: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    const skipTo = (end: string, from: number) => {
      const at = sql.indexOf(end, from);
      return at < 0 ? sql.length : at + end.length - 1;
    };
    if (c === "'" || c === '"')
      i = skipTo(c, i + 1); // a doubled quote is two strings here: same depth
    else if (c === '-' && sql[i + 1] === '-') i = skipTo('\n', i + 2);
    else if (c === '/' && sql[i + 1] === '*') i = skipTo('*/', i + 2);
    else if (c === '(') deepest = Math.max(deepest, ++depth);
    else if (c === ')') depth -= 1;
  }
  return deepest;
}

function functionName(node: Record<string, unknown>): string {
  const name = node.name;
  if (typeof name === 'string') return name.toLowerCase();
  const parts = (name as { name?: { value?: unknown }[]; schema?: unknown } | null)?.name;
  if (!Array.isArray(parts) || parts.length !== 1 || (name as { schema?: unknown }).schema)
    throw forbidden('a function of another schema is not allowed', 'sql');
  return String(parts[0]?.value).toLowerCase();
}

/** Every node of the tree, checked; table references collected into `tables`. */
function check(node: unknown, tables: Set<string>, depth: number): void {
  if (depth > 200) throw refuse('the statement is nested too deeply');
  if (Array.isArray(node)) {
    for (const item of node) check(item, tables, depth + 1);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  const type = record.type;
  if (typeof type === 'string' && !NODE_TYPES.has(type))
    throw refuse(`${type.replaceAll('_', ' ')} is not allowed in datastore_search_sql`);
  if (type === 'select') {
    if (Array.isArray(record.with) && record.with.length > 0) throw refuse('WITH (CTE) is not supported');
    const into = record.into as { position?: unknown; expr?: unknown } | null | undefined;
    if (into && (into.position || into.expr)) throw refuse('SELECT … INTO writes a table: not allowed');
    if (record.locking_read) throw refuse('locking clauses (FOR UPDATE, FOR SHARE) are not allowed');
  }
  if (type === 'cast') {
    const targets = Array.isArray(record.target) ? record.target : [record.target];
    for (const target of targets as { dataType?: unknown }[]) {
      const name = String(target?.dataType).toUpperCase();
      if (!CAST_TYPES.has(name))
        throw forbidden(`a cast to ${name} is not allowed in datastore_search_sql`, 'sql');
    }
    if (targets.length !== 1) throw refuse('one type a cast: CAST(CAST(x AS a) AS b)');
    // Rendered CAST(x AS t): SQLite has no `::`.
    record.symbol = 'as';
    record.keyword = 'CAST';
  }
  if (type === 'function' || type === 'aggr_func') {
    const name = functionName(record);
    if (!SQL_FUNCTIONS.has(name))
      throw forbidden(`the function ${JSON.stringify(name)} is not allowed in datastore_search_sql`, 'sql');
  }
  // A FROM item: `{db, table, as}` (a column reference names its table too, but has a type).
  if (type === undefined && typeof record.table === 'string' && 'db' in record) {
    if (record.db !== null || record.schema)
      throw forbidden('tables of another schema are not readable', 'sql');
    tables.add(record.table);
  }
  for (const [key, value] of Object.entries(record)) {
    // The parser's own notes on a subquery (lists of names), not part of the statement.
    if (key === 'tableList' || key === 'columnList') continue;
    check(value, tables, depth + 1);
  }
}

/** The statement if it is one allowed SELECT; else an error naming the reason (`sql`). */
export function guardSelect(sql: string): GuardedSelect {
  if (sql.length > MAX_SQL_LENGTH) throw refuse(`longer than ${MAX_SQL_LENGTH} characters`);
  if (nesting(sql) > MAX_NESTING) throw refuse(`parentheses nested deeper than ${MAX_NESTING}`);
  // The parser reads `\` in a string as an escape where PostgreSQL reads it as a character,
  // and `$` starts dollar quoting or a parameter there: a text the two read differently could
  // hide a statement from the check, so neither character is admitted anywhere.
  if (/[\\$]/.test(sql))
    throw refuse('a backslash or a dollar sign is not allowed (escapes, dollar quoting, parameters)');
  let ast: unknown;
  try {
    ast = parser.astify(sql, OPTIONS);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw refuse(`not one SELECT statement that labld reads: ${message.slice(0, 300)}`);
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) throw refuse('exactly one statement is allowed');
  const statement = statements[0] as Record<string, unknown>;
  if (statement.type !== 'select')
    throw refuse(`only SELECT is allowed, not ${String(statement.type).toUpperCase()}`);
  const tables = new Set<string>();
  check(statement, tables, 0);
  // The parser's own list too: every table it saw read, none of another schema.
  for (const entry of parser.tableList(sql, OPTIONS)) {
    const [mode, db, table] = entry.split('::');
    if (mode !== 'select' || db !== 'null') throw forbidden(`${entry}: not a table that may be read`, 'sql');
    tables.add(table as string);
  }
  return { sql: parser.sqlify(statement as never, OPTIONS), resourceIds: [...tables] };
}

// Totals of a search kept by the table's version (datastore_tables.version, changed in the
// transaction of every write of its rows, and new for each table made): the preview asks for
// the same filtered total with every page, and counting a filter's rows of a 1M-row table
// again for each page costs more than the page. Any process reading the same version may use
// the total a count gave; a write makes a new version, so no total is read stale.

/** Totals kept, most recently used last; the oldest goes past this many. */
const KEPT = 1000;

export class Totals {
  readonly #kept = new Map<string, number>();

  /** The total for the count's SQL and values on this version of the table: kept, or counted. */
  async of(
    table: string,
    version: string | null,
    sql: string,
    values: readonly unknown[],
    count: () => Promise<number>,
  ): Promise<number> {
    if (version === null) return count(); // a table made before versions: counted each time
    const key = JSON.stringify([table, version, sql, values]);
    const kept = this.#kept.get(key);
    if (kept !== undefined) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const total = await count();
    this.#kept.set(key, total);
    if (this.#kept.size > KEPT) this.#kept.delete(this.#kept.keys().next().value as string);
    return total;
  }
}

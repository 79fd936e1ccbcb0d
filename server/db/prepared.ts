import type { Db } from './client';

/**
 * `make(db)` built once per database (or transaction) object and kept while it lives: the busy
 * queries are prepared statements, built once and, on PostgreSQL, parsed once per connection.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}

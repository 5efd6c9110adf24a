import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from "kysely";

/**
 * SQLite as this app opens it: Kysely's dialect, except that a transaction takes the database's
 * write lock when it begins (`BEGIN IMMEDIATE`) rather than at its first write (`BEGIN`).
 *
 * Why: several processes share the file (two app instances, `npm run worker`, a backup). In WAL
 * mode a deferred transaction that has read and then writes, after another process committed in
 * between cannot wait for anything: its snapshot is stale, so SQLite answers SQLITE_BUSY(_SNAPSHOT)
 * at once, whatever the busy timeout (tests/multi-instance.test.ts: a share revoked on one instance
 * while the other instance and the worker were writing answered 503). Taken at BEGIN, the lock is waited for like any write (the busy timeout),
 * and what the transaction reads cannot change under it. Inside one process nothing changes: its
 * one connection already runs one transaction at a time.
 */
export class ImmediateTransactionSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionSqliteDriver(this.#config);
  }
}

class ImmediateTransactionSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

import { randomUUID } from "node:crypto";
import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/utils";
import type { DatabaseHandle } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";

/**
 * tus's lock on an upload, kept in the database (`upload_locks`) so that it holds across app
 * instances: with STORAGE=s3 any instance may take an upload's next request, and two PATCHes of
 * one upload at two instances must not append at once. tus's own MemoryLocker only sees one process.
 *
 * Semantics as MemoryLocker's: a request waiting for the lock asks the holder to let go (the
 * holder's tus request then ends, as a stale request after a dropped connection should), and gives
 * up with ERR_LOCK_TIMEOUT when its request is aborted or after `acquireTimeoutMs`. A lock is a
 * lease the holder renews every `checkIntervalMs`, looking for such requests at the same time, so
 * an instance that dies holding one frees it after `leaseMs`.
 */
export interface DatabaseLockerOptions {
  getDb: () => DatabaseHandle;
  leaseMs?: number;
  checkIntervalMs?: number;
  acquireTimeoutMs?: number;
}

// A lease of a few checks: after a crash, an upload resumes within seconds of the restart.
const DEFAULTS = { leaseMs: 5000, checkIntervalMs: 1000, acquireTimeoutMs: 30_000 };
/** How often a waiting request tries again: a release takes the holder one check to notice. */
const RETRY_MS = 100;

export class DatabaseLocker implements Locker {
  private readonly options: Required<DatabaseLockerOptions>;

  constructor(options: DatabaseLockerOptions) {
    this.options = { ...DEFAULTS, ...options };
  }

  newLock(id: string): Lock {
    return new DatabaseLock(id, this.options);
  }
}

const isoAfter = (milliseconds: number) => new Date(Date.now() + milliseconds).toISOString();

class DatabaseLock implements Lock {
  /** Who holds it: this lock object, i.e. one request on one instance. */
  private readonly holder = randomUUID();
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly uploadId: string,
    private readonly options: Required<DatabaseLockerOptions>,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.options.acquireTimeoutMs;
    while (!(await this.tryAcquire())) {
      await this.askHolderToRelease();
      if (stopSignal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    this.keepUntilUnlocked(requestRelease);
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    this.renewal = undefined;
    await this.options.getDb().deleteFrom("upload_locks").where("upload_id", "=", this.uploadId).where("holder", "=", this.holder).execute();
  }

  /** Takes the lock when nobody holds it or the holder's lease has run out. */
  private async tryAcquire(): Promise<boolean> {
    const db = this.options.getDb();
    const lease = { holder: this.holder, expires_at: isoAfter(this.options.leaseMs), release_requested: 0 };
    const inserted = await db
      .insertInto("upload_locks")
      .values({ upload_id: this.uploadId, ...lease })
      .onConflict((conflict) => conflict.column("upload_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const takenOver = await db
      .updateTable("upload_locks")
      .set(lease)
      .where("upload_id", "=", this.uploadId)
      .where("expires_at", "<", new Date().toISOString())
      .executeTakeFirst();
    return Number(takenOver.numUpdatedRows) === 1;
  }

  private async askHolderToRelease(): Promise<void> {
    await this.options.getDb().updateTable("upload_locks").set({ release_requested: 1 }).where("upload_id", "=", this.uploadId).execute();
  }

  /**
   * Renews the lease until unlock, and passes a waiting request's ask on to tus once. A lease that
   * could not be renewed for half its length (the database unreachable or too slow) ends the
   * request too, while the lease still stands: no other request can take the lock and append while
   * this one still does.
   */
  private keepUntilUnlocked(requestRelease: RequestRelease): void {
    const warn = (error: unknown, message: string) => getLogger().warn({ err: error, uploadId: this.uploadId }, message);
    let hasPassedOnRelease = false;
    const release = () => {
      // Unlocked meanwhile: the request is over, nothing to end.
      if (hasPassedOnRelease || this.renewal === undefined) return;
      hasPassedOnRelease = true;
      Promise.resolve(requestRelease()).catch((error: unknown) => warn(error, "could not end the request holding an upload's lock"));
    };
    // When the newest renewal that succeeded was sent: the lease runs from then.
    let renewedAt = Date.now();
    this.renewal = setInterval(() => {
      if (Date.now() - renewedAt >= this.options.leaseMs / 2) return release();
      const sentAt = Date.now();
      this.renew().then(
        (isReleaseRequested) => {
          renewedAt = Math.max(renewedAt, sentAt);
          if (isReleaseRequested) release();
        },
        (error: unknown) => warn(error, "could not renew an upload's lock"),
      );
    }, this.options.checkIntervalMs);
    // A request still running holds the process open anyway; a forgotten lock must not.
    this.renewal.unref();
  }

  /** Extends the lease; answers whether another request waits for the lock. */
  private async renew(): Promise<boolean> {
    const row = await this.options
      .getDb()
      .updateTable("upload_locks")
      .set({ expires_at: isoAfter(this.options.leaseMs) })
      .where("upload_id", "=", this.uploadId)
      .where("holder", "=", this.holder)
      .returning("release_requested")
      .executeTakeFirst();
    // No row: the lease ran out and another request took the lock; let this one go too.
    return row === undefined || row.release_requested === 1;
  }
}

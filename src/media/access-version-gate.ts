/**
 * Lets an in-memory cache of public media stay exactly as fresh as the database, across app
 * instances: before the cache answers, the version of "what may be served publicly" is read from
 * the database (`media_access_version`), and if it moved since the last read, the whole cache is
 * dropped (`onChange`) and the request goes to the route, which checks the photo itself.
 *
 * One read serves many requests, but only requests that arrived before it started: a request that
 * arrives while a read is under way waits for the next one. So every request is checked against
 * the database as it was at some moment after the request arrived, and a photo made private on
 * any instance is refused by every instance from the next request on, while a busy server still
 * reads the version about once per round trip rather than once per request.
 */
export class AccessVersionGate {
  private lastSeenVersion: number | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  /**
   * @param readVersion reads the version from the database.
   * @param onChange drops the cache; called when a read finds the version moved (and on the first read).
   * @param readVersionNow the same read done synchronously, where the database allows it (SQLite):
   *   then every request reads the version itself, at once, and nothing waits or is shared.
   */
  constructor(
    private readonly readVersion: () => Promise<number>,
    private readonly onChange: () => void,
    private readonly readVersionNow?: () => number,
  ) {}

  /**
   * Confirms the version synchronously when the database allows it: true once done (the cache was
   * dropped if it moved), false when only `confirm()` can (PostgreSQL). Throws when the read fails.
   */
  confirmNow(): boolean {
    if (!this.readVersionNow) return false;
    this.see(this.readVersionNow());
    return true;
  }

  /** Resolves once a read that started after this call has confirmed the version (or rejects with its error). */
  confirm(): Promise<void> {
    if (this.readVersionNow) {
      try {
        this.confirmNow();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  private start(): Promise<void> {
    const read = this.readVersion()
      .then((version) => this.see(version))
      .finally(() => {
        if (this.running === read) this.running = null;
      });
    this.running = read;
    return read;
  }

  private see(version: number): void {
    if (version === this.lastSeenVersion) return;
    this.onChange();
    this.lastSeenVersion = version;
  }
}

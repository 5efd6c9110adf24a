/** A backup or restore refused or failed for a reason the operator reads in one sentence. */
export class BackupError extends Error {
  override name = "BackupError";
}

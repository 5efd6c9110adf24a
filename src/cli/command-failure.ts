/**
 * A failure a command explains in one sentence (the database is not reachable, the token lacks a
 * scope): printed without a stack trace, and the process exits with `exitCode`.
 */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CommandFailure";
  }
}

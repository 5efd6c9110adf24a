import "server-only";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import type { Viewer } from "@/src/access/viewer";
import { findCurrentViewer } from "@/src/auth/current-user";
import { AppError } from "@/src/errors/app-error";
import { getLogger } from "@/src/log/logger";
import { runActionWithOrigin } from "./request-origin";
import { isServerActionOriginAllowed } from "./server-action-origin";

/**
 * The one cursor every load-more action takes: base64url as the services write it
 * (`encodeKeysetCursor`), bounded once for all of them by the longest any list writes (an album's,
 * whose API takes 600). What the cursor encodes is the service's to judge.
 */
export const actionCursorSchema = z.string().regex(/^[A-Za-z0-9_-]{1,600}$/);

/** A photo's or album's id as the pages link to it: URL-safe, so a NUL never reaches PostgreSQL. */
export const actionRowIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);

export interface ServerActionDefinition<Input extends z.ZodTuple, Answer> {
  /**
   * The arguments, as a tuple (which refuses missing and extra ones). Bound every string and array;
   * describe objects with `z.strictObject` so unknown fields are refused.
   */
  input: Input;
  /** What a call that cannot be answered gets: bad arguments, a foreign origin, an error. */
  emptyAnswer: Answer;
  /** The action's work, for this viewer (resolved once, here): call one service. */
  run: (input: z.infer<Input>, viewer: Viewer) => Promise<Answer>;
}

// The actions made by defineServerAction, so the inventory test can tell one that bypassed it.
const definedActions = new WeakSet<object>();

/**
 * A server action: a public POST endpoint whatever its TypeScript signature says, so whoever calls
 * it chooses its arguments. Next.js turns anything an action throws into a 500 with an error log,
 * so nothing leaves here thrown: the caller gets the action's own empty answer (for a load-more,
 * "no more") when the origin is not ours, the arguments do not fit, or the service refuses
 * (`AppError`); anything unexpected is logged once and answered the same way. Next.js's own
 * interrupts (`redirect`, `notFound`, `forbidden`) still pass.
 *
 * Export the result from a `"use server"` module: `export const loadMore = defineServerAction({…})`.
 * The interceptor has already refused a foreign origin (403) and an undecodable body (400);
 * both are checked again here, where the action runs.
 */
export function defineServerAction<Input extends z.ZodTuple, Answer>(definition: ServerActionDefinition<Input, Answer>): (...args: unknown[]) => Promise<Answer> {
  const action = async (...args: unknown[]): Promise<Answer> => {
    try {
      if (!isServerActionOriginAllowed(await headers())) return definition.emptyAnswer;
      const parsed = definition.input.safeParse(args);
      if (!parsed.success) return definition.emptyAnswer;
      const viewer = await findCurrentViewer();
      return await runActionWithOrigin(() => definition.run(parsed.data, viewer));
    } catch (error) {
      unstable_rethrow(error);
      // A refusal of the service (a cursor it cannot read, a row this viewer may not see) is the
      // caller's doing and expected; only a failure on our side is worth a log line.
      if (!(error instanceof AppError) || error.status >= 500) getLogger().error({ err: error }, "unhandled error in server action");
      return definition.emptyAnswer;
    }
  };
  definedActions.add(action);
  return action;
}

/** Whether this export was made by defineServerAction (for the inventory test). */
export function isDefinedServerAction(value: unknown): boolean {
  return typeof value === "function" && definedActions.has(value);
}

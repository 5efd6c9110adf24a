import type { z } from "zod";

/**
 * A server action's arguments, checked like an API body. An action is a public POST endpoint:
 * whoever calls it chooses its arguments (any number, of any type the reply format carries),
 * whatever its TypeScript signature says. Declare the action as `(...args: unknown[])`, describe
 * the arguments with a Zod tuple (which refuses extra ones too), and answer null with an empty
 * answer: Next.js turns any error thrown from an action into a 500.
 * Answers the parsed arguments, or null when they do not fit.
 */
export function parseActionArguments<Schema extends z.ZodTuple>(schema: Schema, args: unknown[]): z.infer<Schema> | null {
  const result = schema.safeParse(args);
  return result.success ? result.data : null;
}

import type { z } from "zod";
import { errorMessageOfText, parseAnswerText } from "@/src/ui/api-client";
import { finishedUploadResponseSchema } from "../uploads-api.schemas";

/** What the tus endpoint answers when an upload finishes (see src/uploads/tus-server.ts): its contract's type. */
export type FinishedUpload = z.output<typeof finishedUploadResponseSchema>["photo"];

/** Reads `{ photo }` from the finishing response's text (Uppy hands it over as text), or null when it is not there. */
export function readFinishedUpload(responseText: string | undefined): FinishedUpload | null {
  return parseAnswerText(responseText, finishedUploadResponseSchema)?.photo ?? null;
}

/** Reads the message of our JSON error shape from a refusal's text, or null when it is not there. */
export function readRefusalMessage(responseText: string | undefined): string | null {
  return errorMessageOfText(responseText);
}

/**
 * Whether an upload's error status is the server's last word on the file: a 4xx refusal (not a
 * photo, too large, over quota) would be refused again, so offering a retry would only mislead.
 * Timeouts, conflicts, locks and rate limits are worth another try, as is every 5xx (disk full,
 * store down) and a dropped connection (no status).
 */
export function isFinalRefusal(status: number | undefined): boolean {
  if (status === undefined || status < 400 || status >= 500) return false;
  return ![408, 409, 423, 429].includes(status);
}

/** A quoted file name at the start of a refusal, as the upload API names the file it refuses. */
const LEADING_FILE_NAME = /^"(?:[^"\\]|\\.)*"(: | is )/;

/**
 * The reason alone, for a list that already shows the file's name beside it: the API's message
 * starts with the name (`"x.jpg": The image could not be decoded…`, `"x.jpg" is not a photo…`)
 * because one request may carry many files.
 */
export function refusalWithoutFileName(message: string): string {
  const match = LEADING_FILE_NAME.exec(message);
  if (!match) return message;
  const rest = message.slice(match[0].length);
  return match[1] === " is " ? `${rest.charAt(0).toUpperCase()}${rest.slice(1)}` : rest;
}

// The browser's one reader of our JSON APIs. An answer's type comes from the route's contract (the
// Zod response schema a route declares in src/<domain>/*.schemas.ts, the same one the OpenAPI
// document publishes), never from a copy written in a component, and the answer is checked before
// a page trusts it:
// - admin pages pass the contract's schema: `callApi(path, init, userListResponseSchema)`;
// - public pages (the header's search box, a share link's pages) keep zod (~50 KB) out of their
//   bundle: they take the contract's type with `import type` (erased at build) and check the
//   answer's outline with `answerShape`.
// src/ui/client-contracts.test.ts fails on a client file that reads or casts an answer by itself.
// Client-safe: no imports.

/** What checks one answer: a contract's Zod schema (its `parse`) or an `answerShape`. */
export interface AnswerReader<Answer> {
  parse(value: unknown): Answer;
}

/** A refused request, or an answer that is not what the contract says: the status and the words to show. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

const UNEXPECTED_ANSWER = "The server's answer was not what this page expects. Reload the page and try again.";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * For public pages: checks the answer's outline (an object, and what `hasShape` asks of it) and
 * gives it the contract's type. Deeper fields are trusted as the contract types them; the
 * integration tests check every real answer against the published schemas.
 */
export function answerShape<Answer>(hasShape: (answer: Record<string, unknown>) => boolean): AnswerReader<Answer> {
  return {
    parse(value) {
      if (!isRecord(value) || !hasShape(value)) throw new TypeError("The answer does not have the contract's shape.");
      return value as Answer;
    },
  };
}

/** The message of our JSON error shape (`{ error: { message } }`), or null for any other body. */
export function errorMessageOf(body: unknown): string | null {
  const error = isRecord(body) ? body.error : undefined;
  return isRecord(error) && typeof error.message === "string" ? error.message : null;
}

/** Reads the message out of our JSON error shape, with a fallback for anything else. */
export async function readErrorMessage(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null);
  return errorMessageOf(body) ?? `The request failed (${response.status}).`;
}

/**
 * An answer's body, checked by its contract: throws ApiRequestError with the server's words when
 * the request was refused, and with UNEXPECTED_ANSWER when the body is not what the contract says.
 */
export async function readAnswer<Answer>(response: Response, answer: AnswerReader<Answer>): Promise<Answer> {
  if (!response.ok) throw new ApiRequestError(response.status, await readErrorMessage(response));
  const body: unknown = await response.json().catch(() => undefined);
  return checkAnswer(response.status, body, answer);
}

/** The same for an answer that arrived as text (tus's finishing PATCH, read by Uppy): null when it is not JSON. */
export function parseAnswerText<Answer>(text: string | undefined, answer: AnswerReader<Answer>): Answer | null {
  try {
    return answer.parse(JSON.parse(text ?? ""));
  } catch {
    return null;
  }
}

/** The message of our JSON error shape in a refusal that arrived as text, or null. */
export function errorMessageOfText(text: string | undefined): string | null {
  try {
    return errorMessageOf(JSON.parse(text ?? ""));
  } catch {
    return null;
  }
}

function checkAnswer<Answer>(status: number, body: unknown, answer: AnswerReader<Answer>): Answer {
  try {
    return answer.parse(body);
  } catch {
    throw new ApiRequestError(status, UNEXPECTED_ANSWER);
  }
}

export interface ApiRequestInit {
  method: string;
  body?: unknown;
  signal?: AbortSignal;
}

async function send(path: string, init: ApiRequestInit): Promise<Response> {
  return fetch(path, {
    method: init.method,
    credentials: "same-origin",
    headers: init.body === undefined ? undefined : { "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
}

/** Calls one of our JSON APIs and checks its answer by the route's contract; throws ApiRequestError when refused. */
export function callApi<Answer>(path: string, init: ApiRequestInit, answer: AnswerReader<Answer>): Promise<Answer>;
/** Calls one of our JSON APIs whose answer the caller does not read; throws ApiRequestError when refused. */
export function callApi(path: string, init: ApiRequestInit): Promise<void>;
export async function callApi<Answer>(path: string, init: ApiRequestInit, answer?: AnswerReader<Answer>): Promise<Answer | void> {
  const response = await send(path, init);
  if (!answer) {
    // Nobody reads this answer: only whether it was refused matters.
    if (!response.ok) throw new ApiRequestError(response.status, await readErrorMessage(response));
    return undefined;
  }
  return readAnswer(response, answer);
}

/** Reads the message out of our JSON error shape, with a fallback for anything else. */
export async function readErrorMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    const message = (body as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not JSON: fall through to the status line.
  }
  return `The request failed (${response.status}).`;
}

/** Calls one of our JSON APIs; throws an Error with the server's message when it refuses. */
export async function callApi<T>(path: string, init: { method: string; body?: unknown }): Promise<T> {
  const response = await fetch(path, {
    method: init.method,
    headers: init.body === undefined ? undefined : { "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(await readErrorMessage(response));
  return (response.status === 204 ? undefined : await response.json()) as T;
}

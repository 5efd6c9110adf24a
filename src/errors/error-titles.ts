/** The error page titles, word for word as the original request gives them. */
const TITLES_BY_STATUS: Record<number, string> = {
  400: "Bad Request",
  404: "This page could not be found",
  405: "Method Not Allowed",
  500: "Internal Server Error",
};

export const UNEXPECTED_ERROR_TITLE = "An unexpected error has occurred";
export const CLIENT_EXCEPTION_TITLE = "Application error: a client-side exception has occurred";

export function getErrorTitle(status: number): string {
  return TITLES_BY_STATUS[status] ?? UNEXPECTED_ERROR_TITLE;
}

import type { NextRequest } from "next/server";
import { AppError } from "@/src/errors/app-error";
import { findUnstorableText } from "@/src/validation/input-text";
import type { HandlerContract, ParsedInput, RawRouteParams } from "./handler-contract";
import { parseJsonBody } from "./request-body";

/**
 * Refuses a path or query that carries text no database can store (a NUL, a lone surrogate), for
 * every route at once, before any schema or service sees it: on PostgreSQL such a value reaching a
 * query is a 500 (SECURITY.md 58).
 */
function assertStorableParamsAndQuery(rawParams: RawRouteParams, searchParams: URLSearchParams): void {
  if (findUnstorableText(rawParams) !== undefined || findUnstorableText([...searchParams]) !== undefined) {
    throw new AppError("BAD_REQUEST", "The address holds a NUL character or text that is not valid UTF-8.");
  }
}

/**
 * Parses what the contract declares, in the order a reader expects: the path, the query, then the
 * body. Zod failures throw ZodError (422 through toErrorResponse); body reading keeps
 * parseJsonBody's answers (400 not JSON or not storable text, 413 too large). Nothing declared,
 * nothing read: a handler that reads its own body (multipart, tus) still gets an untouched stream.
 */
export async function parseHandlerInput<Contract extends HandlerContract>(
  request: NextRequest,
  rawParams: RawRouteParams,
  contract: Contract,
): Promise<ParsedInput<Contract>> {
  assertStorableParamsAndQuery(rawParams, request.nextUrl.searchParams);
  const params = contract.params ? contract.params.parse(rawParams) : rawParams;
  const query = contract.query ? contract.query.parse(Object.fromEntries(request.nextUrl.searchParams)) : undefined;
  const body = contract.body ? await parseJsonBody(request, contract.body) : undefined;
  return { params, query, body } as ParsedInput<Contract>;
}

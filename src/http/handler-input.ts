import type { NextRequest } from "next/server";
import type { HandlerContract, ParsedInput, RawRouteParams } from "./handler-contract";
import { parseJsonBody } from "./request-body";

/**
 * Parses what the contract declares, in the order a reader expects: the path, the query, then the
 * body. Zod failures throw ZodError (422 through toErrorResponse); body reading keeps
 * parseJsonBody's answers (400 not JSON, 413 too large). Nothing declared, nothing read: a
 * handler that reads its own body (multipart, tus) still gets an untouched stream.
 */
export async function parseHandlerInput<Contract extends HandlerContract>(
  request: NextRequest,
  rawParams: RawRouteParams,
  contract: Contract,
): Promise<ParsedInput<Contract>> {
  const params = contract.params ? contract.params.parse(rawParams) : rawParams;
  const query = contract.query ? contract.query.parse(Object.fromEntries(request.nextUrl.searchParams)) : undefined;
  const body = contract.body ? await parseJsonBody(request, contract.body) : undefined;
  return { params, query, body } as ParsedInput<Contract>;
}

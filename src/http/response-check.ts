import { getEnv } from "@/src/config/env";
import { getLogger } from "@/src/log/logger";
import type { HandlerContract } from "./handler-contract";

/**
 * In development only (`next dev`), warns when a handler's JSON success answer does not match the
 * response schema it documents, so the API reference is corrected while the change is fresh.
 * Production never pays for it: the answer is not cloned or parsed there. (The integration tests
 * check real answers against the published document, strictly, on every run.)
 */
export async function warnWhenAnswerIsUndocumented(method: string, contract: HandlerContract, response: Response): Promise<void> {
  if (getEnv().NODE_ENV !== "development") return;
  const { schema, status } = contract.response;
  if (!schema || response.status !== status || !response.headers.get("content-type")?.includes("json")) return;
  const result = schema.safeParse(await response.clone().json());
  if (!result.success) {
    getLogger().warn({ method, summary: contract.summary, issues: result.error.issues }, "answer does not match its documented response schema");
  }
}

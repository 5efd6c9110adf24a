import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { HandlerContract } from "./handler-contract";

const environment = vi.hoisted(() => ({ NODE_ENV: "development" }));
const warn = vi.hoisted(() => vi.fn());
vi.mock("@/src/config/env", () => ({ getEnv: () => environment }));
vi.mock("@/src/log/logger", () => ({ getLogger: () => ({ warn }) }));

const { warnWhenAnswerIsUndocumented } = await import("./response-check");

const contract: HandlerContract = {
  summary: "One thing",
  response: { status: 200, description: "The thing.", schema: z.object({ thing: z.object({ id: z.string() }) }) },
};

describe("warnWhenAnswerIsUndocumented", () => {
  beforeEach(() => {
    warn.mockClear();
    environment.NODE_ENV = "development";
  });

  it("warns in development when the answer does not match, and leaves the answer readable", async () => {
    const response = Response.json({ thing: { id: 42 } });
    await warnWhenAnswerIsUndocumented("GET", contract, response);
    expect(warn).toHaveBeenCalledOnce();
    expect(await response.json()).toEqual({ thing: { id: 42 } });
  });

  it("is quiet for a matching answer, another status, and in production", async () => {
    await warnWhenAnswerIsUndocumented("GET", contract, Response.json({ thing: { id: "a" } }));
    await warnWhenAnswerIsUndocumented("GET", contract, Response.json({ error: {} }, { status: 404 }));
    environment.NODE_ENV = "production";
    await warnWhenAnswerIsUndocumented("GET", contract, Response.json({ thing: null }));
    expect(warn).not.toHaveBeenCalled();
  });
});

import { describe, expect, it } from "vitest";
import { answerKind, judgeAnswers } from "./answer-kinds";

const answer = (status: number, hasRetryAfter = false) => ({ status, hasRetryAfter });

describe("bench:load's rule for 5xx", () => {
  it("tells a shed 503 (with Retry-After) from a 503 without it, a 500 and nginx's 502 and 504", () => {
    expect(answerKind(answer(503, true))).toBe("503 shed");
    expect(answerKind(answer(503))).toBe("other 5xx");
    expect(answerKind(answer(500, true))).toBe("500");
    expect(answerKind(answer(502))).toBe("other 5xx");
    expect(answerKind(answer(504))).toBe("other 5xx");
    expect(answerKind(answer(507))).toBe("507");
    expect(answerKind(answer(429, true))).toBe("answered");
    expect(answerKind(answer(0))).toBe("network");
  });

  it("fails a 500 and other 5xx anywhere, and under plain load counts shed 503s apart, as capacity", () => {
    const judgement = judgeAnswers("48", [answer(200), answer(503, true), answer(503, true), answer(500), answer(502), answer(503)], { kind: "load" });
    expect(judgement.shed).toBe(2);
    expect(judgement.failures).toEqual([expect.stringContaining("48: 1 answers were 500"), expect.stringContaining("48: 2 answers were 5xx other than 500")]);
    expect(judgeAnswers("48", [answer(200), answer(503, true)], { kind: "load" })).toEqual({ failures: [], shed: 1 });
  });

  it("takes a shed 503 while a fault lasts as the designed answer, and 507 only while the disk is full", () => {
    expect(judgeAnswers("S3 unreachable", [answer(503, true), answer(503, true)], { kind: "fault", disk: false })).toEqual({ failures: [], shed: 0 });
    expect(judgeAnswers("disk full", [answer(507), answer(503, true)], { kind: "fault", disk: true })).toEqual({ failures: [], shed: 0 });
    expect(judgeAnswers("S3 unreachable", [answer(507)], { kind: "fault", disk: false }).failures).toHaveLength(1);
    expect(judgeAnswers("48", [answer(507)], { kind: "load" }).failures).toHaveLength(1);
  });
});

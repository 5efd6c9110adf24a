import { beforeEach, describe, expect, it, vi } from "vitest";

const logged = vi.hoisted(() => ({ errors: [] as Array<{ details: unknown; message: string }> }));

vi.mock("@/src/log/logger", () => ({
  getLogger: () => ({
    error: (details: unknown, message: string) => logged.errors.push({ details, message }),
  }),
}));

const { hashPassword, verifyPassword } = await import("./password");

describe("verifyPassword", () => {
  beforeEach(() => {
    logged.errors.length = 0;
  });

  it("answers true for the right password and false for a wrong one, logging nothing", async () => {
    const stored = await hashPassword("the-right-password");
    expect(await verifyPassword(stored, "the-right-password")).toBe(true);
    expect(await verifyPassword(stored, "a-wrong-password")).toBe(false);
    expect(await verifyPassword(null, "anything-at-all")).toBe(false);
    expect(logged.errors).toEqual([]);
  });

  it.each(["not-a-hash", "$argon2id$v=19$m=19456,t=2,p=1$broken", "$2b$10$abcdefghijklmnopqrstuv"])(
    "answers false for a corrupt stored hash %j, and logs it without the hash",
    async (corrupt) => {
      expect(await verifyPassword(corrupt, "some-password")).toBe(false);
      expect(logged.errors).toHaveLength(1);
      expect(JSON.stringify(logged.errors[0])).not.toContain(corrupt);
      expect(JSON.stringify(logged.errors[0])).not.toContain("some-password");
    },
  );
});

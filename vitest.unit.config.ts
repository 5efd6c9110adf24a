import { defineConfig } from "vitest/config";
import { sharedResolve } from "./vitest.shared";

// Unit tests: pure code, next to it (src/**/*.test.ts), and the plain-Node scripts' own (scripts/*.test.mjs).
export default defineConfig({
  resolve: sharedResolve,
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/*.test.mjs"],
    environment: "node",
  },
});

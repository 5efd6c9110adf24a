import { defineConfig } from "vitest/config";
import { sharedResolve } from "./vitest.shared";

// Unit tests: pure code, next to it (src/**/*.test.ts), the plain-Node scripts' own (scripts/*.test.mjs)
// and the benchmarks' pure parts (scripts/bench/**/*.test.ts: what bench:load counts as a failure).
export default defineConfig({
  resolve: sharedResolve,
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/*.test.mjs", "scripts/bench/**/*.test.ts"],
    environment: "node",
  },
});

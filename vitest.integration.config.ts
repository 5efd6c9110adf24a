import { defineConfig } from "vitest/config";
import { sharedResolve } from "./vitest.shared";

// Integration tests: the built app over HTTP against a freshly migrated database (tests/**).
// One run per database; scripts/test-integration.mjs picks them.
export default defineConfig({
  resolve: sharedResolve,
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/setup/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files share one server; running them one at a time keeps the 2-core machine predictable.
    fileParallelism: false,
  },
});

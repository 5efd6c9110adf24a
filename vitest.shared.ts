import path from "node:path";

/** Module resolution shared by the unit and integration configs: `@/` paths, and no server-only guard. */
export const sharedResolve = {
  alias: {
    "@": path.resolve(import.meta.dirname),
    "server-only": path.resolve(import.meta.dirname, "tests/setup/server-only-stub.ts"),
  },
};

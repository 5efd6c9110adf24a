import pino from "pino";
import { getEnv } from "@/src/config/env";

const globalState = globalThis as typeof globalThis & { __contactSheetLogger?: pino.Logger };

/** The process-wide structured logger (JSON lines on stdout). */
export function getLogger(): pino.Logger {
  globalState.__contactSheetLogger ??= pino({
    level: getEnv().LOG_LEVEL,
    base: { service: "contact-sheet" },
    redact: { paths: ["password", "*.password", "csrfToken", "*.csrfToken"], censor: "[redacted]" },
  });
  return globalState.__contactSheetLogger;
}

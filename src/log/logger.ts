import pino from "pino";
import { getEnv } from "@/src/config/env";
import { chooseLogFormat, prettyTransport } from "./log-destination";

const globalState = globalThis as typeof globalThis & { __contactSheetLogger?: pino.Logger };

/**
 * The process-wide structured logger: JSON lines on stdout, or readable coloured lines when stdout
 * is a terminal (LOG_FORMAT=json|pretty overrides).
 */
export function getLogger(): pino.Logger {
  if (!globalState.__contactSheetLogger) {
    const env = getEnv();
    const format = chooseLogFormat(env.LOG_FORMAT, Boolean(process.stdout.isTTY));
    globalState.__contactSheetLogger = pino({
      level: env.LOG_LEVEL,
      base: { service: "contact-sheet" },
      redact: { paths: ["password", "*.password", "csrfToken", "*.csrfToken"], censor: "[redacted]" },
      ...(format === "pretty" ? { transport: prettyTransport() } : {}),
    });
  }
  return globalState.__contactSheetLogger;
}

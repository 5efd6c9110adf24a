import pino from "pino";
import { getEnv } from "@/src/config/env";
import { chooseLogFormat, prettyTransport } from "./log-destination";
import { processSingleton } from "@/src/config/process-singleton";

/**
 * The process-wide structured logger: JSON lines on stdout, or readable coloured lines when stdout
 * is a terminal (LOG_FORMAT=json|pretty overrides).
 */
export function getLogger(): pino.Logger {
  return processSingleton("logger", () => {
    const env = getEnv();
    const format = chooseLogFormat(env.LOG_FORMAT, Boolean(process.stdout.isTTY));
    return pino({
      level: env.LOG_LEVEL,
      base: { service: "contact-sheet" },
      redact: { paths: ["password", "*.password", "csrfToken", "*.csrfToken"], censor: "[redacted]" },
      ...(format === "pretty" ? { transport: prettyTransport() } : {}),
    });
  });
}

import path from "node:path";
import { z } from "zod";

/**
 * The only reader of `process.env`. Parsed once with Zod; an empty string counts as unset, so
 * `FOO=` in a shell or an `.env` file behaves like a missing variable.
 */

const emptyAsUnset = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUnset, z.string().optional());
const booleanFlag = z.preprocess(
  emptyAsUnset,
  z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((value) => value === "true" || value === "1"),
);

const MINIMUM_SECRET_LENGTH = 32;
const unfinishedUploadsMessage = "MAX_UNFINISHED_UPLOADS must be a whole number of at least 1.";

const environmentSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyAsUnset, z.enum(["development", "production", "test"]).default("production")),
    NEXTAUTH_SECRET: z.preprocess(
      emptyAsUnset,
      z
        .string({
          error:
            "NEXTAUTH_SECRET is not set. Set it to a random string of at least 32 characters " +
            "(for example the output of `openssl rand -base64 32`); `npm start` makes one for you under ./data.",
        })
        .min(
          MINIMUM_SECRET_LENGTH,
          `NEXTAUTH_SECRET is too short. Set it to a random string of at least ${MINIMUM_SECRET_LENGTH} characters ` +
            "(for example the output of `openssl rand -base64 32`).",
        ),
    ),
    NEXTAUTH_URL: z.preprocess(emptyAsUnset, z.url().default("http://localhost:3000")),
    DATA_DIR: z.preprocess(emptyAsUnset, z.string().default("./data")),
    DATABASE_URL: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .refine((value) => /^postgres(ql)?:\/\//.test(value), "DATABASE_URL must start with postgres:// (leave it unset for SQLite)")
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
    LOG_LEVEL: z.preprocess(emptyAsUnset, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
    // Unset: readable lines in a terminal, JSON lines otherwise (src/log/logger.ts).
    LOG_FORMAT: z.preprocess(emptyAsUnset, z.enum(["json", "pretty"]).optional()),
    ADMIN_EMAIL: optionalString,
    ADMIN_PASSWORD: optionalString,
    ADMIN_NAME: optionalString,
    GITHUB_ID: optionalString,
    GITHUB_SECRET: optionalString,
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    OIDC_ISSUER: z.preprocess(emptyAsUnset, z.url().optional()),
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_NAME: z.preprocess(emptyAsUnset, z.string().default("Single sign-on")),
    /** When true, a first OAuth sign-in with an unknown e-mail creates a viewer account. */
    OAUTH_ALLOW_SIGNUP: booleanFlag,
    EMAIL_SERVER: optionalString,
    ANALYTICS_SCRIPT_URL: z.preprocess(emptyAsUnset, z.url().optional()),
    // Receives the URLs of public variants that stopped being public, so a CDN can drop them.
    CDN_PURGE_URL: z.preprocess(emptyAsUnset, z.url().optional()),
    /** Trust the left-most X-Forwarded-For entry (only behind a reverse proxy that sets it). */
    TRUST_PROXY: booleanFlag,
    SIGNIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
    SIGNIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(20),
    /**
     * Failed sign-ins for one account from all addresses together, per window. Far above the
     * per-(account, address) limit: reaching it takes at least this / SIGNIN_MAX_FAILURES_PER_ACCOUNT
     * addresses (20 by default), so one attacker cannot lock an owner out, and a botnet still gets
     * no more than this many guesses per window (9,600 a day by default).
     */
    SIGNIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: z.coerce.number().int().positive().default(100),
    SIGNIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(15 * 60),
    STORAGE: z.preprocess(emptyAsUnset, z.enum(["local", "s3"]).default("local")),
    S3_ENDPOINT: z.preprocess(emptyAsUnset, z.url().optional()),
    S3_REGION: z.preprocess(emptyAsUnset, z.string().default("us-east-1")),
    S3_BUCKET: z.preprocess(emptyAsUnset, z.string().default("contact-sheet")),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(200 * 1024 * 1024),
    MAX_UPLOAD_FILES: z.coerce.number().int().positive().default(50),
    /** Bytes of originals each user may store; 0 means no quota. */
    UPLOAD_QUOTA_BYTES: z.coerce.number().int().min(0).default(0),
    /**
     * Resumable uploads a user may have started and not finished. The uploader sends 3 at a time,
     * so 20 leaves room for several interrupted sessions and a script, while one user can reserve
     * at most 20 x MAX_UPLOAD_BYTES (4 GB by default) of the disk before finishing anything.
     */
    MAX_UNFINISHED_UPLOADS: z.preprocess(
      emptyAsUnset,
      z.coerce
        .number({ error: unfinishedUploadsMessage })
        .int(unfinishedUploadsMessage)
        .positive(unfinishedUploadsMessage)
        .default(20),
    ),
    MAX_IMAGE_PIXELS: z.coerce.number().int().positive().default(120_000_000),
    PROCESSING_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(120),
    /** The system's ffmpeg and ffprobe (Debian's `ffmpeg` package); a name is looked up on PATH. Without them videos are refused. */
    FFMPEG_PATH: z.preprocess(emptyAsUnset, z.string().default("ffmpeg")),
    FFPROBE_PATH: z.preprocess(emptyAsUnset, z.string().default("ffprobe")),
    /** Time limit for one ffmpeg run on a video (probe, poster, playable copy); killed when it is spent. */
    VIDEO_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(900),
    /** Longest video accepted, in seconds (the probe refuses longer ones with 422). */
    VIDEO_MAX_DURATION_SECONDS: z.coerce.number().int().positive().default(3 * 60 * 60),
    /** An H.264/AAC MP4 above this bitrate (bits per second) is transcoded for the browser rather than only stripped of its metadata. */
    VIDEO_PLAYABLE_MAX_BITRATE: z.coerce.number().int().positive().default(20_000_000),
    // LibRaw's decoder for RAW files without a large enough embedded preview (Debian's libraw-bin).
    DCRAW_EMU_PATH: z.preprocess(emptyAsUnset, z.string().default("dcraw_emu")),
    /** Run the processing worker inside the web server (off when `npm run worker` processes do it). */
    RUN_WORKER: z.preprocess(emptyAsUnset, z.enum(["true", "false"]).default("true").transform((value) => value === "true")),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** How long a claimed job stays a worker's without a sign of life; then another worker runs it again. */
    JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
    /** pg_dump and pg_restore for `contact-sheet backup` and `restore` on PostgreSQL (Debian: postgresql-client). */
    PG_DUMP_PATH: z.preprocess(emptyAsUnset, z.string().default("pg_dump")),
    PG_RESTORE_PATH: z.preprocess(emptyAsUnset, z.string().default("pg_restore")),
    /** Scheduled backups: the directory they go to (unset: none are made), how often, how many are kept. */
    BACKUP_DIR: optionalString,
    BACKUP_EVERY_HOURS: z.coerce.number().int().min(1).max(24 * 31).default(24),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    /**
     * The bearer token Prometheus sends to GET /metrics; unset, /metrics answers 404 (metrics off).
     * At least 16 characters, so it cannot be guessed by trying.
     */
    METRICS_TOKEN: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .min(16, "METRICS_TOKEN is too short: use at least 16 random characters (for example `openssl rand -hex 16`).")
        .max(200, "METRICS_TOKEN is too long: use at most 200 characters.")
        .regex(/^[A-Za-z0-9\-._~+/]+=*$/, "METRICS_TOKEN may hold only letters, digits and - . _ ~ + / (a Bearer token's characters).")
        .optional(),
    ),
    /**
     * On SIGTERM, how long requests in flight and running jobs get to finish before the process
     * exits anyway (jobs still running are handed back to the queue for another worker).
     */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
    /** How long a session may go unused before it expires. */
    SESSION_IDLE_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 60 * 60),
    /** How long a session may live at most, however active, before the user signs in again. */
    SESSION_ABSOLUTE_SECONDS: z.coerce.number().int().positive().default(30 * 24 * 60 * 60),
  })
  .superRefine((value, context) => {
    if (value.EMAIL_SERVER) {
      context.addIssue({
        code: "custom",
        path: ["EMAIL_SERVER"],
        message:
          "EMAIL_SERVER is set, but next-auth's e-mail provider needs a database adapter and Contact Sheet " +
          "uses JWT sessions without one. Unset EMAIL_SERVER; users sign in with a password or an OAuth provider.",
      });
    }
    if (Boolean(value.ADMIN_EMAIL) !== Boolean(value.ADMIN_PASSWORD)) {
      context.addIssue({
        code: "custom",
        path: ["ADMIN_PASSWORD"],
        message: "Set both ADMIN_EMAIL and ADMIN_PASSWORD to create the first admin, or neither.",
      });
    }
    const pairs: Array<[string, string | undefined, string | undefined]> = [
      ["GITHUB_ID / GITHUB_SECRET", value.GITHUB_ID, value.GITHUB_SECRET],
      ["GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET", value.GOOGLE_CLIENT_ID, value.GOOGLE_CLIENT_SECRET],
      ["OIDC_CLIENT_ID / OIDC_CLIENT_SECRET", value.OIDC_CLIENT_ID, value.OIDC_CLIENT_SECRET],
    ];
    for (const [names, id, secret] of pairs) {
      if (Boolean(id) !== Boolean(secret)) {
        context.addIssue({ code: "custom", path: [names], message: `Set both ${names}, or neither.` });
      }
    }
    if (value.STORAGE === "s3" && (!value.S3_ENDPOINT || !value.S3_ACCESS_KEY_ID || !value.S3_SECRET_ACCESS_KEY)) {
      context.addIssue({
        code: "custom",
        path: ["STORAGE"],
        message: "STORAGE=s3 needs S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_BUCKET, S3_REGION if not the defaults).",
      });
    }
    if (value.OIDC_CLIENT_ID && !value.OIDC_ISSUER) {
      context.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "OIDC_CLIENT_ID is set: set OIDC_ISSUER too." });
    }
  });

export type Environment = z.infer<typeof environmentSchema> & { dataDirectory: string };

/** Thrown when the environment cannot run the app; the message names the variables to fix. */
export class EnvironmentError extends Error {
  override name = "EnvironmentError";
}

let cachedEnvironment: Environment | undefined;

export function parseEnvironment(source: Record<string, string | undefined>): Environment {
  const result = environmentSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `- ${issue.message}`);
    throw new EnvironmentError(`Contact Sheet cannot start:\n${lines.join("\n")}`);
  }
  return { ...result.data, dataDirectory: path.resolve(result.data.DATA_DIR) };
}

/** The parsed environment; throws an EnvironmentError naming what to set. */
export function getEnv(): Environment {
  if (!cachedEnvironment) {
    cachedEnvironment = parseEnvironment(process.env);
    // next-auth reads NEXTAUTH_URL itself; give it the same default we use.
    process.env.NEXTAUTH_URL ??= cachedEnvironment.NEXTAUTH_URL;
  }
  return cachedEnvironment;
}

import "server-only";
import type { AuthOptions, User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";
import { findOAuthUserId, resolveOAuthSignIn } from "@/src/users/oauth-sign-in.service";
import { normalizeEmail } from "@/src/users/normalize-email";
import { findUserById } from "@/src/users/users.repository";
import { authenticateWithPassword } from "@/src/users/users.service";
import { buildOAuthProviders, isProviderEmailVerified } from "./oauth-providers";
import { toSafeRedirect } from "./safe-redirect";
import { readSessionClaims, type SessionClaims } from "./session-claims";
import { resolveSessionUser, revokeSessionClaims } from "./session-user";
import { processSingleton } from "@/src/config/process-singleton";

export const SIGN_IN_PAGE = "/signin";
export const AUTH_ERROR_PAGE = "/auth/error";

/** next-auth's code for "signing in did not finish", used when our own code fails mid-sign-in. */
const SIGN_IN_FAILURE_CODE = "Callback";

const credentialsSchema = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
});

/** Errors next-auth logs on every refused session; they are expected, not faults. */
const EXPECTED_AUTH_ERRORS = new Set(["JWT_SESSION_ERROR", "CLIENT_FETCH_ERROR"]);

function buildAuthOptions(): AuthOptions {
  const env = getEnv();
  const logger = getLogger().child({ module: "next-auth" });
  return {
    secret: env.NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: env.SESSION_IDLE_SECONDS },
    pages: { signIn: SIGN_IN_PAGE, error: AUTH_ERROR_PAGE },
    theme: { colorScheme: "light", brandColor: "#1f2937" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const parsed = credentialsSchema.safeParse(credentials);
          if (!parsed.success) return null;
          try {
            const email = normalizeEmail(parsed.data.email);
            const user = await authenticateWithPassword(getDb(), email, parsed.data.password);
            await auditPasswordSignIn(user?.id ?? null, email);
            return user ? { id: user.id, email: user.email, name: user.name } : null;
          } catch (error) {
            // next-auth would put the message of a thrown error into the redirect URL.
            logger.error({ err: error }, "password sign-in failed");
            throw new Error(SIGN_IN_FAILURE_CODE);
          }
        },
      }),
      ...buildOAuthProviders(env),
    ],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (!account || account.type !== "oauth") return true;
        try {
          const result = await resolveOAuthSignIn(getDb(), {
            provider: account.provider,
            providerAccountId: account.providerAccountId,
            email: user.email ?? null,
            isEmailVerified: isProviderEmailVerified(account.provider, profile),
            name: user.name ?? null,
          });
          if ("refusal" in result) {
            logger.info({ provider: account.provider, refusal: result.refusal }, "OAuth sign-in refused");
            return `${AUTH_ERROR_PAGE}?error=${result.refusal}`;
          }
          return true;
        } catch (error) {
          // A thrown error's message would end up in the redirect URL; log it and answer a known code.
          logger.error({ err: error, provider: account.provider }, "OAuth sign-in failed");
          return `${AUTH_ERROR_PAGE}?error=${SIGN_IN_FAILURE_CODE}`;
        }
      },
      async jwt({ token, user, account }) {
        if (account && user) return issueSessionClaims(user, account.type === "oauth" ? account : null);
        // Every later read of the session re-checks the user, so /api/auth/session answers {} and
        // clears the cookie for a deleted, disabled or signed-out-everywhere user.
        const claims = readSessionClaims(token);
        if (!claims) throw new Error("Not a session token");
        const result = await resolveSessionUser(claims);
        if ("refusal" in result) throw new Error(`Session refused: ${result.refusal}`);
        return { ...token, name: result.user.name, email: result.user.email, role: result.user.role };
      },
      async session({ session, token }) {
        const claims = readSessionClaims(token);
        if (!claims) return { expires: session.expires };
        return {
          expires: session.expires,
          user: { id: claims.sub, name: token.name ?? null, email: token.email ?? null, role: claims.role },
        };
      },
      async redirect({ url, baseUrl }) {
        return toSafeRedirect(url, baseUrl);
      },
    },
    events: {
      async signIn({ user, account }) {
        logger.info({ userId: user.id, provider: account?.provider }, "signed in");
        if (account?.type === "oauth") {
          const userId = (await findOAuthUserId(getDb(), account.provider, account.providerAccountId)) ?? null;
          const details = { after: { method: account.provider } };
          await insertAuditEntry(getDb(), { actorId: userId, action: "auth.sign-in", targetId: userId, targetType: "user", details }, new Date().toISOString());
        }
      },
      // next-auth only clears the cookie; revoking the session id makes a copied token useless too.
      async signOut({ token }) {
        const claims = readSessionClaims(token);
        if (claims) await revokeSessionClaims(claims);
      },
    },
    logger: {
      error(code, metadata) {
        if (EXPECTED_AUTH_ERRORS.has(code)) logger.info({ code }, "session refused");
        else logger.error({ code, metadata }, "next-auth error");
      },
      warn(code) {
        logger.warn({ code }, "next-auth warning");
      },
      debug(code) {
        logger.debug({ code }, "next-auth debug");
      },
    },
  };
}

/**
 * One audit row per password sign-in, with the request's address and user agent: who signed in, or
 * the e-mail that was tried (never the password). Rate-limited attempts are recorded by the route.
 */
async function auditPasswordSignIn(userId: string | null, email: string): Promise<void> {
  const entry = userId
    ? { actorId: userId, action: "auth.sign-in", targetId: userId, details: { after: { method: "password" } } }
    : { actorId: null, action: "auth.sign-in-failure", targetId: null, targetType: "user", details: { after: { method: "password", email } } };
  await insertAuditEntry(getDb(), entry, new Date().toISOString());
}

async function issueSessionClaims(
  user: User,
  oauthAccount: { provider: string; providerAccountId: string } | null,
): Promise<JWT & SessionClaims> {
  const userId = oauthAccount ? await findOAuthUserId(getDb(), oauthAccount.provider, oauthAccount.providerAccountId) : user.id;
  const row = userId ? await findUserById(getDb(), userId) : undefined;
  if (!row) throw new Error("Signed-in user not found");
  return {
    kind: "session",
    sub: row.id,
    sessionId: crypto.randomUUID(),
    name: row.name,
    email: row.email,
    role: row.role,
    sessionVersion: row.session_version,
    authTime: Math.floor(Date.now() / 1000),
  };
}

export function getAuthOptions(): AuthOptions {
  return processSingleton("auth-options", buildAuthOptions);
}

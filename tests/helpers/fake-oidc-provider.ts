import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { exportJWK, generateKeyPair, type JWK, type KeyLike, SignJWT, UnsecuredJWT } from "jose";

/**
 * A tiny but real OpenID Connect provider for integration tests, on 127.0.0.1 and a free port:
 * discovery, authorize (no login screen: it answers at once with the profile the test chose),
 * token (client authentication, single-use codes bound to their redirect_uri, PKCE S256), userinfo
 * and jwks. ID tokens are RS256-signed with a key pair made at start. Every request is recorded.
 */

/** The claims the provider answers for the next sign-ins, as a real provider would after a login. */
export interface FakeOidcProfile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** Ways the next ID token can be wrong, to check that the app verifies it. */
export type IdTokenFault = "foreign-key" | "wrong-audience" | "wrong-issuer" | "expired" | "unsigned";

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  /** The url-encoded form of a POST, parsed. */
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface FakeOidcProvider {
  /** The issuer URL, for OIDC_ISSUER; also the `iss` of every ID token. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  /** Every request received so far, oldest first. */
  readonly requests: RecordedRequest[];
  /** The profile that the next authorize requests sign in as (until changed). */
  setProfile(profile: FakeOidcProfile): void;
  /**
   * Makes the next authorize request answer the redirect_uri with `error` (as when the user
   * clicks "Cancel" at the provider) instead of a code. Once only.
   */
  failNextAuthorization(error: string, description?: string): void;
  /** Makes the next token response carry an ID token with this fault. Once only. */
  breakNextIdToken(fault: IdTokenFault): void;
  /** The recorded requests to one path ("/token", "/authorize", ...). */
  requestsTo(path: string): RecordedRequest[];
  stop(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  scope: string;
  profile: FakeOidcProfile;
}

const KEY_ID = "fake-oidc-key-1";
const CODE_LIFETIME_MS = 60_000;

function base64url(buffer: Buffer): string {
  return buffer.toString("base64url");
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The client's credentials from client_secret_basic (RFC 6749 §2.3.1: each part form-url-encoded
 * before base64) or client_secret_post.
 */
function readClientCredentials(request: http.IncomingMessage, form: Record<string, string>): { id: string; secret: string } | null {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith("Basic ")) {
    const decoded = Buffer.from(authorization.slice("Basic ".length), "base64").toString("utf8");
    const separator = decoded.indexOf(":");
    if (separator < 0) return null;
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { id: decode(decoded.slice(0, separator)), secret: decode(decoded.slice(separator + 1)) };
  }
  if (form.client_id && form.client_secret) return { id: form.client_id, secret: form.client_secret };
  return null;
}

export async function startFakeOidcProvider(options: { clientId: string; clientSecret: string }): Promise<FakeOidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: "RS256", use: "sig" };
  const requests: RecordedRequest[] = [];
  const codes = new Map<string, PendingCode & { expiresAt: number }>();
  const accessTokens = new Map<string, FakeOidcProfile>();
  let profile: FakeOidcProfile | null = null;
  let nextAuthorizationError: { error: string; description?: string } | null = null;
  let nextIdTokenFault: IdTokenFault | null = null;
  let issuer = "";

  async function signIdToken(pending: PendingCode): Promise<string> {
    const fault = nextIdTokenFault;
    nextIdTokenFault = null;
    const claims: Record<string, unknown> = { ...pending.profile };
    if (pending.nonce !== undefined) claims.nonce = pending.nonce;
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = fault === "expired" ? now - 7200 : now;
    const audience = fault === "wrong-audience" ? "another-client" : pending.clientId;
    const tokenIssuer = fault === "wrong-issuer" ? "http://issuer.invalid" : issuer;
    if (fault === "unsigned") {
      return new UnsecuredJWT(claims).setIssuer(tokenIssuer).setAudience(audience).setSubject(pending.profile.sub).setIssuedAt(issuedAt).setExpirationTime(issuedAt + 300).encode();
    }
    // A key the provider never published, under the published key's id.
    const key: KeyLike = fault === "foreign-key" ? (await generateKeyPair("RS256")).privateKey : privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: KEY_ID, typ: "JWT" })
      .setIssuer(tokenIssuer)
      .setAudience(audience)
      .setSubject(pending.profile.sub)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 300)
      .sign(key);
  }

  function handleAuthorize(url: URL, response: http.ServerResponse): void {
    const query = url.searchParams;
    const redirectUri = query.get("redirect_uri");
    // Without a known client and a redirect_uri there is nobody safe to redirect to.
    if (query.get("client_id") !== options.clientId || !redirectUri) {
      sendJson(response, 400, { error: "invalid_request", error_description: "Unknown client_id or no redirect_uri." });
      return;
    }
    const target = new URL(redirectUri);
    const state = query.get("state");
    const answer = (params: Record<string, string>) => {
      for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
      if (state !== null) target.searchParams.set("state", state);
      response.writeHead(302, { Location: target.toString(), "Cache-Control": "no-store" });
      response.end();
    };
    if (nextAuthorizationError) {
      const { error, description } = nextAuthorizationError;
      nextAuthorizationError = null;
      answer({ error, ...(description ? { error_description: description } : {}) });
      return;
    }
    if (query.get("response_type") !== "code") return answer({ error: "unsupported_response_type" });
    const codeChallenge = query.get("code_challenge");
    if (!codeChallenge || query.get("code_challenge_method") !== "S256") {
      return answer({ error: "invalid_request", error_description: "PKCE with S256 is required." });
    }
    if (!profile) return answer({ error: "login_required", error_description: "The test chose no profile." });
    const code = base64url(randomBytes(24));
    codes.set(code, {
      clientId: options.clientId,
      redirectUri,
      codeChallenge,
      nonce: query.get("nonce") ?? undefined,
      scope: query.get("scope") ?? "openid",
      profile: { ...profile },
      expiresAt: Date.now() + CODE_LIFETIME_MS,
    });
    answer({ code });
  }

  async function handleToken(request: http.IncomingMessage, form: Record<string, string>, response: http.ServerResponse): Promise<void> {
    const credentials = readClientCredentials(request, form);
    if (!credentials || credentials.id !== options.clientId || !safeEqual(credentials.secret, options.clientSecret)) {
      sendJson(response, 401, { error: "invalid_client" }, { "WWW-Authenticate": 'Basic realm="fake-oidc"' });
      return;
    }
    if (form.grant_type !== "authorization_code") {
      sendJson(response, 400, { error: "unsupported_grant_type" });
      return;
    }
    const pending = form.code ? codes.get(form.code) : undefined;
    // A code is good for one exchange only, whatever the outcome.
    if (form.code) codes.delete(form.code);
    if (!pending || pending.expiresAt < Date.now() || pending.clientId !== credentials.id || pending.redirectUri !== form.redirect_uri) {
      sendJson(response, 400, { error: "invalid_grant", error_description: "Unknown, used or expired code, or another redirect_uri." });
      return;
    }
    const verifier = form.code_verifier ?? "";
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || base64url(createHash("sha256").update(verifier).digest()) !== pending.codeChallenge) {
      sendJson(response, 400, { error: "invalid_grant", error_description: "The PKCE code_verifier does not match the code_challenge." });
      return;
    }
    const accessToken = base64url(randomBytes(24));
    accessTokens.set(accessToken, pending.profile);
    sendJson(response, 200, {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 300,
      scope: pending.scope,
      id_token: await signIdToken(pending),
    });
  }

  function handleUserinfo(request: http.IncomingMessage, response: http.ServerResponse): void {
    const authorization = request.headers.authorization ?? "";
    const claims = authorization.startsWith("Bearer ") ? accessTokens.get(authorization.slice("Bearer ".length)) : undefined;
    if (!claims) {
      sendJson(response, 401, { error: "invalid_token" }, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
      return;
    }
    sendJson(response, 200, claims);
  }

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", issuer);
      const body = request.method === "POST" ? await readBody(request) : "";
      const form = request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")
        ? Object.fromEntries(new URLSearchParams(body))
        : {};
      requests.push({ method: request.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), form, headers: request.headers });
      const route = `${request.method} ${url.pathname}`;
      switch (route) {
        case "GET /.well-known/openid-configuration":
          return sendJson(response, 200, {
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            userinfo_endpoint: `${issuer}/userinfo`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ["code"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
            scopes_supported: ["openid", "email", "profile"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
            code_challenge_methods_supported: ["S256"],
            grant_types_supported: ["authorization_code"],
            claims_supported: ["sub", "iss", "aud", "exp", "iat", "nonce", "email", "email_verified", "name"],
          });
        case "GET /authorize":
          return handleAuthorize(url, response);
        case "POST /token":
          return await handleToken(request, form, response);
        case "GET /userinfo":
        case "POST /userinfo":
          return handleUserinfo(request, response);
        case "GET /jwks":
          return sendJson(response, 200, { keys: [publicJwk] });
        default:
          return sendJson(response, 404, { error: "not_found" });
      }
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: "server_error", error_description: String(error) });
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("The fake OIDC provider has no address");
  issuer = `http://127.0.0.1:${address.port}`;

  return {
    issuer,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    authorizationEndpoint: `${issuer}/authorize`,
    tokenEndpoint: `${issuer}/token`,
    requests,
    setProfile(next) {
      profile = { ...next };
    },
    failNextAuthorization(error, description) {
      nextAuthorizationError = { error, description };
    },
    breakNextIdToken(fault) {
      nextIdTokenFault = fault;
    },
    requestsTo(path) {
      return requests.filter((request) => request.path === path);
    },
    stop() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

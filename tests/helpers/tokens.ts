import { SignJWT } from "jose";
import { encode } from "next-auth/jwt";
import { TEST_SECRET } from "../setup/global-setup";

export interface ForgedClaims {
  kind?: string;
  sub: string;
  sessionId?: string;
  role: string;
  sessionVersion: number;
  authTime?: number;
  [claim: string]: unknown;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A session token sealed exactly as next-auth seals one (JWE, key derived from the secret). */
export function sealToken(claims: ForgedClaims, options: { secret?: string; maxAgeSeconds?: number } = {}): Promise<string> {
  return encode({
    token: { kind: "session", sessionId: crypto.randomUUID(), authTime: nowSeconds(), ...claims },
    secret: options.secret ?? TEST_SECRET,
    maxAge: options.maxAgeSeconds ?? 3600,
  });
}

/** The same claims signed (HS256 with the real secret) but not encrypted. */
export function signWithoutEncryption(claims: ForgedClaims): Promise<string> {
  return new SignJWT({ kind: "session", sessionId: crypto.randomUUID(), authTime: nowSeconds(), ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(TEST_SECRET));
}

/** An unsecured JWT (`alg: none`). */
export function unsignedToken(claims: ForgedClaims): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ kind: "session", authTime: nowSeconds(), exp: nowSeconds() + 3600, ...claims })}.`;
}

/** One character changed in the middle of the token (still valid base64url). */
export function flipOneCharacter(token: string): string {
  const index = Math.floor(token.length / 2);
  const replacement = token[index] === "A" ? "B" : "A";
  return token.slice(0, index) + replacement + token.slice(index + 1);
}

/** What next-auth seals into its OAuth state and PKCE cookies: same key, other purpose. */
export function sealOtherPurposeValue(): Promise<string> {
  return encode({ token: { value: "a-pkce-code-verifier-value" }, secret: TEST_SECRET, maxAge: 900 });
}

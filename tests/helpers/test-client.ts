import { inject } from "vitest";
import type { Role } from "@/src/access/roles";
import { TEST_ADMIN } from "../setup/global-setup";

type Body =
  | { json: unknown }
  | { form: Record<string, string> }
  | { multipart: FormData }
  | { raw: string | Uint8Array<ArrayBuffer>; contentType?: string };

export interface RequestOptions {
  method?: string;
  body?: Body;
  headers?: Record<string, string>;
  /** The Origin header to send with a write; a browser sends its own origin. null sends none. */
  origin?: string | null;
}

// Test files run in parallel worker processes against one server: each process starts at a random
// point of 10.0.0.0/8, so two processes' clients do not share an address (their pids often did).
let addressCounter = Math.floor(Math.random() * 2 ** 24);

/** A fresh client address per test client, so one test's rate limits and audit rows never reach another's. */
function nextAddress(): string {
  addressCounter = (addressCounter + 1) % 2 ** 24;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

/** A browser-like client: keeps cookies, sends its origin on writes, never follows redirects. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string = inject("baseUrl"),
    readonly address: string = nextAddress(),
  ) {}

  async request(path: string, options: RequestOptions = {}): Promise<Response> {
    const method = options.method ?? (options.body ? "POST" : "GET");
    const headers: Record<string, string> = { "X-Forwarded-For": this.address, ...options.headers };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const origin = options.origin === undefined ? this.baseUrl : options.origin;
    if (method !== "GET" && method !== "HEAD" && origin !== null) headers.Origin = origin;
    let body: string | Uint8Array<ArrayBuffer> | FormData | undefined;
    if (options.body && "json" in options.body) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.body.json);
    } else if (options.body && "form" in options.body) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.body.form).toString();
    } else if (options.body && "multipart" in options.body) {
      body = options.body.multipart;
    } else if (options.body) {
      if (options.body.contentType) headers["Content-Type"] = options.body.contentType;
      body = options.body.raw;
    }
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: "manual" });
    this.storeCookies(response);
    return response;
  }

  private storeCookies(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const isExpired = attributes.some((attribute) => {
        const [key, attributeValue] = attribute.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(attributeValue) <= 0;
        if (key.toLowerCase() === "expires") return new Date(attributeValue).getTime() < Date.now();
        return false;
      });
      if (isExpired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async getCsrfToken(): Promise<string> {
    const response = await this.request("/api/auth/csrf");
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /** Signs in through next-auth's own credentials flow, as the sign-in page does. */
  async signIn(email: string, password: string, options: { csrfToken?: string | null } = {}): Promise<Response> {
    const csrfToken = options.csrfToken === undefined ? await this.getCsrfToken() : options.csrfToken;
    const form: Record<string, string> = { email, password, json: "true", callbackUrl: this.baseUrl };
    if (csrfToken !== null) form.csrfToken = csrfToken;
    return this.request("/api/auth/callback/credentials", { body: { form } });
  }

  async signOut(): Promise<Response> {
    const csrfToken = await this.getCsrfToken();
    return this.request("/api/auth/signout", { body: { form: { csrfToken, json: "true" } } });
  }

  get sessionToken(): string | undefined {
    return this.cookies.get("next-auth.session-token");
  }

  setSessionToken(token: string): void {
    this.cookies.set("next-auth.session-token", token);
  }

  async session(): Promise<Record<string, unknown>> {
    return (await (await this.request("/api/auth/session")).json()) as Record<string, unknown>;
  }
}

export async function signedInAdmin(): Promise<TestClient> {
  const client = new TestClient();
  const response = await client.signIn(TEST_ADMIN.email, TEST_ADMIN.password);
  if (!client.sessionToken) throw new Error(`Admin sign-in failed: ${response.status} ${await response.text()}`);
  return client;
}

let userCounter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
}

/** Creates a user through the admin API (as an admin would) with a unique e-mail. */
export async function createTestUser(admin: TestClient, role: Role, name = `Test ${role}`): Promise<TestUser> {
  userCounter += 1;
  const email = `${role}-${Date.now()}-${process.pid}-${userCounter}@example.test`;
  const password = `password-${userCounter}-long-enough`;
  const response = await admin.request("/api/admin/users", { body: { json: { email, name, role, password } } });
  if (response.status !== 201) throw new Error(`Creating a user failed: ${response.status} ${await response.text()}`);
  const { user } = (await response.json()) as { user: { id: string } };
  return { id: user.id, email, password, role };
}

/** A client signed in as a new user of this role. */
export async function signedInAs(role: Role): Promise<{ client: TestClient; user: TestUser; admin: TestClient }> {
  const admin = await signedInAdmin();
  const user = await createTestUser(admin, role);
  const client = new TestClient();
  await client.signIn(user.email, user.password);
  if (!client.sessionToken) throw new Error(`Sign-in as ${role} failed`);
  return { client, user, admin };
}

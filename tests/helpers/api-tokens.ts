import net from "node:net";
import { expect } from "vitest";
import type { TestClient } from "./test-client";

export interface CreatedApiToken {
  token: { id: string; name: string; scopes: string[]; hint: string; createdAt: string; lastUsedAt: string | null; expiresAt: string | null };
  secret: string;
}

let tokenCounter = 0;

/** Makes an API token through POST /api/tokens with the signed-in client's session. */
export async function createApiToken(
  client: TestClient,
  scopes: string[],
  options: { name?: string; expiresInDays?: number | null } = {},
): Promise<CreatedApiToken> {
  tokenCounter += 1;
  const name = options.name ?? `script ${tokenCounter}`;
  const response = await client.request("/api/tokens", { body: { json: { name, scopes, expiresInDays: options.expiresInDays ?? null } } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as CreatedApiToken;
}

export function bearer(secret: string): Record<string, string> {
  return { Authorization: `Bearer ${secret}` };
}

/**
 * Sends one request as raw bytes over a socket, so a header can carry what fetch refuses to send
 * (UTF-8, control characters). Answers the status code, or null when the server closed without one.
 */
export function sendRawRequest(baseUrl: string, head: Buffer): Promise<{ status: number | null; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on("connect", () => socket.write(head));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : null, text });
    });
  });
}

/** A GET with one raw Authorization header value (any bytes), the connection closed after. */
export function rawGetWithAuthorization(baseUrl: string, path: string, authorization: Buffer, forwardedFor: string): Promise<{ status: number | null; text: string }> {
  const host = new URL(baseUrl).host;
  return sendRawRequest(
    baseUrl,
    Buffer.concat([
      Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: ${forwardedFor}\r\nConnection: close\r\nAuthorization: `),
      authorization,
      Buffer.from("\r\n\r\n"),
    ]),
  );
}

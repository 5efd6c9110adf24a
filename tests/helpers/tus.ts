import http from "node:http";
import type { TestClient } from "./test-client";

export const TUS_ENDPOINT = "/api/upload/tus";
const TUS_HEADERS = { "Tus-Resumable": "1.0.0" };

/** The Upload-Metadata header value for these pairs (values base64, as tus 1.0.0 says). */
export function tusMetadata(pairs: Record<string, string>): string {
  return Object.entries(pairs)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

/** POST: creates an upload of `length` bytes; answers the response (Location names the upload). */
export function createUpload(client: TestClient, length: number, fileName = "photo.jpg", headers: Record<string, string> = {}): Promise<Response> {
  return client.request(TUS_ENDPOINT, {
    method: "POST",
    headers: { ...TUS_HEADERS, "Upload-Length": String(length), "Upload-Metadata": tusMetadata({ filename: fileName, filetype: "image/jpeg" }), ...headers },
  });
}

/** Creates an upload and answers its path, failing the test on anything but 201. */
export async function createUploadPath(client: TestClient, length: number, fileName?: string): Promise<string> {
  const response = await createUpload(client, length, fileName);
  if (response.status !== 201) throw new Error(`Creating an upload failed: ${response.status} ${await response.text()}`);
  const location = response.headers.get("location");
  if (!location) throw new Error("The created upload has no Location");
  return new URL(location, client.baseUrl).pathname;
}

/** PATCH: sends bytes at an offset. */
export function patchUpload(client: TestClient, uploadPath: string, offset: number, bytes: Uint8Array<ArrayBuffer>): Promise<Response> {
  return client.request(uploadPath, {
    method: "PATCH",
    headers: { ...TUS_HEADERS, "Upload-Offset": String(offset) },
    body: { raw: bytes, contentType: "application/offset+octet-stream" },
  });
}

export function headUpload(client: TestClient, uploadPath: string): Promise<Response> {
  return client.request(uploadPath, { method: "HEAD", headers: TUS_HEADERS });
}

export function deleteUpload(client: TestClient, uploadPath: string): Promise<Response> {
  return client.request(uploadPath, { method: "DELETE", headers: TUS_HEADERS });
}

/** The server's offset for an upload (HEAD), or null when it answers otherwise. */
export async function offsetOf(client: TestClient, uploadPath: string): Promise<number | null> {
  const response = await headUpload(client, uploadPath);
  return response.status === 200 ? Number(response.headers.get("upload-offset")) : null;
}

/**
 * The offset once the server has finished with a PATCH whose connection was cut: the same answer
 * from two HEADs 100 ms apart. Right after the cut the server may still be writing what had
 * reached it, and a resume from an earlier HEAD would meet a 409, as a real client's would.
 */
export async function settledOffsetOf(client: TestClient, uploadPath: string): Promise<number | null> {
  let previous = await offsetOf(client, uploadPath);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const current = await offsetOf(client, uploadPath);
    if (current === previous) return current;
    previous = current;
  }
  return previous;
}

/**
 * Starts a PATCH that declares `declaredLength` bytes and sends only `sent`, leaving the request
 * open; answers it once those bytes have left this process. Its socket errors are ignored: the
 * callers cut or stall the connection on purpose.
 */
async function sendPartOfPatch(client: TestClient, uploadPath: string, offset: number, sent: Uint8Array, declaredLength: number): Promise<http.ClientRequest> {
  const request = http.request(new URL(uploadPath, client.baseUrl), {
    method: "PATCH",
    headers: {
      ...TUS_HEADERS,
      "Upload-Offset": String(offset),
      "Content-Type": "application/offset+octet-stream",
      "Content-Length": String(declaredLength),
      Cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      Origin: client.baseUrl,
      "X-Forwarded-For": client.address,
    },
  });
  request.on("error", () => {});
  request.on("response", (response) => response.resume());
  await new Promise<void>((resolve) => request.write(sent, () => resolve()));
  return request;
}

/**
 * Sends part of a PATCH, then destroys the socket, as a dropped connection would. The server keeps
 * what reached it.
 */
export async function patchThenDropConnection(client: TestClient, uploadPath: string, offset: number, sent: Uint8Array, declaredLength: number): Promise<void> {
  (await sendPartOfPatch(client, uploadPath, offset, sent, declaredLength)).destroy();
}

/**
 * Sends part of a PATCH, then stalls with the connection open, as a client behind a dead network
 * link looks to the server. `close` ends the connection for good.
 */
export async function patchThenStall(client: TestClient, uploadPath: string, offset: number, sent: Uint8Array, declaredLength: number): Promise<{ close: () => void }> {
  const request = await sendPartOfPatch(client, uploadPath, offset, sent, declaredLength);
  return { close: () => request.destroy() };
}

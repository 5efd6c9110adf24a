import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { createStorage } from "@/src/storage/create-storage";
import type { StorageConfig } from "@/src/storage/storage";
import type { TestClient } from "./test-client";

export const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

export interface UploadedPhoto {
  id: string;
  status: string;
  name: string;
  isDuplicate: boolean;
}

/** A multipart body with these files, each with the name and declared type given. */
export function multipartOf(files: Array<{ bytes: Uint8Array<ArrayBuffer>; name: string; type?: string }>): FormData {
  const form = new FormData();
  for (const file of files) form.append("file", new Blob([file.bytes], { type: file.type ?? "image/jpeg" }), file.name);
  return form;
}

export function corpusFile(relativePath: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(fs.readFileSync(path.join(CORPUS, relativePath)));
}

export async function uploadFiles(client: TestClient, files: Array<{ bytes: Uint8Array<ArrayBuffer>; name: string; type?: string }>): Promise<Response> {
  return client.request("/api/upload", { body: { multipart: multipartOf(files) } });
}

/** Uploads one corpus file and answers the created (or existing) photo. */
export async function uploadCorpusFile(client: TestClient, relativePath: string): Promise<UploadedPhoto> {
  const response = await uploadFiles(client, [{ bytes: corpusFile(relativePath), name: path.basename(relativePath) }]);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { photos: UploadedPhoto[] }).photos[0];
}

export interface PhotoDetailBody {
  id: string;
  status: string;
  failureReason: string | null;
  visibility: string;
  width: number | null;
  height: number | null;
  thumbhash: string | null;
  variants: Array<{ format: string; width: number; height: number; url: string }>;
  exif: Record<string, unknown>;
  takenAt: string | null;
  location: unknown;
}

/** Polls the photo until processing has finished (ready or failed). */
export async function waitForProcessing(client: TestClient, id: string, timeoutMs = 90_000): Promise<PhotoDetailBody> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await client.request(`/api/photos/${id}`);
    expect(response.status).toBe(200);
    const { photo } = (await response.json()) as { photo: PhotoDetailBody };
    if (photo.status !== "processing") return photo;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Photo ${id} was still processing after ${timeoutMs} ms`);
}

/** The photo once its last processing phase (AVIF, after "ready") is stored, so its files stop changing. */
export async function waitForEveryVariant(client: TestClient, id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const photo = await waitForProcessing(client, id);
    expect(photo.status).toBe("ready");
    if (photo.variants.some((variant) => variant.format === "avif")) return;
    if (Date.now() > deadline) throw new Error(`Photo ${id} has no AVIF variants yet`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Lists every file under a folder (relative paths), for "nothing was left behind" checks. */
export function listFiles(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Every key in the app's storage (local disk or S3), for "nothing was left behind" checks. */
export async function listStoredKeys(config: StorageConfig): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of createStorage(config).list("")) keys.push(object.key);
  return keys.sort();
}

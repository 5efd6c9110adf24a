import path from "node:path";
import exifr from "exifr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiToken } from "./helpers/api-tokens";
import { corpusFile, type PhotoDetailBody, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";

// SECURITY.md 13 and 56, the metadata policy on every path a byte leaves the server: only the owner
// (and admins) get the untouched original or the location; anyone else downloads only where
// downloads are allowed, and then a copy without location, serials, maker notes or thumbnails.

const FILES = [
  "exif-samples/jpg/gps/DSCN0010.jpg",
  "exif-samples/jpg/gps/DSCN0012.jpg",
  "exif-samples/jpg/gps/DSCN0021.jpg",
  "exif-samples/jpg/gps/DSCN0025.jpg",
  "exif-samples/jpg/gps/DSCN0027.jpg",
  "exif-samples/jpg/gps/DSCN0029.jpg",
  "exif-samples/jpg/gps/DSCN0038.jpg",
  "exif-samples/jpg/gps/DSCN0040.jpg",
  "exif-samples/jpg/gps/DSCN0042.jpg",
  "exif-samples/heic/IMG_5195.HEIC",
  "exif-samples/heic/samplefilehub.heif",
  "exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif",
  "exif-samples/heic/mobile/HMD_Nokia_8.3_5G_hdr.heif",
  "exif-samples/heic/mobile/iphone_13_pro_max.HEIC",
];

interface Photo {
  file: string;
  bytes: Buffer;
  detail: PhotoDetailBody;
  gps: { latitude: number; longitude: number } | undefined;
  make: string | undefined;
}

let owner: TestClient;
let admin: TestClient;
let viewer: TestClient;
let otherEditorToken: string;
const photos: Photo[] = [];

async function setSiteDownloads(allowDownloads: boolean): Promise<void> {
  const response = await admin.request("/api/admin/settings", { method: "PATCH", body: { json: { allowDownloads } } });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ settings: { allowDownloads } });
}

async function patchPhoto(id: string, changes: Record<string, unknown>): Promise<void> {
  const response = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: changes } });
  expect(response.status, await response.clone().text()).toBe(200);
}

beforeAll(async () => {
  admin = await signedInAdmin();
  ({ client: owner } = await signedInAs("editor"));
  ({ client: viewer } = await signedInAs("viewer"));
  const { client: otherEditor } = await signedInAs("editor");
  otherEditorToken = (await createApiToken(otherEditor, ["photos:read"])).secret;

  const response = await uploadFiles(owner, FILES.map((file) => ({ bytes: corpusFile(file), name: path.basename(file) })));
  expect(response.status).toBe(201);
  const uploaded = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
  for (const [index, file] of FILES.entries()) {
    const ready = await waitForProcessing(owner, uploaded[index].id, 180_000);
    expect(ready.status, file).toBe("ready");
    await patchPhoto(ready.id, { visibility: "public" });
    const bytes = Buffer.from(corpusFile(file));
    const gps = await exifr.gps(bytes).catch(() => undefined);
    const make = ((await exifr.parse(bytes, ["Make"]).catch(() => undefined)) as { Make?: string } | undefined)?.Make;
    photos.push({ file, bytes, detail: await waitForProcessing(owner, ready.id), gps, make });
  }
}, 300_000);

afterAll(async () => {
  await setSiteDownloads(false);
});

/** Every way a browser, a visitor or a script can ask for a photo's file. */
function downloadPaths(id: string): string[] {
  return [`/p/${id}/download`, `/api/photos/${id}/download`, `/api/photos/${id}/original`];
}

async function readMetadata(bytes: Buffer): Promise<Record<string, Record<string, unknown>>> {
  const options = { tiff: true, ifd1: true, exif: true, gps: true, interop: true, makerNote: true, xmp: true, iptc: true, mergeOutput: false };
  return ((await exifr.parse(bytes, options as never).catch(() => undefined)) ?? {}) as Record<string, Record<string, unknown>>;
}

/** A download copy, as someone other than the owner gets it: a JPEG, without location or private fields. */
async function expectDownloadCopy(response: Response, photo: Photo, options: { hasLocation: boolean }): Promise<Buffer> {
  expect(response.status, photo.file).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/jpeg");
  expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.equals(photo.bytes), `${photo.file}: not the original`).toBe(false);
  const gps = await exifr.gps(bytes).catch(() => undefined);
  if (options.hasLocation && photo.gps) {
    expect(gps?.latitude).toBeCloseTo(photo.gps.latitude, 6);
    expect(gps?.longitude).toBeCloseTo(photo.gps.longitude, 6);
  } else {
    expect(gps, `${photo.file}: no coordinates`).toBeUndefined();
  }
  const metadata = await readMetadata(bytes);
  expect(metadata.makerNote, photo.file).toBeUndefined();
  expect(metadata.ifd1, `${photo.file}: embedded thumbnail`).toBeUndefined();
  expect(metadata.xmp, photo.file).toBeUndefined();
  expect(metadata.iptc, photo.file).toBeUndefined();
  for (const tag of ["BodySerialNumber", "LensSerialNumber", "SerialNumber", "CameraOwnerName", "ImageUniqueID"]) expect(metadata.exif?.[tag]).toBeUndefined();
  // What the policy keeps: the camera.
  expect(metadata.ifd0?.Make, photo.file).toBe(photo.make);
  return bytes;
}

describe("downloads while the site does not allow them (the default)", () => {
  it("give the owner the untouched original on every path, and everyone else nothing", async () => {
    const visitor = new TestClient();
    const script = new TestClient();
    for (const photo of photos) {
      const { id } = photo.detail;
      for (const downloadPath of downloadPaths(id)) {
        const response = await owner.request(downloadPath);
        expect(response.status, downloadPath).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(photo.bytes), `${photo.file} byte for byte at ${downloadPath}`).toBe(true);
        expect((await viewer.request(downloadPath)).status, downloadPath).toBe(403);
        expect((await script.request(downloadPath, { headers: bearer(otherEditorToken) })).status, downloadPath).toBe(403);
      }
      // Visitors are stopped at the interceptor for /api, and by the page's handler for the link.
      expect((await visitor.request(`/p/${id}/download`)).status).toBe(403);
      expect((await visitor.request(`/api/photos/${id}/original`)).status).toBe(401);
      const adminOriginal = await admin.request(`/api/photos/${id}/original`);
      expect(Buffer.from(await adminOriginal.arrayBuffer()).equals(photo.bytes)).toBe(true);
    }
  });

  it("show the download link to the owner only", async () => {
    const [photo] = photos;
    expect(await (await owner.request(`/p/${photo.detail.id}`)).text()).toContain('data-testid="photo-download"');
    for (const client of [viewer, new TestClient()]) {
      const page = await (await client.request(`/p/${photo.detail.id}`)).text();
      expect(page).not.toContain('data-testid="photo-download"');
      expect(page).not.toContain(`/p/${photo.detail.id}/download`);
    }
    const json = (await (await viewer.request(`/api/photos/${photo.detail.id}`)).json()) as { photo: { downloadUrl: string | null } };
    expect(json.photo.downloadUrl).toBeNull();
  });
});

describe("downloads once the site allows them", () => {
  beforeAll(async () => {
    await setSiteDownloads(true);
  });

  it("give everyone else a download copy without coordinates, serials, maker notes or thumbnails, on every path", async () => {
    const visitor = new TestClient();
    const script = new TestClient();
    for (const photo of photos) {
      const { id } = photo.detail;
      await expectDownloadCopy(await visitor.request(`/p/${id}/download`), photo, { hasLocation: false });
      await expectDownloadCopy(await viewer.request(`/p/${id}/download`), photo, { hasLocation: false });
      await expectDownloadCopy(await viewer.request(`/api/photos/${id}/download`), photo, { hasLocation: false });
      await expectDownloadCopy(await script.request(`/api/photos/${id}/download`, { headers: bearer(otherEditorToken) }), photo, { hasLocation: false });
      // The original stays the owner's.
      expect((await viewer.request(`/api/photos/${id}/original`)).status).toBe(403);
      expect((await script.request(`/api/photos/${id}/original`, { headers: bearer(otherEditorToken) })).status).toBe(403);
    }
  });

  it("keep a JPEG's pixels byte for byte, at full size, and name the copy of a HEIC as a JPEG", async () => {
    const jpeg = photos.find((photo) => photo.file.endsWith(".jpg")) as Photo;
    const copy = Buffer.from(await (await viewer.request(`/p/${jpeg.detail.id}/download`)).arrayBuffer());
    const tail = (bytes: Buffer) => bytes.subarray(bytes.length - 50_000);
    expect(tail(copy).equals(tail(jpeg.bytes))).toBe(true);

    const heic = photos.find((photo) => photo.file.endsWith("IMG_5195.HEIC")) as Photo;
    const response = await viewer.request(`/p/${heic.detail.id}/download`);
    expect(response.headers.get("content-disposition")).toContain('filename="IMG_5195.jpg"');
  });

  it("leave the coordinates out of the API, the page and every variant for anyone but the owner", async () => {
    const visitor = new TestClient();
    for (const photo of photos.filter((candidate) => candidate.gps)) {
      const { id } = photo.detail;
      const forViewer = (await (await viewer.request(`/api/photos/${id}`)).json()) as { photo: { location: unknown; downloadUrl: string } };
      expect(forViewer.photo.location).toBeNull();
      expect(forViewer.photo.downloadUrl).toBe(`/p/${id}/download`);
      const forOwner = (await (await owner.request(`/api/photos/${id}`)).json()) as { photo: { location: { latitude: number } } };
      expect(forOwner.photo.location.latitude).toBeCloseTo(photo.gps?.latitude ?? NaN, 5);
      const page = await (await visitor.request(`/p/${id}`)).text();
      expect(page).toContain('data-testid="photo-download"');
      expect(page).not.toContain((photo.gps?.latitude ?? 0).toFixed(5));
      expect(page).not.toContain((photo.gps?.latitude ?? 0).toFixed(3));
      for (const variant of photo.detail.variants) {
        const bytes = Buffer.from(await (await visitor.request(variant.url)).arrayBuffer());
        expect(await exifr.gps(bytes).catch(() => undefined), variant.url).toBeUndefined();
      }
    }
  });

  it("keep the location in the copy once the owner shows it", async () => {
    for (const photo of photos.filter((candidate) => candidate.gps).slice(0, 1).concat(photos.filter((candidate) => candidate.gps && !candidate.file.endsWith(".jpg")).slice(0, 1))) {
      await patchPhoto(photo.detail.id, { showLocation: true });
      try {
        await expectDownloadCopy(await viewer.request(`/p/${photo.detail.id}/download`), photo, { hasLocation: true });
      } finally {
        await patchPhoto(photo.detail.id, { showLocation: false });
      }
    }
  });

  it("follow a photo's own choice over the site's, both ways", async () => {
    const photo = photos[1];
    const { id } = photo.detail;
    await patchPhoto(id, { allowDownload: false });
    expect((await viewer.request(`/p/${id}/download`)).status).toBe(403);
    expect(await (await viewer.request(`/p/${id}`)).text()).not.toContain('data-testid="photo-download"');

    await setSiteDownloads(false);
    await patchPhoto(id, { allowDownload: true });
    await expectDownloadCopy(await new TestClient().request(`/p/${id}/download`), photo, { hasLocation: false });
    expect((await new TestClient().request(`/p/${photos[2].detail.id}/download`)).status).toBe(403);

    await patchPhoto(id, { allowDownload: null });
    expect((await viewer.request(`/p/${id}/download`)).status).toBe(403);
    await setSiteDownloads(true);
  });
});

describe("the site's download setting", () => {
  it("is changed by admins only, with a checked body", async () => {
    expect((await owner.request("/api/admin/settings", { method: "PATCH", body: { json: { allowDownloads: true } } })).status).toBe(403);
    expect((await new TestClient().request("/api/admin/settings")).status).toBe(401);
    const before = await (await admin.request("/api/admin/settings")).json();
    for (const body of [{ allowDownloads: "yes" }, {}, { allowDownloads: true, other: 1 }]) {
      expect((await admin.request("/api/admin/settings", { method: "PATCH", body: { json: body } })).status).toBe(422);
    }
    // Nothing half-applied.
    expect(await (await admin.request("/api/admin/settings")).json()).toEqual(before);
  });

  it("refuses a photo's download choice that is not true, false or null (422), leaving it as it was", async () => {
    const { id } = photos[0].detail;
    for (const allowDownload of ["yes", 1, "null", {}]) {
      const response = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { allowDownload, title: "changed" } } });
      expect(response.status).toBe(422);
    }
    const photo = ((await (await owner.request(`/api/photos/${id}`)).json()) as { photo: { allowDownload: unknown; title: string } }).photo;
    expect(photo).toMatchObject({ allowDownload: null, title: "" });
  });
});

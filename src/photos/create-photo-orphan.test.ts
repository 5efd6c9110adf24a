// createPhoto stores the original before the row commits, so anything that can fail between the two
// must sit inside the try that deletes the original again. bench:load found originals left with no
// row when the site settings' read failed on a saturated pool (it ran after the file was stored).
import { describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/src/db/client";
import type * as PhotosRepository from "./photos.repository";

const putFile = vi.fn(async () => undefined);
vi.mock("@/src/storage/app-storage", () => ({ getStorage: () => ({ putFile }) }));
vi.mock("@/src/settings/site-settings.service", () => ({
  getSiteSettings: async () => {
    throw new Error("timeout exceeded when trying to connect");
  },
}));
vi.mock("./photos.repository", async (importOriginal) => ({
  ...(await importOriginal<typeof PhotosRepository>()),
  findOwnPhotoBySha256: async () => undefined,
}));

const { createPhoto } = await import("./photo-lifecycle");

describe("createPhoto when the database fails before the row", () => {
  it("stores no original, so none is left without its photo", async () => {
    const photo = { ownerId: "owner", sha256: "a".repeat(64), sourcePath: "/tmp/upload", originalName: "a.jpg", type: "jpeg", size: 10 } as const;
    await expect(createPhoto({} as DatabaseHandle, photo as never)).rejects.toThrow("timeout exceeded");
    expect(putFile).not.toHaveBeenCalled();
  });
});

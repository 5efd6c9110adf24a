import { describe, expect, it } from "vitest";
import type { ExportPhoto } from "@/src/export/export-api.schemas";
import { contactSheetSidecarOf, readContactSheetSidecar } from "./contact-sheet-sidecar";
import { ImportReadError } from "./import-read-error";
import { planFolderMetadata, readNeighbourMetadata } from "./neighbour-metadata";

const PHOTO: ExportPhoto = {
  id: "p1",
  sha256: "a".repeat(64),
  originalName: "IMG_1.jpg",
  originalType: "image/jpeg",
  originalSize: 10,
  mediaKind: "photo",
  status: "ready",
  ownerEmail: "owner@example.test",
  title: "Title",
  caption: "Caption",
  altText: "Alt",
  takenAt: "2019-05-03T14:32+02:00",
  uploadedAt: "2024-01-01T00:00:00.000Z",
  location: { latitude: 41.9, longitude: 12.5, altitude: null },
  showLocation: true,
  place: { city: "Rome", region: "Lazio", countryCode: "IT", timeZone: "Europe/Rome", source: "automatic" },
  visibility: "members",
  rating: 3,
  label: "red",
  allowDownload: false,
  rotation: 0,
  tags: ["Rome"],
  albums: [["Trips", "Italy"]],
};

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("an export's JSON sidecar, read back", () => {
  it("gives every field the owner set", () => {
    expect(readContactSheetSidecar(bytesOf(contactSheetSidecarOf(PHOTO)), "IMG_1.jpg.contact-sheet.json").value).toEqual({
      title: "Title",
      description: "Caption",
      altText: "Alt",
      tags: ["Rome"],
      tagsComplete: true,
      rating: 3,
      label: "red",
      visibility: "members",
      showLocation: true,
      allowDownload: false,
      takenAt: "2019-05-03T14:32+02:00",
      location: { latitude: 41.9, longitude: 12.5 },
      place: { city: "Rome", region: "Lazio", countryCode: "IT" },
    });
  });

  it("gives the owner's turn of a photo as its rotation, and none for an unturned photo or a video", () => {
    const read = (photo: ExportPhoto) => readContactSheetSidecar(bytesOf(contactSheetSidecarOf(photo)), "IMG_1.jpg.contact-sheet.json").value.rotation;
    expect(read({ ...PHOTO, rotation: 90 })).toBe(90);
    expect(read(PHOTO)).toBeUndefined();
    expect(read({ ...PHOTO, mediaKind: "video", rotation: 90 })).toBeUndefined();
  });

  it("refuses another format by name", () => {
    expect(() => readContactSheetSidecar(bytesOf({ ...PHOTO, format: "other", version: 1 }), "x.contact-sheet.json")).toThrow(ImportReadError);
    expect(() => readContactSheetSidecar(new TextEncoder().encode("{"), "x.contact-sheet.json")).toThrow("x.contact-sheet.json: not JSON");
  });

  it("wins over the XMP beside it, and is never taken for a Takeout JSON", async () => {
    const names = ["IMG_1.jpg", "IMG_1.jpg.xmp", "IMG_1.jpg.contact-sheet.json"];
    const plan = planFolderMetadata(names);
    expect(plan.sourcesFor("IMG_1.jpg")).toEqual({ xmpSidecar: "IMG_1.jpg.xmp", takeoutJson: null, contactSheetSidecar: "IMG_1.jpg.contact-sheet.json" });
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:title="From XMP"/></rdf:RDF></x:xmpmeta>`;
    const files: Record<string, Uint8Array> = { "IMG_1.jpg.xmp": new TextEncoder().encode(xmp), "IMG_1.jpg.contact-sheet.json": bytesOf(contactSheetSidecarOf(PHOTO)) };
    const found = await readNeighbourMetadata("IMG_1.jpg", plan, (name) => Promise.resolve(files[name]));
    expect(found.metadata.title).toBe("Title");
    expect(found.readFrom).toEqual(["IMG_1.jpg.xmp", "IMG_1.jpg.contact-sheet.json"]);
  });
});

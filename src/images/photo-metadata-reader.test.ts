import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { corpusPath, createScratchDirectory } from "./image-test-helpers";
import { cleanText, formatExposureTime, formatTakenAt, readPhotoMetadata, type ExifSummary } from "./photo-metadata-reader";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

describe("readPhotoMetadata on real camera files", () => {
  it.each<[string, ExifSummary]>([
    [
      "exif-samples/jpg/Canon_40D.jpg",
      {
        cameraMake: "Canon",
        cameraModel: "Canon EOS 40D",
        lens: null,
        focalLength: 135,
        aperture: 7.1,
        exposureTime: "1/160",
        iso: 100,
        takenAt: "2008-05-30T15:56:01",
      },
    ],
    [
      "exif-samples/jpg/Nikon_D70.jpg",
      {
        cameraMake: "NIKON CORPORATION",
        cameraModel: "NIKON D70",
        lens: null,
        focalLength: 100,
        aperture: 9,
        exposureTime: "1/200",
        iso: 200,
        takenAt: "2008-03-15T09:52:01",
      },
    ],
    [
      "exif-samples/jpg/tests/87_OSError.jpg",
      {
        cameraMake: "NIKON CORPORATION",
        cameraModel: "NIKON D70s",
        lens: "18.0-70.0 mm f/3.5-4.5",
        focalLength: 60,
        aperture: 29,
        exposureTime: "1/60",
        iso: 1000,
        takenAt: "2005-12-14T14:39:47",
      },
    ],
    [
      "exif-samples/heic/mobile/iphone_13_pro_max.HEIC",
      {
        cameraMake: "Apple",
        cameraModel: "iPhone 13 Pro Max",
        lens: "iPhone 13 Pro Max back triple camera 5.7mm f/1.5",
        focalLength: 5.7,
        aperture: 1.5,
        exposureTime: "1/60",
        iso: 250,
        takenAt: "2022-02-16T12:55:41+01:00",
      },
    ],
    [
      "exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg",
      {
        cameraMake: "HMD Global",
        cameraModel: "Nokia 8.3 5G",
        lens: null,
        focalLength: 2.8,
        aperture: 2.2,
        exposureTime: "1/1848",
        iso: 100,
        takenAt: "2022-08-14T14:12:31+03:00",
      },
    ],
  ])("%s", async (file, expected) => {
    expect((await readPhotoMetadata(corpusPath(file))).exif).toEqual(expected);
  });

  it("reads GPS positions with hemispheres and altitude", async () => {
    expect((await readPhotoMetadata(corpusPath("exif-samples/jpg/gps/DSCN0010.jpg"))).gps).toEqual({
      latitude: 43.4674483,
      longitude: 11.8851267,
      altitude: null,
    });
    // West of Greenwich, with altitude.
    expect((await readPhotoMetadata(corpusPath("exif-samples/jpg/hdr/iphone_hdr_YES.jpg"))).gps).toEqual({
      latitude: 40.4469722,
      longitude: -3.7247528,
      altitude: 639.6,
    });
    expect((await readPhotoMetadata(corpusPath("exif-samples/heic/IMG_5195.HEIC"))).gps).toEqual({
      latitude: 39.0513444,
      longitude: -94.2887722,
      altitude: 260.6,
    });
    expect((await readPhotoMetadata(corpusPath("exif-samples/jpg/Canon_40D.jpg"))).gps).toBeNull();
  });

  it("reads EXIF that only libvips can find (WebP)", async () => {
    const webp = await sharp(corpusPath("exif-samples/jpg/gps/DSCN0010.jpg")).keepMetadata().webp().toBuffer();
    const metadata = await readPhotoMetadata(scratch.write("with-exif.webp", webp));
    expect(metadata.exif.cameraModel).toBe("COOLPIX P6000");
    expect(metadata.gps?.latitude).toBe(43.4674483);
  });

  it("returns empty fields, never an error, for files without usable metadata", async () => {
    const empty = { cameraMake: null, cameraModel: null, lens: null, focalLength: null, aperture: null, exposureTime: null, iso: null, takenAt: null };
    for (const file of ["exif-samples/jpg/invalid/image00971.jpg", "README.md", "exif-samples/jpg/corrupted.jpg", "does-not-exist.jpg"]) {
      const metadata = await readPhotoMetadata(corpusPath(file));
      if (file !== "exif-samples/jpg/corrupted.jpg") expect(metadata, file).toEqual({ exif: empty, gps: null });
      else expect(metadata.exif.cameraModel).not.toBeUndefined();
    }
  });

  it("cleans hostile text: control characters, bidi overrides, endless strings", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#888" } })
      .withExif({
        IFD0: {
          // libvips writes ASCII C strings, so NUL and bidi overrides are covered by cleanText's own test.
          Make: "Evil\u0007Corp\r\nX-Injected: 1\u001b[31m",
          Model: `<script>alert(1)</script>${"A".repeat(5000)}`,
          DateTime: "0000:00:00 00:00:00",
        },
      })
      .jpeg()
      .toBuffer();
    const { exif } = await readPhotoMetadata(scratch.write("hostile-exif.jpg", jpeg));
    expect(exif.cameraMake).toBe("Evil Corp X-Injected: 1 [31m");
    // Markup stays text (the page escapes it); only its length is capped.
    expect(exif.cameraModel?.startsWith("<script>alert(1)</script>AAA")).toBe(true);
    expect(exif.cameraModel).toHaveLength(100);
    expect(exif.takenAt).toBeNull();
  });
});

describe("metadata formatting", () => {
  it("formats shutter speeds as photographers write them", () => {
    expect(formatExposureTime(0.004)).toBe("1/250");
    expect(formatExposureTime(1 / 3)).toBe("1/3");
    expect(formatExposureTime(0.4)).toBe("1/2.5");
    expect(formatExposureTime(0.000541)).toBe("1/1848");
    expect(formatExposureTime(2)).toBe("2");
    expect(formatExposureTime(2.5)).toBe("2.5");
    expect(formatExposureTime(null)).toBeNull();
  });

  it("turns EXIF dates into ISO 8601, with the offset only when the camera recorded one", () => {
    expect(formatTakenAt("2008:05:30 15:56:01", undefined)).toBe("2008-05-30T15:56:01");
    expect(formatTakenAt("2022:02:16 12:55:41", "+01:00")).toBe("2022-02-16T12:55:41+01:00");
    expect(formatTakenAt("2021:04:11 15:47:53", "-05:00")).toBe("2021-04-11T15:47:53-05:00");
    expect(formatTakenAt("2021:04:11 15:47:53", "+99:00")).toBe("2021-04-11T15:47:53");
    expect(formatTakenAt("0000:00:00 00:00:00", undefined)).toBeNull();
    expect(formatTakenAt("2023:02:30 10:00:00", undefined)).toBeNull();
    expect(formatTakenAt("    :  :     :  :  ", undefined)).toBeNull();
    expect(formatTakenAt(1234, undefined)).toBeNull();
  });

  it("cleans text and caps it by characters, not bytes", () => {
    expect(cleanText("  Canon\u0000  EOS\t5D \u200f ")).toBe("Canon EOS 5D");
    expect(cleanText("\u0001\u0002")).toBeNull();
    expect(cleanText("photo\u202egpj.exe")).toBe("photo gpj.exe");
    expect(cleanText(42)).toBeNull();
    expect(cleanText("📷".repeat(150))).toBe("📷".repeat(100));
  });
});

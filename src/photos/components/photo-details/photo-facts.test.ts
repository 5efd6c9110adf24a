import { describe, expect, it } from "vitest";
import { describeExposure, formatTakenAt, mapUrl } from "./photo-facts";

const exif = { cameraMake: "NIKON", cameraModel: "COOLPIX P6000", lens: null, focalLength: 24, aperture: 4.5, exposureTime: "1/125", iso: 64 };

describe("formatTakenAt", () => {
  it("shows the camera's own clock, whatever the server's time zone or the recorded offset", () => {
    expect(formatTakenAt("2008-10-22T16:29:49")).toBe("22 October 2008, 16:29");
    expect(formatTakenAt("2019-05-03T23:30:00+02:00")).toBe("3 May 2019, 23:30");
    expect(formatTakenAt("2019-05-03")).toBe("3 May 2019");
  });

  it("is null for no date or a date it cannot read", () => {
    expect(formatTakenAt(null)).toBeNull();
    expect(formatTakenAt("yesterday")).toBeNull();
    expect(formatTakenAt("2019-13-01")).toBeNull();
  });
});

describe("describeExposure", () => {
  it("names the camera and gives each setting in its usual form", () => {
    expect(describeExposure({ ...exif, aperture: 5.599999 })).toEqual({
      camera: expect.stringContaining("COOLPIX P6000"),
      lens: null,
      settings: [
        { label: "Focal length", value: "24 mm" },
        { label: "Aperture", value: "ƒ/5.6" },
        { label: "Shutter", value: "1/125 s" },
        { label: "ISO", value: "ISO 64" },
      ],
    });
  });

  it("leaves out what the camera did not record", () => {
    expect(describeExposure({ ...exif, focalLength: null, iso: null }).settings.map((setting) => setting.label)).toEqual(["Aperture", "Shutter"]);
  });
});

describe("mapUrl", () => {
  it("points OpenStreetMap at the coordinates", () => {
    expect(mapUrl({ latitude: 43.467448, longitude: 11.885127 })).toBe("https://www.openstreetmap.org/?mlat=43.46745&mlon=11.88513#map=15/43.46745/11.88513");
  });
});

import { describe, expect, it } from "vitest";
import { ImportReadError } from "./import-read-error";
import { planFolderMetadata, readNeighbourMetadata } from "./neighbour-metadata";

const xmp = (attributes: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" ${attributes}/></rdf:RDF></x:xmpmeta>`;

function folder(files: Record<string, string>) {
  const plan = planFolderMetadata(Object.keys(files));
  const read = async (name: string) => new TextEncoder().encode(files[name]);
  return { plan, read };
}

describe("planFolderMetadata", () => {
  it("finds both sidecar names without case, a.jpg.xmp winning over a.xmp", () => {
    const { plan } = folder({ "A.JPG": "", "a.xmp": "", "a.jpg.xmp": "", "B.jpg": "", "b.XMP": "", "c.jpg": "" });
    expect(plan.sourcesFor("A.JPG").xmpSidecar).toBe("a.jpg.xmp");
    expect(plan.sourcesFor("B.jpg").xmpSidecar).toBe("b.XMP");
    expect(plan.sourcesFor("c.jpg").xmpSidecar).toBeNull();
    expect(plan.isMetadataFile("b.XMP") && plan.isMetadataFile("metadata.json") && !plan.isMetadataFile("c.jpg")).toBe(true);
  });
});

describe("readNeighbourMetadata", () => {
  it("merges Takeout's JSON and the XMP sidecar field by field, the sidecar winning", async () => {
    const { plan, read } = folder({
      "IMG_1.jpg": "",
      "IMG_1.jpg.supplemental-metadata.json": JSON.stringify({ description: "From Google", photoTakenTime: { timestamp: "1557923530" }, favorited: true }),
      "IMG_1.xmp": xmp(`xmp:Rating="5" exif:DateTimeOriginal="2019-05-15T14:32:10"`),
    });
    const result = await readNeighbourMetadata("IMG_1.jpg", plan, read);
    expect(result.metadata).toEqual({ description: "From Google", favourite: true, rating: 5, takenAt: "2019-05-15T14:32:10" });
    expect(result.readFrom).toEqual(["IMG_1.jpg.supplemental-metadata.json", "IMG_1.xmp"]);
    expect(result.errors).toEqual([]);
  });

  it("keeps what one neighbour said when the other is refused, and names the refused file", async () => {
    const { plan, read } = folder({ "a.jpg": "", "a.jpg.json": JSON.stringify({ description: "kept" }), "a.jpg.xmp": `<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>` });
    const result = await readNeighbourMetadata("a.jpg", plan, read);
    expect(result.metadata).toEqual({ description: "kept" });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toBeInstanceOf(ImportReadError);
    expect(result.errors[0].fileName).toBe("a.jpg.xmp");
  });
});

// Shared by the motion photo tests only (unit and integration): JPEG motion photos made here, in
// the forms Android phones write, around a tiny stand-in for the MP4.
import sharp from "sharp";

/** An `ftyp` box and a few bytes: all the locator looks at of an MP4. */
export const TINY_MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42\0\0\0\0mp42isom", "latin1"), Buffer.alloc(200, 7)]);

export interface MotionPhotoOptions {
  /** Google's Container directory with attributes or child elements, or the older MicroVideo offset. */
  form: "attributes" | "elements" | "micro-video";
  /** Claim this clip length instead of the real one (a lying or broken file). */
  lengthOverride?: number;
  /** The MP4 to append; TINY_MP4 when omitted. */
  clip?: Buffer;
}

function xmpFor(form: MotionPhotoOptions["form"], length: number): string {
  const item =
    form === "attributes"
      ? `<Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${length}" Item:Padding="0"/>`
      : `<Container:Item><Item:Mime>video/mp4</Item:Mime><Item:Semantic>MotionPhoto</Item:Semantic><Item:Length>${length}</Item:Length></Container:Item>`;
  const body =
    form === "micro-video"
      ? `<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="${length}"/>`
      : `<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1"><Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li><rdf:li rdf:parseType="Resource">${item}</rdf:li></rdf:Seq></Container:Directory></rdf:Description>`;
  return `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${body}</rdf:RDF></x:xmpmeta>`;
}

/** A small JPEG still with the motion XMP in an APP1 segment, and the clip appended after it. */
export async function motionPhotoJpeg(options: MotionPhotoOptions): Promise<{ bytes: Buffer; clipStart: number; still: Buffer }> {
  const clip = options.clip ?? TINY_MP4;
  const still = await sharp({ create: { width: 96, height: 64, channels: 3, background: "#3a7d44" } }).jpeg().toBuffer();
  const payload = Buffer.concat([Buffer.from("http://ns.adobe.com/xap/1.0/\0", "latin1"), Buffer.from(xmpFor(options.form, options.lengthOverride ?? clip.length), "utf8")]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  const withXmp = Buffer.concat([still.subarray(0, 2), segment, payload, still.subarray(2)]);
  return { bytes: Buffer.concat([withXmp, clip]), clipStart: withXmp.length, still: withXmp };
}

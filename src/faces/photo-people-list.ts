import type { PhotoFaceView } from "./people.service";

/**
 * The people of a photo's faces, once each, as the photo page lists them: named ones by name, then
 * the unnamed (faces with no person are left out). For the viewer's info panel.
 */
export function peopleInPhoto(faces: readonly Pick<PhotoFaceView, "personId" | "personName">[]): Array<{ id: string; name: string | null }> {
  const seen = new Map<string, string | null>();
  for (const face of faces) if (face.personId && !seen.has(face.personId)) seen.set(face.personId, face.personName);
  const people = [...seen].map(([id, name]) => ({ id, name }));
  return [
    ...people.filter((person) => person.name !== null).sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "")),
    ...people.filter((person) => person.name === null),
  ];
}

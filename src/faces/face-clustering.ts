import { descriptorDistance, DESCRIPTOR_LENGTH } from "./face-descriptor";

/**
 * How faces become people, incrementally, one photo at a time as detection finishes it:
 * each new face joins the person whose centroid (the mean of their detected faces' descriptors)
 * is nearest, if that is within the threshold; otherwise it starts a new, unnamed person.
 *
 * Why this and not a batch clustering (DBSCAN, Chinese whispers): photos arrive one by one and
 * people are renamed, merged and split by hand in between; a batch run would regroup faces the
 * owner already sorted. Nearest centroid never moves a face once placed, costs one pass over the
 * owner's people per face, and a centroid is steadier than any single face (a profile, bad light).
 * Two faces of one photo are never the same person, so a person already given a face of this photo
 * is not offered to the others (the demo photos' closest pair, 0.46 apart, is two people in one photo).
 *
 * The threshold (settings, 0.38 by default) was measured, not taken from face-api's 0.6:
 * the corpus portrait against its EXIF-turned copy, a crop, a mirror, darker, brighter, grey and
 * half-size copies are 0.00-0.30 apart; the 22 faces of face-api's six demo photos, 22 people,
 * are at least 0.46 apart (next 0.47, 0.53). 0.38 is halfway: a stranger must come closer than
 * any two of those people, and a copy of one face may be as far as 0.30 and still join.
 */

export interface PersonCentroid {
  personId: string;
  centroid: Float32Array;
}

export interface ClusterDecision {
  /** The person the face joins, or null: a new person. */
  personId: string | null;
  distance: number | null;
}

export const DEFAULT_MATCH_THRESHOLD = 0.38;

export function centroidOf(descriptors: readonly ArrayLike<number>[]): Float32Array {
  const centroid = new Float32Array(DESCRIPTOR_LENGTH);
  for (const descriptor of descriptors) for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) centroid[index] += descriptor[index];
  for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) centroid[index] /= Math.max(1, descriptors.length);
  return centroid;
}

/**
 * Places the faces of one photo: for each, the nearest person within `threshold` that no earlier
 * face of this photo took, else null (a new person). Strongest matches are decided first, so two
 * faces wanting one person go to the closer.
 */
export function assignFacesToPeople(faces: readonly ArrayLike<number>[], people: readonly PersonCentroid[], threshold: number): ClusterDecision[] {
  const candidates: Array<{ face: number; personId: string; distance: number }> = [];
  faces.forEach((descriptor, face) => {
    for (const person of people) {
      const distance = descriptorDistance(descriptor, person.centroid);
      if (distance <= threshold) candidates.push({ face, personId: person.personId, distance });
    }
  });
  candidates.sort((a, b) => a.distance - b.distance);
  const decisions: ClusterDecision[] = faces.map(() => ({ personId: null, distance: null }));
  const placed = new Set<number>();
  const taken = new Set<string>();
  for (const candidate of candidates) {
    if (placed.has(candidate.face) || taken.has(candidate.personId)) continue;
    decisions[candidate.face] = { personId: candidate.personId, distance: candidate.distance };
    placed.add(candidate.face);
    taken.add(candidate.personId);
  }
  return decisions;
}

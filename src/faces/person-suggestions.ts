import { centroidOf, type PersonCentroid } from "./face-clustering";
import { NamedCentroidIndex } from "./named-centroid-index";

/**
 * "Is this X?" (issue 32): which named people an unnamed face or person may be, nearest first.
 *
 * The distance is from the unnamed one's centroid (its detected faces' mean descriptor; a single
 * face is its own) to each named person's centroid, as clustering measures it (face-clustering.ts).
 * Clustering joins a face to a person at the match threshold (0.38 by default); anything left
 * unnamed was farther than that from every named centroid when it arrived, or was found before
 * anyone was named. A suggestion costs the owner one click to refuse, so it may reach farther than
 * a join: up to SUGGESTION_DISTANCE, which sits between the measured distances of one person's
 * copies (0.00-0.30: the corpus portrait turned, cropped, mirrored, relit, greyed, halved) and
 * face-api's own "same person" line (0.6), and past the closest different people measured
 * (face-api's demo photos, 0.46-0.56 apart): near enough to catch a profile or bad light, far
 * enough that a crowd of strangers is not offered. Never nearer than the owner's own threshold.
 */
export const SUGGESTION_DISTANCE = 0.55;

/** At most this many named people are offered for one unnamed face or person. */
export const MAX_SUGGESTIONS = 3;

/** A named person offered: their id and name and how near they are among those offered (1: nearest). */
export interface PersonSuggestion {
  personId: string;
  name: string;
  rank: number;
}

export interface NamedCentroid extends PersonCentroid {
  name: string;
}

/** Named people's centroids from their descriptors (people with none are left out: nothing to compare). */
export function namedCentroids(descriptorsByPerson: ReadonlyMap<string, { name: string; descriptors: ArrayLike<number>[] }>): NamedCentroid[] {
  return [...descriptorsByPerson]
    .filter(([, person]) => person.descriptors.length > 0)
    .map(([personId, person]) => ({ personId, name: person.name, centroid: centroidOf(person.descriptors) }));
}

/**
 * The named people within `maxDistance` of these descriptors' centroid, nearest first, at most
 * MAX_SUGGESTIONS, leaving out `rejected` (the owner said no). Only names, ids and ranks come out:
 * distances and descriptors stay on the server.
 */
export function rankSuggestions(
  descriptors: readonly ArrayLike<number>[],
  named: readonly NamedCentroid[] | NamedCentroidIndex,
  rejected: ReadonlySet<string>,
  maxDistance: number,
): PersonSuggestion[] {
  if (descriptors.length === 0) return [];
  const index = named instanceof NamedCentroidIndex ? named : NamedCentroidIndex.of(named);
  return index
    .nearest(centroidOf(descriptors), rejected, maxDistance, MAX_SUGGESTIONS)
    .map((match, rank) => ({ personId: match.personId, name: match.name, rank: rank + 1 }));
}

/** The distance suggestions reach: SUGGESTION_DISTANCE, or the owner's match threshold if that is wider. */
export function suggestionDistance(matchThreshold: number): number {
  return Math.max(SUGGESTION_DISTANCE, matchThreshold);
}

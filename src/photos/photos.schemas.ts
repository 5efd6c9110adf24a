import { z } from "zod";
import { LOCATION_PRECISIONS, MAXIMUM_RATING, PHOTO_LABELS, PHOTO_ROTATIONS, VISIBILITIES } from "@/src/db/database";
import { multilineText, singleLineText } from "@/src/validation/input-text";
import { countryNameOf } from "@/src/places/country-name";
import { normaliseTakenAt } from "./taken-at-input";

// Titles and captions may hold any text a person types, but never control characters: they reach
// headers (download names) and logs. Line breaks are allowed in captions only (src/validation/input-text.ts).

export const visibilitySchema = z.enum(VISIBILITIES);
export const ratingSchema = z.number().int().min(0).max(MAXIMUM_RATING);
export const labelSchema = z.enum(PHOTO_LABELS);

/**
 * A place name the owner types (a city or a region): refused with a 422 when it holds control
 * characters rather than quietly cleaned, since it is a name to be searched and browsed by; blank is
 * "not known". At most 100 characters, as GeoNames' longest names are.
 */
const placeNameText = z
  .string()
  .max(100, "A place name is at most 100 characters.")
  .refine((text) => !/\p{Cc}/u.test(text), "A place name cannot hold control characters.")
  .transform((text) => text.trim().normalize("NFC") || null)
  .nullable();

export const manualPlaceSchema = z.strictObject({
  city: placeNameText.optional().describe("The city, town or village; null or blank: not known."),
  region: placeNameText.optional().describe("The region (state, province); null or blank: not known."),
  countryCode: z
    .string()
    .refine((code) => countryNameOf(code) !== null, "The country must be an ISO 3166-1 alpha-2 code, such as IT or PR.")
    .nullable()
    .optional()
    .describe("ISO 3166-1 alpha-2, upper case (IT, PR); null: not known."),
});

export const updatePhotoSchema = z
  .strictObject({
    title: singleLineText(200).optional(),
    caption: multilineText(5000).optional(),
    altText: singleLineText(1000).optional(),
    visibility: visibilitySchema.optional(),
    showLocation: z.boolean().optional(),
    /** How precisely others learn the location when it is shown; null: follow the site's setting. */
    locationPrecision: z
      .enum(LOCATION_PRECISIONS, { error: `The location precision must be null or one of: ${LOCATION_PRECISIONS.join(", ")}.` })
      .nullable()
      .optional(),
    /** Whether others may download it (a download copy); null: follow the site's setting. */
    allowDownload: z.boolean().nullable().optional(),
    takenAt: z
      .string()
      .max(40)
      .transform((text, context) => {
        const takenAt = normaliseTakenAt(text);
        if (takenAt === null) {
          context.addIssue({ code: "custom", message: "The date taken must be a real date and time between 1826 and 2200, such as 2019-05-03T14:32 or 2019-05-03T14:32+02:00." });
          return z.NEVER;
        }
        return takenAt;
      })
      .nullable()
      .optional()
      .describe("When it was taken, in the camera's local time (2019-05-03T14:32), with its UTC offset (+02:00) if known; null: the date is unknown."),
    location: z
      .strictObject({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
      })
      .nullable()
      .optional()
      .describe("Where it was taken, in decimal degrees; null: no location. Set by hand, it sticks: processing the photo again never replaces it, and its place in words is worked out again unless `place` is sent with it."),
    place: manualPlaceSchema
      .nullable()
      .optional()
      .describe("Where it was taken, in words, set by hand: it sticks like the location. null: worked out again from the coordinates."),
    rotation: z
      .union(PHOTO_ROTATIONS.map((degrees) => z.literal(degrees)))
      .optional()
      .describe("Degrees clockwise to turn the photo by, on top of its file's own orientation; the variants are made again (new URLs), the original is kept as uploaded."),
    rating: ratingSchema.optional().describe("The owner's stars, 0-5 (0: none). Seen and searched only by the owner and admins."),
    label: labelSchema.nullable().optional().describe("The owner's colour label; null: none. Seen and searched only by the owner and admins."),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");

export const listPhotosQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  visibility: visibilitySchema.optional(),
  owner: z.enum(["me"]).optional(),
  /**
   * A search (src/search): answered by the search service; not combined with `visibility` or
   * `owner` (400). Over 500 characters is the parser's 400; the schema's cap is only a backstop.
   */
  q: z
    .string()
    .max(16_384)
    .optional()
    .describe("A search in the search language of GET /api/search (at most 500 characters; longer is a 400): only the photos it finds. Cannot be combined with visibility or owner."),
});

export type UpdatePhotoInput = z.infer<typeof updatePhotoSchema>;
export type ListPhotosQuery = z.infer<typeof listPhotosQuerySchema>;

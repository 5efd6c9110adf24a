import type { z } from "zod";
import { answerShape } from "@/src/ui/api-client";
import type { faceConsentResponseSchema, faceResponseSchema, personResponseSchema } from "../people.schemas";

// The person editor is on /people/[id], a page of the (gallery) group held to the public pages'
// JavaScript budget: the answer's type is the contract's, erased at build, and only its outline is
// checked, so zod stays out of the bundle (as for the tags field, src/tags/components/tag-answers.ts).

/** GET|PATCH /api/people/{id} and POST /api/people/{id}/merge: the person. */
export type PersonAnswer = z.output<typeof personResponseSchema>;

export const personAnswer = answerShape<PersonAnswer>((answer) => typeof answer.person === "object" && answer.person !== null);

/** POST /api/photos/{id}/faces: the face drawn by hand. */
export type FaceAnswer = z.output<typeof faceResponseSchema>;

export const faceAnswer = answerShape<FaceAnswer>((answer) => typeof answer.face === "object" && answer.face !== null);

/** GET|PUT /api/faces/consent: the caller's answer. */
export type ConsentAnswer = z.output<typeof faceConsentResponseSchema>;

export const consentAnswer = answerShape<ConsentAnswer>((answer) => typeof answer.enabled === "boolean" && typeof answer.text === "string");

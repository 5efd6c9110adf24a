import type { z } from "zod";
import { answerShape } from "@/src/ui/api-client";
import type { tagListResponseSchema } from "../tags.schemas";

// The tags field lives in the photo editor, which the (public) photo page carries: the answer's type
// is the contract's, erased at build, and only its outline is checked, so zod stays out of the bundle.

/** GET /api/tags/suggest and GET|PUT /api/photos/{id}/tags: tags in name order. */
export type TagListAnswer = z.output<typeof tagListResponseSchema>;

export const tagListAnswer = answerShape<TagListAnswer>((answer) => Array.isArray(answer.tags));

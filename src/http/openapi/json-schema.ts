import { z } from "zod";

/** A JSON Schema (2020-12, the dialect OpenAPI 3.1 uses) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * A Zod schema as JSON Schema, through Zod's own converter. Requests are described as they are
 * sent (`io: "input"`: before defaults and transforms), answers as they leave (`io: "output"`).
 * What JSON Schema cannot say (a refine, a transform) is left out rather than failing the document.
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
  void _dialect;
  return jsonSchema;
}

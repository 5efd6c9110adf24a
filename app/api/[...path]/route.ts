import { jsonError } from "@/src/http/json-error";

// Any /api path with no handler: JSON 404, like every other API answer, for every method.
const notFound = async () => jsonError("NOT_FOUND", "There is no API endpoint at this path.");

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;

import { handleAuthGet, handleAuthPost } from "@/src/http/auth-route";

export const GET = handleAuthGet;
export const POST = handleAuthPost;

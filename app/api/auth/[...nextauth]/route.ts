import { handleAuthGet, handleAuthPost } from "@/src/auth/auth-route";

export const GET = handleAuthGet;
export const POST = handleAuthPost;

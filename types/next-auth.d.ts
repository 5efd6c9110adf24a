import type { Role } from "@/src/db/database";

declare module "next-auth" {
  interface Session {
    user?: { id: string; name: string | null; email: string | null; role: Role };
  }
}

import Link from "next/link";
import type { Role } from "@/src/access/roles";

export function AdminNav({ role }: { role: Role }) {
  return (
    <nav className="admin-nav" aria-label="Admin">
      <Link href="/admin">Dashboard</Link>
      <Link href="/admin/upload">Upload</Link>
      <Link href="/admin/tokens">API tokens</Link>
      {role === "admin" && <Link href="/admin/users">Users</Link>}
    </nav>
  );
}

import { type ReactNode, useId } from "react";
import type { Role } from "@/src/access/roles";
import { AdminNav } from "./admin-nav";

interface AdminPageProps {
  role: Role;
  title: string;
  /** One or two sentences under the heading: what the page is for. */
  intro?: ReactNode;
  children: ReactNode;
}

/** The frame every admin page shares: a centred column, the admin tabs, the heading and its intro. */
export function AdminPage({ role, title, intro, children }: AdminPageProps) {
  return (
    <div className="page admin-page">
      <AdminNav role={role} />
      <header className="admin-page-header">
        <h1>{title}</h1>
        {intro && <p className="muted admin-page-intro">{intro}</p>}
      </header>
      {children}
    </div>
  );
}

/** A titled box within an admin page (a form for something new, say), labelled by its heading. */
export function AdminPanel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="admin-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="admin-panel-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SetupForm } from "@/src/setup/components/setup-form";
import { isSetupTokenValid } from "@/src/setup/first-admin.service";
import { getDb } from "@/src/db/client";

export const metadata: Metadata = { title: "Set up" };

interface SetupPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// /setup?token=… – create the first admin with the one-time link from the server log.
export default async function SetupPage({ searchParams }: SetupPageProps) {
  const { token } = await searchParams;
  // Closed once an admin exists, and without the current token: both answer 404 with the same
  // explanation (app/setup/not-found.tsx), never which of the two it was.
  if (typeof token !== "string" || !(await isSetupTokenValid(getDb(), token))) notFound();
  return (
    <section className="card auth-card">
      <h1>Welcome to Contact Sheet</h1>
      <p className="muted">Create the first admin account. This link works once.</p>
      <SetupForm token={token} />
    </section>
  );
}

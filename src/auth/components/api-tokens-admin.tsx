"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import type { Role } from "@/src/access/roles";
import { SCOPE_DESCRIPTIONS, scopesForRole } from "@/src/access/scopes";
import { AdminPanel } from "@/src/ui/admin-page";
import { callApi } from "@/src/ui/api-client";
import { ConfirmDialog } from "@/src/ui/dialog";
import { apiTokenListResponseSchema, createdApiTokenResponseSchema, type PublicApiToken } from "../api-tokens.schemas";

const LIFETIMES = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "Never" },
];

/** The same text on the server and in the browser (no locale or time zone), so hydration agrees. */
function formatInstant(iso: string | null, fallback: string): string {
  return iso === null ? fallback : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

interface ApiTokensAdminProps {
  initialTokens: PublicApiToken[];
  role: Role;
}

export function ApiTokensAdmin({ initialTokens, role }: ApiTokensAdminProps) {
  const router = useRouter();
  const [tokens, setTokens] = useState(initialTokens);
  const [busyTokenId, setBusyTokenId] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string; origin: string } | null>(null);
  const [revoking, setRevoking] = useState<PublicApiToken | null>(null);
  const availableScopes = scopesForRole(role);

  async function reload() {
    const body = await callApi("/api/tokens", { method: "GET" }, apiTokenListResponseSchema);
    setTokens(body.tokens);
    router.refresh();
  }

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const lifetime = String(form.get("lifetime") ?? "90");
    const body = {
      name: String(form.get("name") ?? ""),
      scopes: form.getAll("scopes").map(String),
      expiresInDays: lifetime === "never" ? null : Number(lifetime),
    };
    if (body.scopes.length === 0) {
      toast.error("Choose at least one scope.");
      return;
    }
    setIsCreating(true);
    try {
      const answer = await callApi("/api/tokens", { method: "POST", body }, createdApiTokenResponseSchema);
      // The address this browser reached the site at: the one a script on the same network uses.
      setCreated({ name: answer.token.name, secret: answer.secret, origin: window.location.origin });
      toast.success(`Created token “${answer.token.name}”.`);
      formElement.reset();
      await reload();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not create the token.");
    } finally {
      setIsCreating(false);
    }
  }

  async function handleCopy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success("Token copied to the clipboard.");
    } catch {
      toast.error("Could not copy. Select the token and copy it by hand.");
    }
  }

  async function handleRevoke(token: PublicApiToken) {
    setBusyTokenId(token.id);
    try {
      await callApi(`/api/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" });
      toast.success(`Revoked token “${token.name}”.`);
      setRevoking(null);
      await reload();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not revoke the token.");
    } finally {
      setBusyTokenId(null);
    }
  }

  return (
    <>
      <AdminPanel title="New token">
        <form className="admin-form" onSubmit={handleCreate} aria-label="Create an API token">
          <label className="field">
            Name
            <input name="name" required maxLength={100} placeholder="e.g. phone import script" />
          </label>
          <label className="field">
            Expires
            <select name="lifetime" defaultValue="90">
              {LIFETIMES.map((lifetime) => (
                <option key={lifetime.value} value={lifetime.value}>
                  {lifetime.label}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="scope-choices">
            <legend>Scopes</legend>
            {availableScopes.map((scope) => (
              <label key={scope} className="checkbox-field" title={SCOPE_DESCRIPTIONS[scope]}>
                <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === availableScopes[0]} />
                {scope}
              </label>
            ))}
          </fieldset>
          <div className="admin-form-submit">
            <button type="submit" disabled={isCreating}>
              Create token
            </button>
          </div>
        </form>
      </AdminPanel>

      {created && (
        <section className="notice token-secret" aria-label="New API token" data-testid="new-token">
          <p>
            <strong>{created.name}</strong>: copy this token now. It is shown only once; only a hash of it is kept.
          </p>
          <code data-testid="new-token-secret">{created.secret}</code>
          <div className="actions">
            <button type="button" className="secondary" onClick={() => void handleCopy(created.secret)}>
              Copy
            </button>
            <button type="button" className="secondary" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
          <p className="muted">Send it as a Bearer token. For example, to upload a photo:</p>
          <pre className="token-example" data-testid="token-curl-example">
            <code>{`curl -F file=@photo.heic \\\n  -H "Authorization: Bearer <token>" \\\n  ${created.origin}/api/upload`}</code>
          </pre>
        </section>
      )}

      <h2>Your tokens</h2>
      {tokens.length === 0 ? (
        <p className="muted">You have no API tokens.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Token</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} data-testid={`token-row-${token.name}`}>
                <td data-label="Name">{token.name}</td>
                <td data-label="Token">
                  <code>{token.hint}…</code>
                </td>
                <td data-label="Scopes">{token.scopes.join(", ")}</td>
                <td data-label="Created">{formatInstant(token.createdAt, "")}</td>
                <td data-label="Last used">{formatInstant(token.lastUsedAt, "Never")}</td>
                <td data-label="Expires">
                  <span>
                    {formatInstant(token.expiresAt, "Never")}
                    {token.isExpired && <span className="muted"> (expired)</span>}
                  </span>
                </td>
                <td className="table-actions">
                  <div className="actions">
                    <button type="button" className="danger" disabled={busyTokenId === token.id} onClick={() => setRevoking(token)}>
                      Revoke
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke token"
        tone="danger"
        isBusy={revoking !== null && busyTokenId === revoking.id}
        onConfirm={() => revoking && void handleRevoke(revoking)}
        onClose={() => setRevoking(null)}
      >
        <p>Scripts using it stop working at once. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { ROLES } from "@/src/access/roles";
import { AdminPanel } from "@/src/ui/admin-page";
import { callApi } from "@/src/ui/api-client";
import { ConfirmDialog } from "@/src/ui/dialog";
import { PasswordField } from "@/src/ui/password-field";
import { ResetPasswordDialog } from "./reset-password-dialog";
import { type PublicUser, userListResponseSchema } from "../users.schemas";

interface UsersAdminProps {
  initialUsers: PublicUser[];
  currentUserId: string;
}

export function UsersAdmin({ initialUsers, currentUserId }: UsersAdminProps) {
  const router = useRouter();
  const [users, setUsers] = useState(initialUsers);
  const [busyUserId, setBusyUserId] = useState<string | null>(null);
  const [resetting, setResetting] = useState<PublicUser | null>(null);
  const [pending, setPending] = useState<{ kind: "delete" | "sign-out"; user: PublicUser } | null>(null);

  async function reload() {
    const body = await callApi("/api/admin/users", { method: "GET" }, userListResponseSchema);
    setUsers(body.users);
    router.refresh();
  }

  /**
   * Runs one admin action with a toast for its outcome, then shows the list as it now is. An action
   * that ends the user's sessions, done to oneself, signs this browser out instead.
   */
  async function run(
    userId: string | null,
    success: string,
    action: () => Promise<unknown>,
    options: { endsSessions?: boolean } = {},
  ): Promise<boolean> {
    setBusyUserId(userId);
    try {
      await action();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "That did not work.");
      setBusyUserId(null);
      return false;
    }
    toast.success(success);
    if (options.endsSessions && userId === currentUserId) {
      await signOut({ redirect: false });
      router.push("/signin?callbackUrl=%2Fadmin%2Fusers");
      router.refresh();
      return true;
    }
    await reload().catch((error: unknown) => toast.error(error instanceof Error ? error.message : "Could not reload the list."));
    setBusyUserId(null);
    return true;
  }

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const body = {
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? ""),
      role: String(form.get("role") ?? "viewer"),
      password: String(form.get("password") ?? ""),
    };
    const isCreated = await run(null, `Created ${body.email}`, () => callApi("/api/admin/users", { method: "POST", body }));
    if (isCreated) formElement.reset();
  }

  async function confirmPending() {
    if (!pending) return;
    const { kind, user } = pending;
    const isDone =
      kind === "delete"
        ? await run(user.id, `Deleted ${user.email}`, () => callApi(`/api/admin/users/${user.id}`, { method: "DELETE" }))
        : await run(user.id, `${user.email} was signed out everywhere`, () => callApi(`/api/admin/users/${user.id}/sessions`, { method: "DELETE" }), {
            endsSessions: true,
          });
    if (isDone) setPending(null);
  }

  return (
    <>
      <AdminPanel title="New user">
        <form className="admin-form" onSubmit={handleCreate} aria-label="Create a user">
          <label className="field">
            Name
            <input name="name" required maxLength={100} autoComplete="off" />
          </label>
          <label className="field">
            E-mail
            <input name="email" type="email" required maxLength={254} autoComplete="off" />
          </label>
          <label className="field">
            Role
            <select name="role" defaultValue="viewer">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </label>
          <PasswordField name="password" label="Password" hint="At least 10 characters." />
          <div className="admin-form-submit">
            <button type="submit">Create user</button>
          </div>
        </form>
      </AdminPanel>

      <h2>Everyone</h2>
      <table className="table users-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>E-mail</th>
            <th>Role</th>
            <th>Status</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const isBusy = busyUserId === user.id;
            const isSelf = user.id === currentUserId;
            return (
              <tr key={user.id} data-testid={`user-row-${user.email}`}>
                <td data-label="Name">
                  <span>
                    <span className="user-cell-name">{user.name}</span>
                    {isSelf && <span className="muted"> (you)</span>}
                  </span>
                </td>
                <td data-label="E-mail">{user.email}</td>
                <td data-label="Role">
                  <select
                    aria-label={`Role of ${user.email}`}
                    value={user.role}
                    disabled={isBusy}
                    onChange={(event) =>
                      void run(user.id, `${user.email} is now ${event.target.value}`, () =>
                        callApi(`/api/admin/users/${user.id}`, { method: "PATCH", body: { role: event.target.value } }),
                      )
                    }
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                </td>
                <td data-label="Status">
                  <span className={user.isDisabled ? "badge badge-warning" : "badge badge-success"}>{user.isDisabled ? "Disabled" : "Active"}</span>
                </td>
                <td className="table-actions">
                  <div className="actions">
                    <button
                      type="button"
                      className="secondary button-small"
                      disabled={isBusy}
                      onClick={() =>
                        void run(user.id, `${user.email} ${user.isDisabled ? "enabled" : "disabled"}`, () =>
                          callApi(`/api/admin/users/${user.id}`, { method: "PATCH", body: { disabled: !user.isDisabled } }),
                        )
                      }
                    >
                      {user.isDisabled ? "Enable" : "Disable"}
                    </button>
                    <button type="button" className="secondary button-small" disabled={isBusy} onClick={() => setResetting(user)}>
                      Reset password
                    </button>
                    <button type="button" className="secondary button-small" disabled={isBusy} onClick={() => setPending({ kind: "sign-out", user })}>
                      Sign out everywhere
                    </button>
                    <button type="button" className="danger button-small" disabled={isBusy || isSelf} onClick={() => setPending({ kind: "delete", user })}>
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <ResetPasswordDialog
        user={resetting}
        isBusy={resetting !== null && busyUserId === resetting.id}
        onClose={() => setResetting(null)}
        onReset={async (user, password) => {
          const isDone = await run(
            user.id,
            `Password reset for ${user.email}; they were signed out everywhere`,
            () => callApi(`/api/admin/users/${user.id}/password`, { method: "POST", body: { password } }),
            { endsSessions: true },
          );
          if (isDone) setResetting(null);
        }}
      />

      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === "delete" ? `Delete ${pending.user.email}?` : `Sign ${pending?.user.email ?? ""} out everywhere?`}
        confirmLabel={pending?.kind === "delete" ? "Delete user" : "Sign out everywhere"}
        tone={pending?.kind === "delete" ? "danger" : "default"}
        isBusy={pending !== null && busyUserId === pending.user.id}
        onConfirm={() => void confirmPending()}
        onClose={() => setPending(null)}
      >
        {pending?.kind === "delete" ? (
          <p>This cannot be undone. Their photos are deleted with them.</p>
        ) : (
          <p>Every browser they are signed in on is signed out at its next page load. {pending?.user.id === currentUserId && "That includes this one."}</p>
        )}
      </ConfirmDialog>
    </>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { ROLES } from "@/src/access/roles";
import { callApi } from "@/src/ui/api-client";
import type { PublicUser } from "../users.schemas";

interface UsersAdminProps {
  initialUsers: PublicUser[];
  currentUserId: string;
}

export function UsersAdmin({ initialUsers, currentUserId }: UsersAdminProps) {
  const router = useRouter();
  const [users, setUsers] = useState(initialUsers);
  const [busyUserId, setBusyUserId] = useState<string | null>(null);

  async function reload() {
    const body = await callApi<{ users: PublicUser[] }>("/api/admin/users", { method: "GET" });
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

  function handleResetPassword(user: PublicUser) {
    const password = window.prompt(`New password for ${user.email} (at least 10 characters):`);
    if (!password) return;
    void run(
      user.id,
      `Password reset for ${user.email}; they were signed out everywhere`,
      () => callApi(`/api/admin/users/${user.id}/password`, { method: "POST", body: { password } }),
      { endsSessions: true },
    );
  }

  function handleDelete(user: PublicUser) {
    if (!window.confirm(`Delete ${user.email}? This cannot be undone.`)) return;
    void run(user.id, `Deleted ${user.email}`, () => callApi(`/api/admin/users/${user.id}`, { method: "DELETE" }));
  }

  return (
    <>
      <form className="inline-form" onSubmit={handleCreate} aria-label="Create a user">
        <label>
          Name
          <input name="name" required maxLength={100} />
        </label>
        <label>
          E-mail
          <input name="email" type="email" required maxLength={254} />
        </label>
        <label>
          Role
          <select name="role" defaultValue="viewer">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <label>
          Password
          <input name="password" type="password" required minLength={10} maxLength={256} autoComplete="new-password" />
        </label>
        <button type="submit">Create user</button>
      </form>
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>E-mail</th>
            <th>Role</th>
            <th>Status</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const isBusy = busyUserId === user.id;
            const isSelf = user.id === currentUserId;
            return (
              <tr key={user.id} data-testid={`user-row-${user.email}`}>
                <td>
                  {user.name}
                  {isSelf && <span className="muted"> (you)</span>}
                </td>
                <td>{user.email}</td>
                <td>
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
                <td>{user.isDisabled ? "Disabled" : "Active"}</td>
                <td>
                  <div className="actions">
                    <button
                      type="button"
                      className="secondary"
                      disabled={isBusy}
                      onClick={() =>
                        void run(user.id, `${user.email} ${user.isDisabled ? "enabled" : "disabled"}`, () =>
                          callApi(`/api/admin/users/${user.id}`, { method: "PATCH", body: { disabled: !user.isDisabled } }),
                        )
                      }
                    >
                      {user.isDisabled ? "Enable" : "Disable"}
                    </button>
                    <button type="button" className="secondary" disabled={isBusy} onClick={() => handleResetPassword(user)}>
                      Reset password
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={isBusy}
                      onClick={() =>
                        void run(
                          user.id,
                          `${user.email} was signed out everywhere`,
                          () => callApi(`/api/admin/users/${user.id}/sessions`, { method: "DELETE" }),
                          { endsSessions: true },
                        )
                      }
                    >
                      Sign out everywhere
                    </button>
                    <button type="button" className="danger" disabled={isBusy || isSelf} onClick={() => handleDelete(user)}>
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

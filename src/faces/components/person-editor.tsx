"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { PERSON_NAME_MAX_LENGTH } from "../person-name-limit";
import { personAnswer } from "./person-answers";

interface OtherPerson {
  id: string;
  label: string;
}

interface PersonEditorProps {
  personId: string;
  name: string | null;
  isHidden: boolean;
  /** The owner's other people, to merge this one into. */
  others: OtherPerson[];
}

/** Name, hide, or merge one of the owner's people; each saves at once and the page is drawn again. */
export function PersonEditor({ personId, name, isHidden, others }: PersonEditorProps) {
  const router = useRouter();
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(work: () => Promise<string | void>, done: string) {
    setIsBusy(true);
    setError(null);
    try {
      const goTo = await work();
      toast.success(done);
      if (goTo) router.push(goTo);
      else router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
    } finally {
      setIsBusy(false);
    }
  }

  function handleName(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    void run(() => callApi(`/api/people/${personId}`, { method: "PATCH", body: { name: typed || null } }, personAnswer).then(() => undefined), typed ? `Named ${typed}.` : "Name removed.");
  }

  function handleMerge(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const intoPersonId = String(new FormData(event.currentTarget).get("into") ?? "");
    if (!intoPersonId) return;
    void run(
      () => callApi(`/api/people/${personId}/merge`, { method: "POST", body: { intoPersonId } }, personAnswer).then((answer) => `/people/${answer.person.id}`),
      "Merged.",
    );
  }

  function toggleHidden() {
    void run(() => callApi(`/api/people/${personId}`, { method: "PATCH", body: { isHidden: !isHidden } }, personAnswer).then(() => undefined), isHidden ? "Shown again." : "Hidden from People.");
  }

  return (
    <div className="person-editor">
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <form className="person-editor-row" onSubmit={handleName} aria-label="Name this person">
        <label className="field">
          Name
          <input name="name" maxLength={PERSON_NAME_MAX_LENGTH} defaultValue={name ?? ""} placeholder="Who is this?" data-testid="person-name-input" />
        </label>
        <button type="submit" disabled={isBusy}>
          Save name
        </button>
      </form>
      {others.length > 0 && (
        <form className="person-editor-row" onSubmit={handleMerge} aria-label="Merge into another person">
          <label className="field">
            Same person as
            <select name="into" defaultValue="">
              <option value="" disabled>
                Choose a person…
              </option>
              {others.map((other) => (
                <option key={other.id} value={other.id}>
                  {other.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="secondary" disabled={isBusy}>
            Merge
          </button>
        </form>
      )}
      <div className="person-editor-row">
        <button type="button" className="secondary" onClick={toggleHidden} disabled={isBusy} aria-pressed={isHidden}>
          {isHidden ? "Show in People" : "Hide from People"}
        </button>
      </div>
    </div>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import type { UnnamedFaceView } from "../person-suggestions.service";
import type { PersonSuggestion } from "../person-suggestions";
import { FaceCrop } from "./face-crop";
import { personAnswer } from "./person-answers";
import { NEW_PERSON, PersonChoice } from "./person-choice";

interface UnnamedFacesGridProps {
  faces: UnnamedFaceView[];
  /** The owner's named people, to give the chosen faces to. */
  people: Array<{ id: string; name: string }>;
}

/**
 * The owner's unnamed faces: tick several (each tile is a checkbox, so Tab and Space work as well
 * as a click) and give them all to one person, old or new, in one request; or answer a face's
 * "is this X?" on its own.
 */
export function UnnamedFacesGrid({ faces, people }: UnnamedFacesGridProps) {
  const router = useRouter();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState(people[0]?.id ?? NEW_PERSON);
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function toggle(faceId: string) {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(faceId)) next.add(faceId);
      return next;
    });
  }

  async function assign(faceIds: string[], to: { personId: string } | { name: string }, done: string) {
    setIsBusy(true);
    setError(null);
    try {
      await callApi("/api/faces/assign", { method: "POST", body: { faceIds, ...to } }, personAnswer);
      toast.success(done);
      setChosen(new Set());
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
    } finally {
      setIsBusy(false);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const faceIds = [...chosen];
    if (faceIds.length === 0) return;
    const count = `${faceIds.length} ${faceIds.length === 1 ? "face" : "faces"}`;
    if (target === NEW_PERSON) {
      const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
      if (!name) {
        setError("Type the new person's name.");
        return;
      }
      void assign(faceIds, { name }, `${count} named ${name}.`);
    } else {
      const name = people.find((person) => person.id === target)?.name ?? "them";
      void assign(faceIds, { personId: target }, `${count} given to ${name}.`);
    }
  }

  async function reject(face: UnnamedFaceView, suggestion: PersonSuggestion) {
    if (!face.personId) return;
    setIsBusy(true);
    setError(null);
    try {
      await callApi(`/api/people/${face.personId}/suggestions/reject`, { method: "POST", body: { suggestedPersonId: suggestion.personId } });
      toast.success(`Not ${suggestion.name}: not asked again.`);
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
    } finally {
      setIsBusy(false);
    }
  }

  const allChosen = chosen.size === faces.length;
  return (
    <div className="unnamed-faces">
      <form className="unnamed-faces-bar" onSubmit={handleSubmit} aria-label="Name the chosen faces" noValidate>
        <p className="unnamed-faces-count" aria-live="polite">
          {chosen.size === 0 ? "Choose faces of one person" : `${chosen.size} chosen`}
        </p>
        <button type="button" className="secondary" onClick={() => setChosen(allChosen ? new Set() : new Set(faces.map((face) => face.id)))}>
          {allChosen ? "Choose none" : "Choose all"}
        </button>
        <PersonChoice label="Give them to" people={people} value={target} onChange={setTarget} />
        <button type="submit" disabled={isBusy || chosen.size === 0}>
          Name {chosen.size > 0 ? chosen.size : ""} {chosen.size === 1 ? "face" : "faces"}
        </button>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
      </form>
      <ul className="unnamed-faces-grid" data-testid="unnamed-faces">
        {faces.map((face, index) => {
          const [suggestion] = face.suggestions;
          return (
            <li key={face.id} className={chosen.has(face.id) ? "unnamed-face is-chosen" : "unnamed-face"}>
              <label className="unnamed-face-pick">
                <input type="checkbox" checked={chosen.has(face.id)} onChange={() => toggle(face.id)} aria-label={`Face ${index + 1}`} data-face-id={face.id} />
                <FaceCrop cover={face.crop} size="small" />
              </label>
              {suggestion && face.personId && (
                <div className="unnamed-face-suggestion">
                  <span>Is this {suggestion.name}?</span>
                  <span className="unnamed-face-answers">
                    <button type="button" className="secondary" disabled={isBusy} onClick={() => void assign([face.id], { personId: suggestion.personId }, `Given to ${suggestion.name}.`)} aria-label={`Yes, face ${index + 1} is ${suggestion.name}`}>
                      Yes
                    </button>
                    <button type="button" className="secondary" disabled={isBusy} onClick={() => void reject(face, suggestion)} aria-label={`No, face ${index + 1} is not ${suggestion.name}`}>
                      No
                    </button>
                  </span>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

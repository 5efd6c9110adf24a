"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import type { PersonView } from "../people.service";
import type { PersonSuggestion } from "../person-suggestions";
import { FaceCrop } from "./face-crop";
import { personAnswer } from "./person-answers";

interface PersonSuggestionsProps {
  /** The unnamed person asked about. */
  personId: string;
  /** Named people they may be, nearest first. */
  suggestions: PersonSuggestion[];
  /** The first suggestion's face, to compare with the person's own at the top of the page. */
  suggestedCover: PersonView["cover"];
}

/**
 * "Is this Ada?" on an unnamed person's page: yes merges them into Ada (and goes to Ada's page);
 * no is remembered, and the next nearest, if any, is asked about.
 */
export function PersonSuggestions({ personId, suggestions, suggestedCover }: PersonSuggestionsProps) {
  const router = useRouter();
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [first] = suggestions;
  if (!first) return null;

  async function run(work: () => Promise<void>) {
    setIsBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
    } finally {
      setIsBusy(false);
    }
  }

  const accept = (suggestion: PersonSuggestion) =>
    run(async () => {
      const answer = await callApi(`/api/people/${personId}/merge`, { method: "POST", body: { intoPersonId: suggestion.personId } }, personAnswer);
      toast.success(`Added to ${suggestion.name}.`);
      router.push(`/people/${answer.person.id}`);
    });

  const reject = (suggestion: PersonSuggestion) =>
    run(async () => {
      await callApi(`/api/people/${personId}/suggestions/reject`, { method: "POST", body: { suggestedPersonId: suggestion.personId } });
      toast.success(`Not ${suggestion.name}: not asked again.`);
      router.refresh();
    });

  return (
    <section className="person-suggestion" aria-labelledby="person-suggestion-title" data-testid="person-suggestion">
      <div className="person-suggestion-head">
        <FaceCrop cover={suggestedCover} size="small" />
        <div>
          <h2 id="person-suggestion-title">Is this {first.name}?</h2>
          <p className="muted">Their faces look alike. Saying yes puts these photos with {first.name}&apos;s.</p>
        </div>
      </div>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <div className="person-suggestion-actions">
        <button type="button" onClick={() => void accept(first)} disabled={isBusy}>
          Yes, {first.name}
        </button>
        <button type="button" className="secondary" onClick={() => void reject(first)} disabled={isBusy}>
          No
        </button>
      </div>
    </section>
  );
}

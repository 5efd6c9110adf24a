"use client";

import Form from "next/form";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { z } from "zod";
import { answerShape, callApi } from "@/src/ui/api-client";
import type { searchSuggestResponseSchema } from "../search-api.schemas";

// The search box is in every page's header, public ones included: the answer's type is the
// contract's (erased at build) and only its outline is checked, so zod stays out of the bundle.
type SuggestAnswer = z.output<typeof searchSuggestResponseSchema>;
type Suggestion = SuggestAnswer["suggestions"][number];
const suggestAnswer = answerShape<SuggestAnswer>((answer) => Array.isArray(answer.suggestions));

const KIND_LABELS: Record<Suggestion["kind"], string> = { person: "Person", tag: "Tag", album: "Album", camera: "Camera", lens: "Lens", place: "Place", word: "Word" };
const SUGGEST_DELAY_MS = 150;
const SUGGEST_LIMIT = 8;
const MAX_LENGTH = 500;

/** The word being typed: what follows the last white space (nothing when the text ends in a space). */
function lastWord(text: string): { start: number; word: string } {
  const start = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\t")) + 1;
  return { start, word: text.slice(start) };
}

/**
 * The search box: a GET form to /search (so it works without JavaScript) whose input is a combobox
 * suggesting tags, albums, cameras, lenses and words for the word being typed. Arrows move through
 * the suggestions, Enter takes one (or searches when none is picked), Escape closes the list.
 */
export function SearchBox({ initialQuery, describedBy, invalid }: { initialQuery: string; describedBy?: string; invalid?: boolean }) {
  const id = useId();
  const listId = `${id}-suggestions`;
  const [text, setText] = useState(initialQuery);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [isOpen, setIsOpen] = useState(false);
  const [wanted, setWanted] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // Ask for suggestions a moment after typing stops; an answer for older text is dropped.
  useEffect(() => {
    if (wanted === null) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const path = `/api/search/suggest?${new URLSearchParams({ q: wanted, limit: String(SUGGEST_LIMIT) })}`;
        const found = (await callApi(path, { method: "GET", signal: controller.signal }, suggestAnswer)).suggestions;
        setSuggestions(found);
        setActive(-1);
        setIsOpen(found.length > 0);
      } catch {
        if (!controller.signal.aborted) {
          setSuggestions([]);
          setIsOpen(false);
        }
      }
    }, SUGGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [wanted]);

  function choose(suggestion: Suggestion) {
    const { start, word } = lastWord(text);
    const dash = word.startsWith("-") && !suggestion.token.startsWith("-") ? "-" : "";
    const next = `${text.slice(0, start)}${dash}${suggestion.token} `;
    setText(next);
    setWanted(null);
    setIsOpen(false);
    setSuggestions([]);
    setActive(-1);
    input.current?.focus();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (suggestions.length === 0) return;
      event.preventDefault();
      setIsOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      // -1 is the text itself: the arrows cycle through it and every suggestion.
      setActive((current) => ((current + 1 + step + suggestions.length + 1) % (suggestions.length + 1)) - 1);
      return;
    }
    if (event.key === "Enter" && isOpen && active >= 0 && active < suggestions.length) {
      event.preventDefault();
      choose(suggestions[active]);
      return;
    }
    if (event.key === "Escape" && isOpen) {
      event.preventDefault();
      setIsOpen(false);
      setActive(-1);
    }
  }

  const activeOption = isOpen && active >= 0 && active < suggestions.length ? `${listId}-${active}` : undefined;

  return (
    <Form action="/search" className="search-form" role="search" aria-label="Search photos">
      <div className="search-combobox">
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Search photos
        </label>
        <svg className="search-form-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6.5" />
          <path d="m16 16 4.5 4.5" />
        </svg>
        <input
          ref={input}
          id={`${id}-q`}
          name="q"
          type="search"
          className="search-input"
          value={text}
          maxLength={MAX_LENGTH}
          placeholder="beach year:2019 camera:canon"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={isOpen}
          aria-controls={listId}
          aria-activedescendant={activeOption}
          aria-describedby={describedBy}
          aria-invalid={invalid ? true : undefined}
          data-testid="search-input"
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            // Nothing being typed (the text ends in a space, or only a "-"): nothing to suggest.
            if (lastWord(next).word.replace(/^-+/, "") === "") {
              setWanted(null);
              setSuggestions([]);
              setIsOpen(false);
            } else {
              setWanted(next);
            }
          }}
          onKeyDown={handleKeyDown}
          onBlur={() => setIsOpen(false)}
        />
        <ul id={listId} role="listbox" className="search-suggestions" aria-label="Suggestions" hidden={!isOpen} data-testid="search-suggestions">
          {suggestions.map((suggestion, index) => (
            <li
              key={`${suggestion.kind}:${suggestion.token}`}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className="search-suggestion"
              // Keep the focus in the input: a click must not blur it before the choice lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(suggestion)}
            >
              <span className="search-suggestion-label">{suggestion.label}</span>
              <span className="search-suggestion-kind">{KIND_LABELS[suggestion.kind]}</span>
            </li>
          ))}
        </ul>
      </div>
      <button type="submit" className="search-submit">
        Search
      </button>
    </Form>
  );
}

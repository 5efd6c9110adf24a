"use client";

import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { callApi } from "@/src/ui/api-client";
import { cleanTagName, MAXIMUM_TAG_LENGTH, MAXIMUM_TAGS_PER_PHOTO, tagKey, tagNameProblem } from "../tag-name";
import { tagListAnswer, type TagListAnswer } from "./tag-answers";

interface TagInputProps {
  /** The tags chosen so far, as shown. */
  value: string[];
  onChange: (names: string[]) => void;
  label: string;
  /** A line under the field, read with it. */
  hint?: string;
}

type Suggestion = TagListAnswer["tags"][number];

/**
 * Tags as chips with autocomplete: an ARIA combobox (type, Arrow keys to move through suggestions,
 * Enter or comma to add, Escape to close, Backspace in the empty field to take the last chip off).
 * A spelling of a tag already chosen (another case, a decomposed accent) is not added twice.
 */
export function TagInput({ value, onChange, label, hint }: TagInputProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const chosen = new Set(value.map(tagKey));

  useEffect(() => {
    const typed = cleanTagName(text);
    if (typed.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const body = await callApi(`/api/tags/suggest?q=${encodeURIComponent(typed)}&limit=8`, { method: "GET", signal: controller.signal }, tagListAnswer);
        setSuggestions(body.tags);
        setActive(-1);
      } catch {
        // Aborted by the next keystroke, refused, or offline: no suggestions, typing still works.
      }
    }, 120);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  const shown = cleanTagName(text).length === 0 ? [] : suggestions.filter((suggestion) => !chosen.has(tagKey(suggestion.name)));
  const isOpen = open && shown.length > 0;

  function add(name: string) {
    const found = tagNameProblem(name);
    if (found) {
      if (cleanTagName(name).length > 0) setProblem(found);
      return;
    }
    if (value.length >= MAXIMUM_TAGS_PER_PHOTO) {
      setProblem(`A photo has at most ${MAXIMUM_TAGS_PER_PHOTO} tags.`);
      return;
    }
    setProblem(null);
    setText("");
    setSuggestions([]);
    setActive(-1);
    if (!chosen.has(tagKey(name))) onChange([...value, cleanTagName(name)]);
  }

  function removeAt(index: number) {
    onChange(value.filter((_, each) => each !== index));
    input.current?.focus();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" && shown.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (current + 1) % shown.length);
    } else if (event.key === "ArrowUp" && shown.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (current <= 0 ? shown.length - 1 : current - 1));
    } else if (event.key === "Enter" || event.key === ",") {
      // Enter adds a tag rather than sending the form; with the field empty it sends as usual.
      if (event.key === "Enter" && text.trim() === "" && !(isOpen && active >= 0)) return;
      event.preventDefault();
      add(isOpen && active >= 0 ? shown[active].name : text);
    } else if (event.key === "Escape" && isOpen) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (event.key === "Backspace" && text === "" && value.length > 0) {
      event.preventDefault();
      onChange(value.slice(0, -1));
    }
  }

  const listId = `${id}-suggestions`;
  return (
    <div className="field tag-field">
      <label htmlFor={`${id}-input`}>{label}</label>
      <div className="tag-combobox">
        <div className="tag-input" onClick={() => input.current?.focus()}>
          {value.length > 0 && (
            <ul className="tag-chips" aria-label={`${label}, chosen`}>
              {value.map((name, index) => (
                <li key={tagKey(name)} className="tag-chip">
                  <span>{name}</span>
                  <button type="button" className="tag-chip-remove" onClick={() => removeAt(index)} aria-label={`Remove tag ${name}`}>
                    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                      <path d="M6 6l12 12M18 6L6 18" />
                    </svg>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <input
            ref={input}
            id={`${id}-input`}
            className="tag-input-text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={isOpen}
            aria-controls={listId}
            aria-activedescendant={isOpen && active >= 0 ? `${listId}-${active}` : undefined}
            aria-describedby={hint || problem ? `${id}-hint` : undefined}
            aria-invalid={problem ? true : undefined}
            value={text}
            maxLength={MAXIMUM_TAG_LENGTH * 2}
            placeholder={value.length === 0 ? "Add a tag" : ""}
            autoComplete="off"
            onChange={(event) => {
              const next = event.target.value;
              // A pasted "a, b, c" becomes three tags; what follows the last comma stays typed.
              if (next.includes(",")) {
                const parts = next.split(",");
                const rest = parts.pop() ?? "";
                let names = value;
                for (const part of parts) {
                  if (tagNameProblem(part) === null && !names.some((name) => tagKey(name) === tagKey(part))) names = [...names, cleanTagName(part)];
                }
                if (names !== value) onChange(names.slice(0, MAXIMUM_TAGS_PER_PHOTO));
                setText(rest.trimStart());
              } else {
                setText(next);
              }
              setProblem(null);
              setOpen(true);
            }}
            onKeyDown={handleKeyDown}
            onBlur={() => {
              setOpen(false);
              // What was typed and not yet added counts when the reader moves on (to Save, say).
              if (cleanTagName(text).length > 0) add(text);
            }}
            onFocus={() => setOpen(true)}
          />
        </div>
        <ul id={listId} role="listbox" className="tag-suggestions" aria-label="Suggested tags" hidden={!isOpen}>
          {shown.map((suggestion, index) => (
            <li
              key={suggestion.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className="tag-suggestion"
              // Before the input's blur, so the click lands.
              onMouseDown={(event) => {
                event.preventDefault();
                add(suggestion.name);
              }}
            >
              {suggestion.name}
            </li>
          ))}
        </ul>
      </div>
      {(problem || hint) && (
        <p id={`${id}-hint`} className={problem ? "field-error" : "field-hint"} aria-live="polite">
          {problem ?? hint}
        </p>
      )}
    </div>
  );
}

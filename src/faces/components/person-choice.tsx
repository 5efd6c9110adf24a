"use client";

import { PERSON_NAME_MAX_LENGTH } from "../person-name-limit";

/** The select's value that asks for a new person, named in the field that then appears. */
export const NEW_PERSON = "new";

interface PersonChoiceProps {
  /** The select's label ("Person", "Give them to"). */
  label: string;
  /** The owner's people to choose from; "A new person…" comes last. */
  people: ReadonlyArray<{ id: string; name: string }>;
  value: string;
  onChange: (value: string) => void;
  /** Where a spec finds the select and the name field by test id. */
  testIds?: { select: string; name: string };
}

/**
 * Who faces go to: one of the owner's people, or a new one whose name the form reads as `name`.
 * The form checks the name itself (its message beside the form), so `required` only tells
 * assistive technology; both forms using this are `noValidate`.
 */
export function PersonChoice({ label, people, value, onChange, testIds }: PersonChoiceProps) {
  return (
    <>
      <label className="field">
        {label}
        <select value={value} onChange={(event) => onChange(event.target.value)} name="person" data-testid={testIds?.select}>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
          <option value={NEW_PERSON}>A new person…</option>
        </select>
      </label>
      {value === NEW_PERSON && (
        <label className="field">
          Name
          <input name="name" maxLength={PERSON_NAME_MAX_LENGTH} placeholder="Who is this?" autoComplete="off" required data-testid={testIds?.name} />
        </label>
      )}
    </>
  );
}

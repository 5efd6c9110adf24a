"use client";

import { createContext, useContext, useEffect, useRef } from "react";

/** Saves one field that another domain put into the photo editor (the page fills its slots). */
export type EditorSaveStep = () => Promise<void>;

type RegisterSaveStep = (step: EditorSaveStep) => () => void;

/**
 * How a field in one of the photo editor's slots joins its Save: photos never imports the domains
 * that fill the slots (tags), so each field brings its own save and the editor runs them in turn
 * after the photo's own fields are saved, before it says "Photo saved".
 */
export const EditorSaveStepsContext = createContext<RegisterSaveStep | null>(null);

/** Runs `save` whenever the photo editor around this field is saved. */
export function useEditorSaveStep(save: EditorSaveStep): void {
  const register = useContext(EditorSaveStepsContext);
  if (register === null) throw new Error("useEditorSaveStep is for fields inside a PhotoEditor's slot.");
  // The editor calls the latest save, which sees the field's latest state.
  const latest = useRef(save);
  useEffect(() => {
    latest.current = save;
  });
  useEffect(() => register(() => latest.current()), [register]);
}

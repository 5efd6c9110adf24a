"use client";

import { useState } from "react";
import { useEditorSaveStep } from "@/src/photos/components/photo-editor-save-steps";
import { callApi } from "@/src/ui/api-client";
import { tagListAnswer } from "./tag-answers";
import { TagInput } from "./tag-input";

/**
 * A photo's tags in the photo editor's tag slot (the photo page puts it there): saved with the
 * editor's Save, only when they changed, then shown as the server stored them.
 */
export function PhotoTagsField({ photoId, savedTags }: { photoId: string; savedTags: string[] }) {
  const [tags, setTags] = useState(savedTags);
  useEditorSaveStep(async () => {
    if (tags.join("\n") === savedTags.join("\n")) return;
    const saved = await callApi(`/api/photos/${photoId}/tags`, { method: "PUT", body: { names: tags } }, tagListAnswer);
    setTags(saved.tags.map((tag) => tag.name));
  });
  return <TagInput label="Tags" value={tags} onChange={setTags} hint="Enter or comma adds a tag; Backspace takes the last one off." />;
}

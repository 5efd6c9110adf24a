"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { ConfirmDialog } from "@/src/ui/dialog";
import { MAXIMUM_TAG_LENGTH } from "../tag-name";
import { mergedTagResponseSchema, tagResponseSchema } from "../tags.schemas";
import type { TagWithCount } from "../tags.service";

/** Every tag with its photos counted: rename one in its row, or merge the selected ones into one (after a confirmation). */
export function TagsAdmin({ initialTags }: { initialTags: TagWithCount[] }) {
  const router = useRouter();
  const [tags, setTags] = useState(initialTags);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [merging, setMerging] = useState(false);
  const [targetId, setTargetId] = useState<string | null>(null);

  async function handleRename(event: FormEvent<HTMLFormElement>, tag: TagWithCount) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    setIsBusy(true);
    try {
      // The rename answers the tag without its count (which a rename does not change): the row keeps its own.
      const { tag: renamed } = await callApi(`/api/tags/${tag.id}`, { method: "PATCH", body: { name } }, tagResponseSchema);
      setTags((current) => current.map((each) => (each.id === tag.id ? { ...each, ...renamed } : each)));
      setEditing(null);
      router.refresh();
      toast.success(`Renamed to “${renamed.name}”`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not rename the tag.");
    } finally {
      setIsBusy(false);
    }
  }

  const chosen = tags.filter((tag) => selected.has(tag.id));
  const target = chosen.find((tag) => tag.id === targetId) ?? chosen[0];

  async function handleMerge() {
    if (!target) return;
    setIsBusy(true);
    try {
      const sources = chosen.filter((tag) => tag.id !== target.id);
      const { tag: merged } = await callApi(
        "/api/tags/merge",
        { method: "POST", body: { sourceIds: sources.map((tag) => tag.id), targetId: target.id } },
        mergedTagResponseSchema,
      );
      setTags((current) => current.filter((tag) => !sources.some((source) => source.id === tag.id)).map((tag) => (tag.id === merged.id ? merged : tag)));
      setSelected(new Set());
      setMerging(false);
      toast.success(`Merged ${sources.length} ${sources.length === 1 ? "tag" : "tags"} into “${merged.name}”`);
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not merge the tags.");
    } finally {
      setIsBusy(false);
    }
  }

  function toggle(id: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  if (tags.length === 0) return <p className="muted">No tags yet. Add them to photos in each photo&apos;s details.</p>;

  return (
    <>
      <div className="tags-admin-toolbar" aria-live="polite">
        <span className="muted">{chosen.length === 0 ? "Select tags to merge them into one." : `${chosen.length} selected`}</span>
        <button
          type="button"
          className="secondary"
          disabled={chosen.length < 2}
          onClick={() => {
            setTargetId(chosen[0]?.id ?? null);
            setMerging(true);
          }}
        >
          Merge selected…
        </button>
      </div>
      <table className="table tags-table">
        <thead>
          <tr>
            <th className="tags-table-select">
              <span className="visually-hidden">Select</span>
            </th>
            <th>Tag</th>
            <th className="tags-table-count">Photos</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tags.map((tag) => (
            <tr key={tag.id} data-testid={`tag-row-${tag.key}`}>
              <td className="tags-table-select">
                <input type="checkbox" checked={selected.has(tag.id)} onChange={() => toggle(tag.id)} aria-label={`Select ${tag.name}`} />
              </td>
              <td data-label="Tag">
                {editing === tag.id ? (
                  <form className="tag-rename" onSubmit={(event) => handleRename(event, tag)}>
                    <input name="name" defaultValue={tag.name} aria-label={`New name for ${tag.name}`} maxLength={MAXIMUM_TAG_LENGTH * 2} autoFocus required />
                    <button type="submit" className="button-small" disabled={isBusy} aria-busy={isBusy}>
                      Save
                    </button>
                    <button type="button" className="secondary button-small" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <Link href={tag.path} className="tag-cell-name">
                    {tag.name}
                  </Link>
                )}
              </td>
              <td data-label="Photos" className="tags-table-count">
                {tag.count}
                <span className="tag-count-unit"> {tag.count === 1 ? "photo" : "photos"}</span>
              </td>
              <td className="table-actions">
                {editing !== tag.id && (
                  <div className="actions">
                    <button type="button" className="secondary button-small" onClick={() => setEditing(tag.id)} aria-label={`Rename ${tag.name}`}>
                      Rename
                    </button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={merging}
        title={`Merge ${chosen.length} tags`}
        confirmLabel={target ? `Merge into “${target.name}”` : "Merge"}
        isBusy={isBusy}
        onConfirm={handleMerge}
        onClose={() => setMerging(false)}
      >
        <fieldset className="tag-merge-choices">
          <legend>Keep which tag? The others are deleted and their photos get this one.</legend>
          {chosen.map((tag) => (
            <label key={tag.id} className="checkbox-field">
              <input type="radio" name="merge-target" checked={target?.id === tag.id} onChange={() => setTargetId(tag.id)} />
              {tag.name} <span className="muted">({tag.count})</span>
            </label>
          ))}
        </fieldset>
      </ConfirmDialog>
    </>
  );
}

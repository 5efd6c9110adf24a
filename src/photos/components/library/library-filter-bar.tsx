import { PHOTO_LABELS, VISIBILITIES } from "@/src/db/database";
import { LABEL_NAMES } from "../photo-label-names";
import type { LibraryFilter } from "../../library-filters";

const VISIBILITY_LABELS: Record<(typeof VISIBILITIES)[number], string> = { public: "Public", unlisted: "Unlisted", members: "Members", private: "Private" };

export interface FilterChoices {
  cameras: Array<{ slug: string; name: string }>;
  albums: Array<{ id: string; title: string }>;
  tags: Array<{ key: string; name: string }>;
}

type FilterControl =
  | { kind: "select"; name: keyof LibraryFilter; label: string; options: (choices: FilterChoices) => Array<{ value: string; label: string }> }
  | { kind: "checkbox"; name: keyof LibraryFilter; label: string };

/** The filter bar's controls, one per filter of libraryFilterSchema, with their choices above. */
export const LIBRARY_FILTER_CONTROLS: FilterControl[] = [
  {
    kind: "select",
    name: "status",
    label: "Status",
    options: () => [
      { value: "ready", label: "Ready" },
      { value: "processing", label: "Processing" },
      { value: "failed", label: "Failed" },
    ],
  },
  { kind: "select", name: "visibility", label: "Visibility", options: () => VISIBILITIES.map((value) => ({ value, label: VISIBILITY_LABELS[value] })) },
  { kind: "select", name: "camera", label: "Camera", options: ({ cameras }) => cameras.map((camera) => ({ value: camera.slug, label: camera.name })) },
  { kind: "select", name: "album", label: "Album", options: ({ albums }) => albums.map((album) => ({ value: album.id, label: album.title })) },
  { kind: "select", name: "tag", label: "Tag", options: ({ tags }) => tags.map((tag) => ({ value: tag.key, label: tag.name })) },
  { kind: "select", name: "minRating", label: "Rating", options: () => [5, 4, 3, 2, 1].map((stars) => ({ value: String(stars), label: stars === 5 ? "5 stars" : `${stars}+ stars` })) },
  { kind: "select", name: "label", label: "Label", options: () => [...PHOTO_LABELS.map((label) => ({ value: label, label: LABEL_NAMES[label] })), { value: "none", label: "No label" }] },
  { kind: "checkbox", name: "inNoAlbum", label: "In no album" },
  { kind: "checkbox", name: "missingAltText", label: "Missing alt text" },
];

/** A plain GET form: filters are in the URL, so a filtered library can be linked and reloaded. */
export function LibraryFilterBar({ filter, choices }: { filter: LibraryFilter; choices: FilterChoices }) {
  const isFiltered = Object.values(filter).some((value) => value !== undefined && value !== false);
  return (
    <form className="library-filters" method="get" action="/admin/photos" aria-label="Filter photos">
      {LIBRARY_FILTER_CONTROLS.map((control) =>
        control.kind === "select" ? (
          <div className="field library-filter" key={control.name}>
            <label htmlFor={`library-filter-${control.name}`}>{control.label}</label>
            <select id={`library-filter-${control.name}`} name={control.name} defaultValue={String(filter[control.name] ?? "")}>
              <option value="">Any</option>
              {control.options(choices).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <label className="checkbox-field library-filter library-filter-check" key={control.name}>
            <input type="checkbox" name={control.name} value="1" defaultChecked={filter[control.name] === true} />
            {control.label}
          </label>
        ),
      )}
      <div className="library-filter-actions">
        <button type="submit" className="secondary">
          Filter
        </button>
        {isFiltered && (
          <a className="button button-ghost" href="/admin/photos">
            Clear filters
          </a>
        )}
      </div>
    </form>
  );
}

/**
 * The audit details of an edit: only the fields whose value changed, as { before, after }. Values
 * are compared as JSON, so arrays and nulls compare by content.
 */
export function changedFields<Fields extends Record<string, unknown>>(
  before: Fields,
  after: Partial<Fields>,
): { before: Partial<Fields>; after: Partial<Fields> } {
  const changed = { before: {} as Partial<Fields>, after: {} as Partial<Fields> };
  for (const key of Object.keys(after) as Array<keyof Fields>) {
    if (after[key] === undefined || JSON.stringify(after[key]) === JSON.stringify(before[key])) continue;
    changed.before[key] = before[key];
    changed.after[key] = after[key];
  }
  return changed;
}

/**
 * "Canon EOS 40D" rather than "Canon Canon EOS 40D": many cameras repeat the make in the model,
 * some in another case or with "Corporation" after it (NIKON CORPORATION / NIKON D70).
 */
export function describeCamera(make: string | null, model: string | null): string | null {
  if (!model) return make;
  if (!make) return model;
  const brand = make.split(/\s+/)[0].toLowerCase();
  return model.toLowerCase().startsWith(brand) ? model : `${make} ${model}`;
}

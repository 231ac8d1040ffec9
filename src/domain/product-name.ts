// The name a catalogue product shows. A product auto-match created holds no
// name of its own (docs/design/decisions.md §10
// "Shared catalogue and privacy"): the schema gives it the viewing buyer's
// name for it first.

/** Its name; without one, its CAS number; without either, a name saying it has none. */
export function productName(name: string | null, casNumber: string | null): string {
  return name ?? (casNumber ? `CAS ${casNumber}` : "Unnamed product");
}

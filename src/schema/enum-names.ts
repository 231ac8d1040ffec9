// Apart from enums.ts so that modules beneath the schema builder (domain-errors.ts)
// and the REST adapter can spell enum values without building the schema.

/** "Raw Material" → RAW_MATERIAL, "ISOTank" → ISO_TANK, "mL" → M_L, "quote_selected" → QUOTE_SELECTED. */
export function graphqlEnumName(contractValue: string): string {
  return contractValue
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase();
}

// Options shared by many field declarations.

/** The options of a field that may be null: `t.exposeString("name", orNull("The name."))`. */
export function orNull(description: string): { nullable: true; description: string } {
  return { nullable: true, description };
}

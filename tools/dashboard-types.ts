import { generate } from "@graphql-codegen/cli";
import codegenConfig from "../codegen.js";

/** What `npm run graphql:types` writes: each file's path and content. */
export async function renderDashboardTypes(): Promise<{ filename: string; content: string }[]> {
  const outputs: { filename: string; content: string }[] = await generate(
    { ...codegenConfig, silent: true },
    false,
  );
  return outputs.map(({ filename, content }) => ({ filename, content }));
}

// The documents' tables of environment variables say what the configuration
// table says: every variable once, with its default and meaning.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCUMENTED_VARIABLES, generatedSection, variablesTable } from "../src/config/documentation.js";
import { listVariables } from "../src/config/setting.js";
import { CONFIG_TABLE } from "../src/config/table.js";
import { DEFAULT_CONFIG, loadConfig } from "../src/config.js";
import { projectRoot } from "../src/project-root.js";

const readDocument = (file: string) => readFileSync(path.join(projectRoot(), file), "utf8");

describe("the tables of environment variables", () => {
  for (const { file, variables } of DOCUMENTED_VARIABLES) {
    it(`in ${file} are the configuration table's (npm run config:docs rewrites them)`, () => {
      expect(generatedSection(readDocument(file)), `${file} is stale: run npm run config:docs`).toBe(
        variablesTable(variables),
      );
    });
  }

  it("list every variable of the configuration table, each once", () => {
    const documented = DOCUMENTED_VARIABLES.flatMap(({ variables }) => variables.map(({ name }) => name));
    const read = listVariables(CONFIG_TABLE).map(({ name }) => name);
    expect(documented.toSorted()).toEqual(read.toSorted());
    expect(new Set(read).size).toBe(read.length);
  });

  it("give, for every default, the text that configures the default when set explicitly", () => {
    const explicit = Object.fromEntries(
      DOCUMENTED_VARIABLES.flatMap(({ variables }) =>
        variables.flatMap((variable) =>
          variable.default === null ? [] : [[variable.name, variable.default]],
        ),
      ),
    );
    const fromDocs = loadConfig({ ...explicit, PUBLIC_BASE_URL: "http://localhost:4000" });
    expect(fromDocs).toEqual(DEFAULT_CONFIG);
  });
});

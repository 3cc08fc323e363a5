// Lint rules: typescript-eslint's recommended set over every package's sources and tests.
import js from "@eslint/js"
import tseslint from "typescript-eslint"
import { pluginBoundaries } from "./packages/plugins/lint/boundaries.js"

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "data/**", "**/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", setTimeout: "readonly", clearTimeout: "readonly", URL: "readonly", TextDecoder: "readonly", TextEncoder: "readonly", NodeJS: "readonly" } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "no-constant-condition": ["error", { checkLoops: false }]
    }
  },
  {
    // Sources import Effect modules one by one (`effect/Effect`): a barrel loads every module of
    // the package at start-up (for `effect`, fast-check and all), which start-up time and memory
    // goals cannot afford. Tests may use the barrels.
    files: ["packages/*/src/**/*.{ts,tsx}", "examples/*/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["effect", "@effect/platform", "@effect/platform-node", "@effect/sql", "@effect/sql-sqlite-node"].map((name) => ({
            name,
            message: `import the module itself (e.g. "${name}/ModuleName"): the barrel loads the whole package`
          }))
        }
      ]
    }
  },
  {
    // A plugin uses another plugin only through its index: see packages/plugins/lint/boundaries.js.
    // A plugin's dashboard pages (`ui/`) are browser code built by the dashboard: they may read other plugins' contracts.
    files: ["packages/plugins/src/**/*.ts"],
    ignores: ["packages/plugins/src/*/ui/**"],
    plugins: { garrison: { rules: { "plugin-boundaries": pluginBoundaries } } },
    rules: { "garrison/plugin-boundaries": "error" }
  },
  {
    // The dashboard (packages/dashboard) and the plugins' pages: browser code, React with JSX.
    files: ["packages/dashboard/**/*.{ts,tsx}", "packages/plugins/src/*/ui/**/*.{ts,tsx}"],
    languageOptions: {
      parserOptions: { ecmaFeatures: { jsx: true } },
      globals: {
        window: "readonly",
        document: "readonly",
        navigator: "readonly",
        fetch: "readonly",
        Blob: "readonly",
        HTMLElement: "readonly",
        ResizeObserver: "readonly",
        KeyboardEvent: "readonly"
      }
    }
  }
)

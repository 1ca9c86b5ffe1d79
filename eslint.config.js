// House rules a tool keeps (npm run lint): typescript-eslint's type-checked recommendations, formatting left to
// Prettier. The project service checks each file with the tsconfig that owns it (tsconfig.json, portal/, client/).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

/** The portal's syntax rules (one name for each spec type, one dialog, one weight conversion, the spec's base path). */
export const PORTAL_SYNTAX = [
  {
    selector: "Literal[value=/\\u002F2015-01-01/], TemplateElement[value.raw=/\\u002F2015-01-01/]",
    message: "Import BASE_PATH from generated/base-path.ts: the base path comes from the spec.",
  },
  {
    // S["Bar"] or components["schemas"]["Bar"] given a name of its own, also a part of one (S["Bar"]["role"] is
    // PortalUserRole again) or an element of its list (S["Bar"]["items"][number]); S = components["schemas"] is
    // named once, in api.ts. A part the spec leaves unnamed (an inline enum) is named with a disable that says so.
    selector: "TSTypeAliasDeclaration > TSIndexedAccessType:has(TSTypeReference[typeName.name=/^(S|components)$/])",
    message: "A spec type has one name, its own: import it by that name from generated/api.ts instead of aliasing it.",
  },
  {
    selector:
      ":matches(BinaryExpression, AssignmentExpression, VariableDeclarator:not([id.name=/^MS_PER_S(ECOND)?$/])) > Literal:matches([value=1000], [value=0.001]), Property:not([key.name=/^(max|min)/]) > Literal[value=1000]",
    message:
      "A kilogram's grams come from parts/weight.ts (kgFromGrams, gramsFromKg, wholeGramsFromKg): one conversion.",
  },
  {
    selector: "JSXOpeningElement[name.name='dialog'], CallExpression[callee.property.name='showModal']",
    message: "The portal has one dialog: parts/Confirm.tsx (its form prop for a dialog with fields).",
  },
  {
    // A body, a mutation's variables, or a type named ...Body, typed by a literal written here.
    selector:
      "Identifier[name=/^(body|[a-z]+Body)$/] > TSTypeAnnotation > TSTypeLiteral, Property[key.name='mutationFn'] > :function > :matches(Identifier, ObjectPattern) > TSTypeAnnotation > TSTypeLiteral, TSTypeAliasDeclaration[id.name=/Body$/] > TSTypeLiteral, TSInterfaceDeclaration[id.name=/Body$/]",
    message: "A request body's type is the spec's: import it by name from generated/api.ts.",
  },
  {
    // An answer's body cast to a shape written here (`r.error as { code?: string }`): the typed client already
    // types each answer by the spec, and a cast to a literal silently outlives a change of the spec.
    selector:
      "TSAsExpression:matches([expression.property.name='error'], [expression.property.name='data']) > :matches(TSTypeLiteral, TSUnionType:has(TSTypeLiteral))",
    message:
      "An answer is typed by the spec: read it as the typed client gives it (narrow with `in` or its code), or cast to the spec's type by its name from generated/api.ts.",
  },
];
/** A modal made by hand (role="dialog"), in the portal's pages; the station asks its questions in place. */
export const ONE_DIALOG_ROLE = {
  selector: "JSXAttribute[name.name='role'] > Literal[value=/^(alert)?dialog$/]",
  message: "The portal has one dialog: parts/Confirm.tsx (its form prop for a dialog with fields).",
};

// One language per page (issue 56): what a person reads comes from the words catalogue (portal/src/words) in
// en, fi and sv, never a sentence written into a view; a symbol or a number may stand alone.
const SHOWN_ATTRIBUTE =
  "JSXAttribute[name.name=/^(aria-label|placeholder|title|alt|label|data-label|legend|confirmLabel|cancelLabel)$/]";
export const ONE_LANGUAGE = {
  selector: [
    "JSXText[value=/[A-Za-z]/]",
    ":matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=/[A-Za-z]/]",
    ":matches(JSXElement, JSXFragment) > JSXExpressionContainer > :matches(ConditionalExpression, LogicalExpression) > Literal[value=/[A-Za-z]/]",
    ":matches(JSXElement, JSXFragment) > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]/]",
    `${SHOWN_ATTRIBUTE} > Literal[value=/[A-Za-z]/]`,
    `${SHOWN_ATTRIBUTE} > JSXExpressionContainer > Literal[value=/[A-Za-z]/]`,
    `${SHOWN_ATTRIBUTE} > JSXExpressionContainer > :matches(ConditionalExpression, LogicalExpression) > Literal[value=/[A-Za-z]/]`,
    `${SHOWN_ATTRIBUTE} > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]/]`,
  ].join(", "),
  message:
    "Words a person reads come from the catalogue (useWords().t, portal/src/words/<lang>/): one language per page.",
};

// One way for each thing in the portal (issue 54 item 2): one way from a failed request to words, one problem
// banner, and TanStack Query's signal in every query's request, so that a cancelled query stops.
export const ONE_WAY = [
  {
    selector: "CallExpression[callee.property.name='problems'], CallExpression[callee.name='problemsIn']",
    message: "A failed request is said one way: problemsOf(w, error, form) from app/data.ts.",
  },
  {
    selector: "MemberExpression[property.name='message'][object.property.name='error']",
    message:
      "Say a failed request in the person's words, not the service's message: problemsOf(w, error, form) from app/data.ts.",
  },
  {
    selector: "Property[key.name='queryFn'] > :function:not(:has(Identifier[name='signal']))",
    message:
      "Pass TanStack Query's signal to the request (queryFn: ({ signal }) => unwrap(api.GET(path, { signal }))): a cancelled query stops.",
  },
];
// One data layer shape (issue 54 item 2): each area's reads are query option factories (TanStack Query's
// queryOptions / infiniteQueryOptions) in its data file, pages/<area>/data.ts or app/data.ts, and a view passes one
// to the hook, useQuery(shipmentQuery(api, id)), never an options object written in the call.
export const ONE_QUERY_SHAPE = {
  selector:
    "CallExpression[callee.name=/^use(Suspense)?(Infinite)?Query$/] > ObjectExpression, CallExpression[callee.property.name=/^(fetch|prefetch|ensure)(Infinite)?Query(Data)?$/] > ObjectExpression",
  message:
    "Read through a query option factory of the area's data.ts (useQuery(shipmentQuery(api, id))), not an options object written in the call.",
};
export const DATA_FILES = ["portal/src/app/data.ts", "portal/src/pages/*/data.ts"];
export const QUERY_OPTIONS_HOME = {
  selector: "CallExpression[callee.name=/^(infiniteQueryOptions|queryOptions)$/]",
  message:
    "Query option factories live in the area's data file (pages/<area>/data.ts, app/data.ts): one shape, one place.",
};
// One list of credentials a shop hands out and takes back (checkout keys, Shopify callback addresses): a Revoke
// written into a table is parts/RevocableTable.tsx's.
export const ONE_REVOCABLE_LIST = {
  selector: "JSXElement[openingElement.name.name='table'] MemberExpression[property.name=/^revoke/]",
  message: "A list of keys or addresses that can be revoked is parts/RevocableTable.tsx: one table, one confirmation.",
};
export const ONE_BANNER = {
  selector: "JSXAttribute[name.name='className'] > Literal[value=/(^|\\s)problem(\\s|$)/]",
  message: "The portal has one problem banner: parts/fields.tsx ProblemBanner.",
};

/** The portal's house rules for no-restricted-syntax, but for those `left` out (where a file is their one place). */
const portalRules = (...left) => [
  "error",
  ...[
    ...PORTAL_SYNTAX,
    ONE_DIALOG_ROLE,
    ONE_LANGUAGE,
    ...ONE_WAY,
    ONE_BANNER,
    ONE_REVOCABLE_LIST,
    ONE_QUERY_SHAPE,
    QUERY_OPTIONS_HOME,
  ].filter((rule) => !left.includes(rule)),
];

export default tseslint.config(
  { ignores: ["generated/", "dist/", ".tmp/", "data/", "spec/", "docs/", "patches/", "server/pickup-points/demo/"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The one TypeScript file no tsconfig includes.
        projectService: { allowDefaultProject: ["portal/vite.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-misused-promises": [
        "error",
        // Express 5 awaits a handler's promise and passes its rejection to the error handler; React ignores an
        // event handler's result, so an async onClick/onSubmit is the same as one that starts a promise.
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      // A timer is declared before the callbacks that clear it and assigned after them.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Handlers, loaders and test doubles are async to fit a promise-returning signature, with or without an await.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["server/**/*.ts", "client/**/*.ts", "portal/src/**/*.{ts,tsx}"],
    // The base path is the spec's (generated/base-path.ts, from its server URL), never written again by hand.
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Literal[value=/\\u002F2015-01-01/], TemplateElement[value.raw=/\\u002F2015-01-01/]",
          message: "Import BASE_PATH from generated/base-path.ts: the base path comes from the spec.",
        },
      ],
      // One suffix for data access: a resource's statements are in its db.ts (or <part>.db.ts beside it).
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "\\.(repository|repo|dao|store)(\\.ts)?$",
              message: "Data access lives in db.ts or <part>.db.ts (docs/development.md).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["portal/src/**/*.{ts,tsx}"],
    // One name for each of the spec's types and one way for each thing (issue 54 item 2); one language per page
    // (issue 56).
    rules: { "no-restricted-syntax": portalRules() },
  },
  {
    // The areas' data files, where the query option factories are.
    files: DATA_FILES,
    rules: { "no-restricted-syntax": portalRules(QUERY_OPTIONS_HOME) },
  },
  {
    // The one revocable list itself.
    files: ["portal/src/parts/RevocableTable.tsx"],
    rules: { "no-restricted-syntax": portalRules(ONE_REVOCABLE_LIST) },
  },
  {
    // The receiving station says its few refusals in sentences of its own words (station-words.ts), not in banners,
    // and asks its questions in place (role="alertdialog" panels of the scan screen), not in the portal's Confirm.
    files: ["portal/src/station/**"],
    rules: { "no-restricted-syntax": portalRules(ONE_BANNER, ONE_REVOCABLE_LIST, ONE_DIALOG_ROLE) },
  },
  {
    files: ["server/db/migrations/**"],
    // A migration sees the database as it was then, not today's schema: Kysely<any>, as Kysely's guide says.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["test/**"],
    // Tests read parsed YAML and JSON bodies whose shape is what they assert.
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    // Plain JavaScript has no types to check; these scripts run on Node.
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        Buffer: "readonly",
        URL: "readonly",
      },
    },
  },
  prettier,
);

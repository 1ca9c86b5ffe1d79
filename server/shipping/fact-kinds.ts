// The rule vocabulary is owned by the client package (rule editors need it too); the server checks with it.
export { FACT_KINDS, OPERATORS_BY_KIND, type FactKind } from "../../client/rules.ts";

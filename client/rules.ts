// The vocabulary of price list rules, for rule editors (the merchant portal's among them): the server's own table
// (server/shipping/vocabulary.ts), which its write-time checks of price lists read, so an editor never offers
// what a save would refuse. The package build keeps the server file's layout (dist/server/shipping/).
export { FACT_KINDS, OPERATORS_BY_KIND, type FactKind } from "../server/shipping/vocabulary.ts";

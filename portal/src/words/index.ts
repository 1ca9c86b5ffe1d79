// The portal's words for the people who run a shop, in English, Finnish and Swedish after the browser's language:
// error answers and field problems in plain sentences, price list rules and traces, statuses, dates and money.
//
//   const w = useWords();                       // in a component; words(navigator.languages) elsewhere
//   const p = w.problems(r.error, "createInboundShipment"); // { message, fields: { "/body/products/0/gtin": ... } }
//   w.condition("order.total_weight", ">", 10000); // "Order weight is over 10 kg"
//   w.t.statuses.en_route;                       // "On the way"
export type { Catalogue, ItemWords, Say } from "./catalogue.ts";
export * from "./codes.ts";
export { placeOf, type Form, type Place } from "./fields.ts";
export * from "./format.ts";
export * from "./lang.ts";
export * from "./problems.ts";
export * from "./rules.ts";
export { useWords } from "./use-words.ts";
export { CATALOGUES } from "./catalogues.ts";
export { words, type Words } from "./words.ts";

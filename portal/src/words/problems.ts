// An error answer in words: a sentence for the answer's code, and for each detail a message that names the
// field and says what to do ("Product 2: Enter the name."), never the schema's keyword, pattern or pointer.
import type { ErrorDetail } from "../../../generated/api.ts";
import type { Say } from "./catalogue.ts";
import { CATALOGUES } from "./catalogues.ts";
import { isDetailCode, SCHEMA_KEYWORDS, type AnswerCode } from "./codes.ts";
import { placeOf, shapeAnswers, type Form, type Unit } from "./fields.ts";
import { formatNumber, formatUnit, lowerFirst, upperFirst } from "./format.ts";
import { speakerOf, type Lang, type Speaker } from "./lang.ts";
import type { Limits } from "./limits.ts";

type Who = Lang | Speaker;

/** Messages by the detail's path (as the portal's fields look them up), and the sentence for the answer. */
export interface Problems {
  message: string;
  fields: Record<string, string>;
  /** The request's id, for support ("quote it"). */
  reference?: string;
}

/** Which limit of the spec a code is about. */
const LIMIT_OF: Partial<Record<string, keyof Limits>> = {
  minLength: "minLength",
  maxLength: "maxLength",
  minimum: "minimum",
  maximum: "maximum",
  exclusiveMinimum: "exclusiveMinimum",
  exclusiveMaximum: "exclusiveMaximum",
  minItems: "minItems",
  maxItems: "maxItems",
};
const COUNTS = new Set(["minLength", "maxLength", "minItems", "maxItems"]);

/** The limit a message of the service states ("must be <= 100", "at most 500 lines", "more than 1000000"). */
function limitIn(message: string | undefined): number | undefined {
  const m = /(?:than|at most|at least|[<>]=?)\s*(-?\d+(?:\.\d+)?)/.exec(message ?? "");
  return m ? Number(m[1]) : undefined;
}

const withUnit = (who: Who, n: number, unit: Unit | undefined) =>
  unit ? formatUnit(who, n, unit) : formatNumber(who, n);

/** What one detail says: its field by name, the problem and what to do. */
export function fieldMessage(who: Who, detail: ErrorDetail, form?: Form): string {
  const { where, sentence } = fieldSentence(who, detail, form);
  return where.length ? CATALOGUES[speakerOf(who).lang].where(where, sentence) : sentence;
}

/** A detail's sentence, and the place it is said at ("Product 2"), for several sentences of one field to share. */
function fieldSentence(who: Who, detail: ErrorDetail, form?: Form): { where: string[]; sentence: string } {
  const t = CATALOGUES[speakerOf(who).lang];
  const place = placeOf(detail.path, form);
  const code = detail.code;
  // invalid_state names the shipment's status as the detail's code.
  if (place.root === "status" && code && Object.hasOwn(t.statuses, code)) {
    return { where: [], sentence: t.statusNow(t.statuses[code as keyof typeof t.statuses]) };
  }
  const itemWords = place.item && t.items[place.item.name];
  const l =
    place.item?.n !== undefined && itemWords
      ? `${lowerFirst(itemWords.title)} ${place.item.n}`
      : place.field
        ? t.fields[place.field]
        : t.unknownField;
  const limit = code ? LIMIT_OF[code] : undefined;
  const count =
    limit || code === "above_maximum" ? (limitIn(detail.message) ?? (limit && place.limits[limit])) : undefined;
  const say: Say = {
    l,
    L: upperFirst(l),
    ...(typeof count === "number" && {
      count,
      n: code && COUNTS.has(code) ? formatNumber(who, count) : withUnit(who, count, place.unit),
    }),
    ...(place.item?.n === undefined && itemWords && { item: itemWords }),
    ...(place.limits.type && { type: place.limits.type }),
    ...(place.field && { field: place.field }),
  };
  const sentence =
    // A body missing or of the wrong type is the portal's doing, not a field the user can fix.
    place.field === "body" && (code === "required" || code === "type")
      ? t.details.json(say)
      : place.shape && code && shapeAnswers(place.shape, code)
        ? t.shapes[place.shape](say)
        : isDetailCode(code)
          ? t.details[code](say)
          : t.details.const(say);
  const where = place.prefix.map((p, i) => {
    const words = "group" in p ? t.groups[p.group] : `${t.items[p.item].title} ${p.n}`;
    return i === 0 ? words : lowerFirst(words);
  });
  return { where, sentence };
}

/**
 * How basic a field's problem is: nothing there (or not the kind of value asked for), then its size, then its
 * form, then the service's own checks, which presume a value of the right form (a GTIN's check digit).
 */
const MISSING = 0;
const SIZE = 1;
const FORM = 2;
const RULE = 3;
const SIZES = new Set([...Object.keys(LIMIT_OF), "above_maximum", "below_zero"]);
function basicness(detail: ErrorDetail): number {
  const code = detail.code ?? "";
  if (code === "required" || code === "type" || code === "json") return MISSING;
  // "Fewer than 1 character" is an empty field, not a short one.
  if ((code === "minLength" || code === "minItems") && (limitIn(detail.message) ?? 1) <= 1) return MISSING;
  if (SIZES.has(code)) return SIZE;
  return (SCHEMA_KEYWORDS as readonly string[]).includes(code) ? FORM : RULE;
}

/**
 * The problems of one field worth saying, most basic first: an empty field is only empty (its pattern fails too,
 * but "remove the spaces" beside "enter the code" contradicts it), and a value the spec's checks refused is not
 * also judged by the service's own (a check digit of a GTIN that is too short).
 */
function worthSaying(details: ErrorDetail[]): ErrorDetail[] {
  const ranked = details.map((d) => ({ d, rank: basicness(d) })).sort((a, b) => a.rank - b.rank);
  const first = ranked[0]?.rank;
  return ranked
    .filter(({ rank }) => (first === MISSING ? rank === MISSING : first! < RULE ? rank < RULE : true))
    .map(({ d }) => d);
}

/** The sentence for an answer's code; a sign-in's refusal is a wrong password, not an ended session. */
export function answerMessage(who: Who, code: string, form?: Form): string {
  const t = CATALOGUES[speakerOf(who).lang];
  if (form === "createPortalSession" && (code === "unauthorized" || code === "rate_limited")) return t.signIn[code];
  return Object.hasOwn(t.answers, code) ? t.answers[code as AnswerCode] : t.answers.unknown;
}

interface Failure {
  code: string;
  details: ErrorDetail[];
  total?: number;
  reference?: string;
}

/** What failed: the service's error body (or the client's ApiError), no answer at all, or an answer not its. */
function failureOf(error: unknown): Failure {
  const e = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
    details?: unknown;
    details_total?: unknown;
    request_id?: unknown;
    requestId?: unknown;
  };
  const name = typeof e.name === "string" ? e.name : "";
  if (["ApiConnectionError", "ApiTimeoutError", "TypeError", "AbortError", "TimeoutError"].includes(name))
    return { code: "unreachable", details: [] };
  if (typeof e.code !== "string") return { code: "unexpected_response", details: [] };
  const details = Array.isArray(e.details)
    ? (e.details as unknown[]).filter(
        (d): d is ErrorDetail => typeof d === "object" && d !== null && typeof (d as ErrorDetail).path === "string",
      )
    : [];
  const reference =
    typeof e.request_id === "string" ? e.request_id : typeof e.requestId === "string" ? e.requestId : undefined;
  return {
    code: e.code,
    details,
    ...(typeof e.details_total === "number" && { total: e.details_total }),
    ...(reference && { reference }),
  };
}

/**
 * An error answer in words, for a form: the answer's sentence, and each detail's message by its path (several
 * details of one path joined). `form` (the operation's id) picks the spec's limits of that request and
 * sign-in's own sentences. Undefined when there is no error.
 */
export function problemsIn(who: Who, error: unknown, form?: Form): Problems | undefined {
  if (error === undefined || error === null || error === false) return undefined;
  const t = CATALOGUES[speakerOf(who).lang];
  const failure = failureOf(error);
  const said: string[] = [answerMessage(who, failure.code, form)];
  const byField = new Map<string, ErrorDetail[]>();
  for (const detail of failure.details) {
    if (placeOf(detail.path, form).root === "status") said.push(fieldMessage(who, detail, form));
    else byField.set(detail.path, [...(byField.get(detail.path) ?? []), detail]);
  }
  // One message a field: each of its problems said once, after the place they share ("Product 1: ...").
  const fields: Record<string, string> = {};
  for (const [path, details] of byField) {
    const parts = worthSaying(details).map((d) => fieldSentence(who, d, form));
    const sentences = [...new Set(parts.map((p) => p.sentence))].join(" ");
    fields[path] = parts[0]!.where.length ? t.where(parts[0]!.where, sentences) : sentences;
  }
  if (failure.total !== undefined && failure.total > failure.details.length) said.push(t.cut(failure.total));
  return { message: said.join(" "), fields, ...(failure.reference && { reference: failure.reference }) };
}
